package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// rvSharedDir returns ../../shared/<rel...> or skips the test when the shared
// directory is not beside the repository.
func rvSharedDir(t testing.TB, rel ...string) string { return testshared.Dir(t, rel...) }

// rvRunChecks runs only the given checks over a loaded agent and returns the
// sorted findings, so these tests do not depend on the other rules.
func rvRunChecks(a *compile.Agent, cfg *Config, fns ...func(*Pass)) []Finding {
	if cfg == nil {
		cfg = &Config{}
	}
	p := &Pass{Agent: a, Config: cfg}
	if a.Flow != nil && a.Flow.Root != nil {
		for _, fn := range fns {
			fn(p)
		}
	}
	return compile.SortFindings(p.found)
}

func rvLoad(t testing.TB, path string) *compile.Agent {
	t.Helper()
	return rvLoadProfile(t, path, compile.ProfileAuto)
}

func rvLoadProfile(t testing.TB, path string, profile compile.Profile) *compile.Agent {
	t.Helper()
	a, err := compile.Load(path, compile.LoadOptions{Profile: profile})
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return a
}

// rvRefFinding is a ReviewFinding as the reference prints it.
type rvRefFinding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location string `json:"location"`
	Source   string `json:"source"`
}

var rvIndexRe = regexp.MustCompile(`\[(\d+)\]`)

// rvPointer converts the reference's dotted locations
// ("$referenced_components.a.b[0].c", "$.x", "package.json#license") into a
// JSON Pointer. Keys holding dots cannot be told apart; the fixtures have none.
func rvPointer(loc string) string {
	loc = strings.TrimPrefix(loc, "package.json#")
	if loc == "$" {
		loc = ""
	}
	loc = strings.TrimPrefix(loc, "$.")
	if i := strings.Index(loc, " ("); i >= 0 {
		loc = loc[:i] // `… (Flow "id")` suffix of per-flow checks
	}
	loc = rvIndexRe.ReplaceAllString(loc, ".$1")
	if loc == "" {
		return ""
	}
	parts := strings.Split(loc, ".")
	return compile.Pointer(parts...)
}

func TestDottedToPointer(t *testing.T) {
	for in, want := range map[string]string{
		"$referenced_components.remote_agent.agent_url": "/$referenced_components/remote_agent/agent_url",
		"$.inputs[0]":                           "/inputs/0",
		"package.json#license":                  "/license",
		"$referenced_components.x (Flow \"f\")": "/$referenced_components/x",
		"$referenced_components.f.$referenced_components.lane_start": "/$referenced_components/f/$referenced_components/lane_start",
	} {
		if got := rvPointer(in); got != want {
			t.Errorf("rvPointer(%q) = %q, want %q", in, got, want)
		}
	}
}

type rvFixture struct {
	File     string         `json:"file"`
	Test     string         `json:"test"`
	Scanner  string         `json:"scanner"`
	Findings []rvRefFinding `json:"findings"`
}

// TestReferenceScanFixtures runs each scan over the fixtures the reference's
// own tests use and expects the same findings (code, severity, location as
// a JSON Pointer, and the message). Deliberate differences would be listed
// in `differences` with their reason; on these fixtures there are none: the
// places where SPEC §3.3 goes further (nested components, inline
// components, client_transport.url, remote transports, allowlist, "//host",
// "{{ CINATRA_BASE_URL }}" with spaces) are not exercised by the reference
// fixtures and are covered by TestScanFurtherThanReference.
func TestReferenceScanFixtures(t *testing.T) {
	scanners := map[string]func(*Pass){
		"scanOasForUntrustedUrls":                  checkUntrustedURLs,
		"scanOasForLlmBridgeWiring":                checkLLMBridgeWiring,
		"scanOasForStartNodeInputsWithoutRequired": checkStartNodeInputs,
	}
	differences := map[string]string{
		// "dir/file.json": "reason",
	}
	for _, dir := range []string{"scan-oas-untrusted-urls", "scan-oas-llm-bridge-wiring", "scan-oas-start-node-inputs-without-required"} {
		base := rvSharedDir(t, "corpus", "cinatra", "fixtures", dir)
		var idx []rvFixture
		src, err := os.ReadFile(filepath.Join(base, "index.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(src, &idx); err != nil {
			t.Fatal(err)
		}
		if len(idx) == 0 {
			t.Fatalf("%s: empty index", dir)
		}
		for _, fx := range idx {
			t.Run(dir+"/"+fx.File, func(t *testing.T) {
				if why, ok := differences[dir+"/"+fx.File]; ok {
					t.Skip("deliberate difference: " + why)
				}
				check := scanners[fx.Scanner]
				if check == nil {
					t.Fatalf("no check for scanner %q", fx.Scanner)
				}
				// The reference fixtures are Cinatra flows; one (06) has no
				// metadata at all, so the profile is forced.
				a := rvLoadProfile(t, filepath.Join(base, fx.File), compile.ProfileCinatra)
				got := rvRunChecks(a, nil, check)
				rvCompare(t, got, fx.Findings)
			})
		}
	}
}

func rvCompare(t *testing.T, got []Finding, want []rvRefFinding) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.Code != w.Code || string(g.Severity) != w.Severity || g.Location != rvPointer(w.Location) || g.Source != w.Source {
			t.Errorf("finding %d:\ngot  %s %s %s %s\nwant %s %s %s %s", i, g.Code, g.Severity, g.Location, g.Source,
				w.Code, w.Severity, rvPointer(w.Location), w.Source)
		}
		if g.Message != w.Message {
			t.Errorf("finding %d message:\ngot  %s\nwant %s", i, g.Message, w.Message)
		}
		if g.Line < 1 || g.Column < 1 {
			t.Errorf("finding %d has no position: %d:%d", i, g.Line, g.Column)
		}
	}
}
