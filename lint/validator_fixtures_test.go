package lint

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
)

// The golden files are rewritten with `go test ./lint -run TestValidatorFixtures -update`.
// The flag may already be defined by another test file of the package.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func valUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const valFixtureDir = "../testdata/invalid/validator"

// valGolden is one expected finding of a fixture.
type valGolden struct {
	Code     string           `json:"code"`
	Severity compile.Severity `json:"severity"`
	Line     int              `json:"line"`
	Column   int              `json:"column"`
	Location string           `json:"location"`
	Message  string           `json:"message"`
}

// TestValidatorFixtures: every directory testdata/invalid/validator/<code>/
// holds an oas.json that breaks rule <code>, and expected.json, the
// validator findings it gives (findings of the other rule groups are
// their tests' business). Every registered validator code has one.
func TestValidatorFixtures(t *testing.T) {
	ents, err := os.ReadDir(valFixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		code := e.Name()
		have[code] = true
		t.Run(code, func(t *testing.T) {
			if r := LookupRule(code); r == nil || r.Group != validatorGroup {
				t.Fatalf("%s is not a registered validator rule", code)
			}
			dir := filepath.Join(valFixtureDir, code)
			fs := validatorFindings(t, filepath.Join(dir, "oas.json"), compile.LoadOptions{Profile: compile.ProfileCinatra})
			got := make([]valGolden, 0, len(fs))
			hit := false
			for _, f := range fs {
				got = append(got, valGolden{f.Code, f.Severity, f.Line, f.Column, f.Location, f.Message})
				hit = hit || f.Code == code
			}
			if !hit {
				t.Errorf("no %s finding: %+v", code, got)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(got); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(dir, "expected.json")
			if valUpdate() {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("findings differ from %s (run with -update after checking):\n got %s\nwant %s", golden, buf.Bytes(), want)
			}
		})
	}
	for _, r := range Rules() {
		if r.Group == validatorGroup && !have[r.Code] {
			t.Errorf("validator rule %s has no fixture in %s", r.Code, valFixtureDir)
		}
	}
}

// TestValidatorOKAgents: the valid agents bundled in testdata/agents/oastui
// give no validator finding at all.
func TestValidatorOKAgents(t *testing.T) {
	root := filepath.Join("..", "testdata", "agents", "oastui")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("the bundled agents are missing: %v", err)
	}
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "cinatra", "oas.json")); err != nil {
			t.Logf("%s: no cinatra/oas.json yet, skipped", e.Name())
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			for _, f := range validatorFindings(t, dir, compile.LoadOptions{}) {
				t.Errorf("%s:%d:%d: %s: %s [%s]", f.File, f.Line, f.Column, f.Severity, f.Message, f.Code)
			}
		})
	}
}
