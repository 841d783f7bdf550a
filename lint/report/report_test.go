package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/lint"
)

// rvFormatFixtures are reviewed in full (every rule) for the format tests.
var rvFormatFixtures = []string{
	"../testdata/rules/err/untrusted_external_url/urls-everywhere",
	"../testdata/rules/err/literal_credential_detected/secrets-everywhere",
	"../testdata/rules/err/package_version_oas_pkg_drift/package-drift-license-name",
	"../testdata/rules/err/context_slot_invalid/invalid-schema",
	"../testdata/rules/err/context_slot_stub_wiring/stub-wiring",
}

func rvReviewAll(t *testing.T, dirs ...string) ([]lint.Finding, []*compile.Agent) {
	t.Helper()
	var fs []lint.Finding
	var agents []*compile.Agent
	for _, d := range dirs {
		a, err := compile.Load(d, compile.LoadOptions{})
		if err != nil {
			t.Fatalf("load %s: %v", d, err)
		}
		agents = append(agents, a)
		fs = append(fs, lint.Run(a, lint.Options{Mode: lint.ModeAdvisory}).Findings...)
	}
	return compile.SortFindings(fs), agents
}

func rvSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := sarifSchema()
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// sarifSchema is the official SARIF 2.1.0 schema compiled, once per test
// binary (a compiled schema is only read).
var sarifSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("sarif-schema-2.1.0.json")
})

// TestSARIFValidAgainstSchema: the SARIF log validates against the official
// 2.1.0 schema (lint/testdata/sarif-schema-2.1.0.json, see its SOURCE file),
// for findings of every kind and for no finding at all.
func TestSARIFValidAgainstSchema(t *testing.T) {
	sch := rvSARIFSchema(t)
	fs, agents := rvReviewAll(t, rvFormatFixtures...)
	if len(fs) == 0 {
		t.Fatal("no findings to render")
	}
	for name, in := range map[string][]lint.Finding{"findings": fs, "empty": nil} {
		var buf bytes.Buffer
		if err := Write(&buf, Formats["sarif"], Report{Findings: in, ToolVersion: "1.2.3", Agents: agents}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: SARIF does not validate: %v", name, err)
		}
		if name == "empty" && !bytes.Contains(buf.Bytes(), []byte(`"results": []`)) {
			t.Error("an empty run must still carry results: []")
		}
	}
	// The whole corpus, in advisory mode, as one log.
	t.Run("corpus", func(t *testing.T) {
		base := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai")
		ents, err := os.ReadDir(base)
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(base, e.Name()))
			}
		}
		if len(dirs) != testshared.CorpusAgentCount {
			t.Fatalf("%d corpus agents, want %d", len(dirs), testshared.CorpusAgentCount)
		}
		cfs, cagents := rvReviewAll(t, dirs...)
		var buf bytes.Buffer
		if err := Write(&buf, Formats["sarif"], Report{Findings: cfs, Agents: cagents}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("corpus SARIF does not validate: %v", err)
		}
	})
	// The schema is not vacuous: an invalid level is refused.
	var buf bytes.Buffer
	if err := Write(&buf, Formats["sarif"], Report{Findings: fs[:1]}); err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`"level": "(error|warning|note)"`).ReplaceAll(buf.Bytes(), []byte(`"level": "high"`))
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if sch.Validate(inst) == nil {
		t.Error("the schema accepted level \"high\"")
	}
}

type rvSarif struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					HelpURI string `json:"helpUri"`
					Help    struct {
						Markdown string `json:"markdown"`
					} `json:"help"`
					Properties struct {
						Tags             []string `json:"tags"`
						SecuritySeverity string   `json:"security-severity"`
					} `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
						EndLine     int `json:"endLine"`
						EndColumn   int `json:"endColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
				LogicalLocations []struct {
					FullyQualifiedName string `json:"fullyQualifiedName"`
					Kind               string `json:"kind"`
				} `json:"logicalLocations"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Suppressions        []struct {
				Kind          string `json:"kind"`
				Justification string `json:"justification"`
			} `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

func rvDecodeSARIF(t *testing.T, b []byte) rvSarif {
	t.Helper()
	var s rvSarif
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 {
		t.Fatalf("%d runs", len(s.Runs))
	}
	return s
}

// TestSARIFContent: stable rule ids with their doc, the security tag on
// scan rules, ruleIndex pointing at the rule, JSON Pointer as logical
// location, 1-based region, fingerprints stable across runs and sensitive
// to the value.
func TestSARIFContent(t *testing.T) {
	fs, agents := rvReviewAll(t, rvFormatFixtures...)
	var a, b bytes.Buffer
	if err := Write(&a, Formats["sarif"], Report{Findings: fs, Agents: agents}); err != nil {
		t.Fatal(err)
	}
	// Without the agents the files are read from disk: same bytes.
	if err := Write(&b, Formats["sarif"], Report{Findings: fs}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("SARIF differs between parsed agents and files read from disk")
	}
	s := rvDecodeSARIF(t, a.Bytes())
	run := s.Runs[0]
	rules := run.Tool.Driver.Rules
	for _, r := range rules {
		reg := lint.LookupRule(r.ID)
		if reg != nil && reg.Doc != "" && r.ShortDescription.Text != reg.Doc {
			t.Errorf("rule %s: shortDescription %q, want its doc", r.ID, r.ShortDescription.Text)
		}
		// Only the security rules carry the security tag and a
		// security-severity (issue 12: start_node_inputs_without_required,
		// a scan, showed as a security alert).
		hasTag := strings.Contains(strings.Join(r.Properties.Tags, ","), "security")
		if reg != nil && hasTag != reg.Security() {
			t.Errorf("rule %s: security tag %v, security rule %v: %v", r.ID, hasTag, reg.Security(), r.Properties.Tags)
		}
		if (r.Properties.SecuritySeverity != "") != hasTag {
			t.Errorf("rule %s: security-severity %q with tags %v", r.ID, r.Properties.SecuritySeverity, r.Properties.Tags)
		}
		if reg != nil && (r.HelpURI != reg.HelpURI() || !strings.Contains(r.Help.Markdown, reg.Doc)) {
			t.Errorf("rule %s: helpUri %q, markdown help %q", r.ID, r.HelpURI, r.Help.Markdown)
		}
	}
	if len(run.Results) != len(fs) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(fs))
	}
	seenFP := map[string]bool{}
	spans := 0
	for i, r := range run.Results {
		f := fs[i]
		if rules[r.RuleIndex].ID != r.RuleID || r.RuleID != f.Code {
			t.Errorf("result %d: ruleId %s, ruleIndex → %s, finding %s", i, r.RuleID, rules[r.RuleIndex].ID, f.Code)
		}
		want := map[compile.Severity]string{compile.Blocker: "error", compile.Warning: "warning", compile.Suggestion: "note"}[f.Severity]
		if r.Level != want {
			t.Errorf("result %d: level %s for %s", i, r.Level, f.Severity)
		}
		loc := r.Locations[0]
		if loc.PhysicalLocation.Region.StartLine != max(f.Line, 1) || loc.PhysicalLocation.Region.StartColumn != max(f.Column, 1) {
			t.Errorf("result %d: region %+v, finding %d:%d", i, loc.PhysicalLocation.Region, f.Line, f.Column)
		}
		// The region ends where the finding's span ends (absent without one).
		if reg := loc.PhysicalLocation.Region; reg.EndLine != f.EndLine || reg.EndColumn != f.EndColumn {
			t.Errorf("result %d: region ends at %d:%d, the finding's span at %d:%d", i, reg.EndLine, reg.EndColumn, f.EndLine, f.EndColumn)
		}
		if f.HasSpan() {
			spans++
		}
		if strings.Contains(loc.PhysicalLocation.ArtifactLocation.URI, `\`) || strings.HasPrefix(loc.PhysicalLocation.ArtifactLocation.URI, "..") {
			t.Errorf("result %d: uri %q", i, loc.PhysicalLocation.ArtifactLocation.URI)
		}
		if f.Location != "" && (len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != f.Location) {
			t.Errorf("result %d: logical locations %+v, pointer %s", i, loc.LogicalLocations, f.Location)
		}
		fp := r.PartialFingerprints[FingerprintKey]
		if len(fp) != 64 {
			t.Errorf("result %d: fingerprint %q", i, fp)
		}
		seenFP[fp] = true
	}
	if spans == 0 {
		t.Error("no finding of the fixtures carries a span: the region ends are untested")
	}
	if len(seenFP) < len(run.Results)*9/10 {
		t.Errorf("only %d distinct fingerprints for %d results", len(seenFP), len(run.Results))
	}
}

func TestGitHubFormat(t *testing.T) {
	fs := []lint.Finding{
		{Code: "untrusted_external_url", Severity: compile.Blocker, Message: "untrusted url: https://x.example/a,b", File: "agents/a/cinatra/oas.json", Line: 3, Column: 7},
		{Code: "start_node_inputs_without_required", Severity: compile.Warning, Message: "100% odd\nsecond line", File: "dir,with:colon/oas.json", Line: 1, Column: 1},
		{Code: "advisory_dispatch_deferred", Severity: compile.Suggestion, Message: "deferred", File: "f.json"},
	}
	var buf bytes.Buffer
	if err := Write(&buf, Formats["github"], Report{Findings: fs}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=agents/a/cinatra/oas.json,line=3,col=7,title=untrusted_external_url::untrusted url: https://x.example/a,b\n" +
		"::warning file=dir%2Cwith%3Acolon/oas.json,line=1,col=1,title=start_node_inputs_without_required::100%25 odd%0Asecond line\n" +
		"::notice file=f.json,title=advisory_dispatch_deferred::deferred\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

var (
	rvAnthropicRe = regexp.MustCompile(`sk-ant-api03-[\w-]{93}AA`)
	rvGitHubRe    = regexp.MustCompile(`ghp_[A-Za-z0-9]{36}`)
)

// rvFixtureSecrets returns the raw secrets of the secrets-everywhere
// fixture (read from it, so they are written down only once).
func rvFixtureSecrets(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("../testdata/rules/err/literal_credential_detected/secrets-everywhere/cinatra/oas.json")
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, s := range rvAnthropicRe.FindAllString(string(src), -1) {
		set[s] = true
	}
	for _, s := range rvGitHubRe.FindAllString(string(src), -1) {
		set[s] = true
	}
	var doc struct {
		Refs map[string]struct {
			URL string `json:"url"`
		} `json:"$referenced_components"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Refs {
		if u, err := url.Parse(c.URL); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok {
				set[pw] = true
			}
		}
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	if len(out) != 4 {
		t.Fatalf("found %d fixture secrets, want 4 (two ghp_, one sk-ant-, one URL password)", len(out))
	}
	return out
}

// TestNoRawSecretInAnyFormat reviews the secrets fixture with every rule and
// greps every output — text, JSON, SARIF, GitHub, the gate response, the
// findings marshalled as they are — for the raw secrets, and for any 12
// characters of them past the first four a mask may show.
func TestNoRawSecretInAnyFormat(t *testing.T) {
	secrets := rvFixtureSecrets(t)
	dir := "../testdata/rules/err/literal_credential_detected/secrets-everywhere"
	fs, agents := rvReviewAll(t, dir)
	if len(fs) == 0 {
		t.Fatal("no findings on the secrets fixture")
	}
	if lint.LookupRule("literal_credential_detected") == nil {
		t.Log("secret scan not registered: only the URL scan's masking is exercised")
	}
	outputs := map[string][]byte{}
	var buf bytes.Buffer
	if err := Write(&buf, Formats["sarif"], Report{Findings: fs, Agents: agents}); err != nil {
		t.Fatal(err)
	}
	outputs["sarif"] = append([]byte(nil), buf.Bytes()...)
	buf.Reset()
	if err := Write(&buf, Formats["github"], Report{Findings: fs}); err != nil {
		t.Fatal(err)
	}
	outputs["github"] = append([]byte(nil), buf.Bytes()...)
	buf.Reset()
	docs := Docs{}
	for _, a := range agents {
		docs.AddAgent(a)
	}
	if err := Write(&buf, Formats["text"], Report{Findings: fs, Docs: docs, Files: 1}); err != nil {
		t.Fatal(err)
	}
	// The whole text output, source excerpts included: an excerpt under a
	// credential finding must not print the credential either.
	outputs["text"] = append([]byte(nil), buf.Bytes()...)
	buf.Reset()
	if err := Write(&buf, Formats["json"], Report{Findings: fs, Files: 1}); err != nil {
		t.Fatal(err)
	}
	outputs["json"] = append([]byte(nil), buf.Bytes()...)
	raw, _ := json.Marshal(fs)
	outputs["findings"] = raw
	if g := lint.Run(agents[0], lint.Options{}).Gate; g.Blocked() {
		gate := g.Response().JSON()
		outputs["gate"] = gate
	} else {
		t.Error("the secrets fixture does not block compilation")
	}
	for name, out := range outputs {
		for _, s := range secrets {
			for i := 4; i+12 <= len(s); i += 4 {
				if part := s[i : i+12]; bytes.Contains(out, []byte(part)) {
					t.Errorf("%s output contains part of a raw secret (%s…, %d chars): %q", name, s[:4], len(s), part)
					break
				}
			}
		}
	}
}
