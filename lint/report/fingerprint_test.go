package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// fpToken builds a fake GitHub token at run time (no literal secret in
// the repository for secret scanners to trip on).
func fpToken(tail string) string { return "ghp_" + "R4nd0mT0k3nAbCdEfGhIjKlMn" + tail }

// fpFlow is the flow of the fingerprint tests: an ApiNode off the
// platform (untrusted_external_url) holding a literal token, and a
// StartNode whose input is neither required nor hidden.
func fpFlow(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../testdata/rules/ok/unused_ignore/cinatra/oas.json")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), `"http_method": "POST"`, `"http_method": "POST", "api_key": "TOKEN"`, 1)
	// a finding on the StartNode object itself (the case: renaming
	// the node moved its v1 fingerprint, which hashed the whole object)
	s2 := strings.Replace(s, `"required": ["query"]`, `"required": []`, 1)
	if s == string(src) || s2 == s {
		t.Fatal("fixture changed: no http_method or required list to edit")
	}
	return s2
}

// fpRun lints flow src as a package in a temporary directory and returns
// the SARIF fingerprint of each result by rule code.
func fpRun(t *testing.T, src, token string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	pkg, _ := os.ReadFile("../testdata/rules/ok/unused_ignore/package.json")
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(strings.ReplaceAll(src, "TOKEN", token)), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fs := lint.Run(a, lint.Options{}).Findings
	var buf bytes.Buffer
	if err := Write(&buf, Formats["sarif"], Report{Findings: fs, BaseDir: dir, Agents: []*compile.Agent{a}}); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, r := range rvDecodeSARIF(t, buf.Bytes()).Runs[0].Results {
		if bytes.Contains(buf.Bytes(), []byte(token)) {
			t.Fatal("the raw token is in the SARIF log")
		}
		fp := r.PartialFingerprints[FingerprintKey]
		if fp != Fingerprint(fs[i], dir) {
			t.Errorf("%s: SARIF fingerprint %s is not Fingerprint() %s", r.RuleID, fp, Fingerprint(fs[i], dir))
		}
		out[r.RuleID] = fp
	}
	for _, code := range []string{"untrusted_external_url", "literal_credential_detected", "start_node_inputs_without_required"} {
		if out[code] == "" {
			t.Fatalf("no %s finding: %v", code, fs)
		}
	}
	return out
}

// TestFingerprintStableAcrossUnrelatedEdits (issue 12 item 2): renaming a
// StartNode, reformatting the file and moving lines keep the fingerprints
// of the findings on the ApiNode; a different secret changes the
// secret's fingerprint and only that one.
func TestFingerprintStableAcrossUnrelatedEdits(t *testing.T) {
	src := fpFlow(t)
	tok := fpToken("OpQrStUvWx12")
	base := fpRun(t, src, tok)

	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	reformatted, _ := json.MarshalIndent(v, "", "\t")
	edits := map[string]string{
		"rename StartNode": strings.Replace(src, `"name": "start",`, `"name": "begin here",`, 1),
		"reformat":         string(reformatted),
		"move lines":       strings.Replace(src, `"agentspec_version"`, "\n\n\n\"description\": \"moved everything down\",\n  \"agentspec_version\"", 1),
	}
	for name, edited := range edits {
		if edited == src {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		got := fpRun(t, edited, tok)
		for code, fp := range base {
			if got[code] != fp {
				t.Errorf("%s: fingerprint of %s changed (%s → %s)", name, code, fp, got[code])
			}
		}
	}

	other := fpRun(t, src, fpToken("OpQrStUvWx99"))
	if other["literal_credential_detected"] == base["literal_credential_detected"] {
		t.Error("a different secret kept the fingerprint")
	}
	if other["untrusted_external_url"] != base["untrusted_external_url"] {
		t.Error("changing the secret changed the fingerprint of the URL finding")
	}
}

// TestRelFileAndRoot: paths relative to the repository root found from a
// subdirectory (.git upward), files outside it absolute.
func TestRelFileAndRoot(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "agents", "acme")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := FindRoot(sub); got != repo {
		t.Errorf("FindRoot(%s) = %q, want %q", sub, got, repo)
	}
	if got := RelFile(filepath.Join(sub, "x", "oas.json"), repo); got != "agents/acme/x/oas.json" {
		t.Errorf("RelFile = %q", got)
	}
	if got := RelFile("/elsewhere/oas.json", repo); got != "/elsewhere/oas.json" {
		t.Errorf("RelFile outside = %q", got)
	}
}

// TestSARIFSuppressions: ignored findings are results with a suppression
// (external for the config, inSource for x-oastui-ignore) and the reason;
// the log stays valid SARIF 2.1.0 and the messages are masked.
func TestSARIFSuppressions(t *testing.T) {
	tok := fpToken("OpQrStUvWx12")
	f := lint.Finding{Code: "literal_credential_detected", Severity: compile.Blocker, Message: "token " + tok, File: "a/oas.json", Location: "/k", Line: 2, Column: 3, Source: compile.SourceDeterministic, ValueHash: compile.HashValue(tok)}
	g := f
	g.Code, g.Location, g.Message = "untrusted_external_url", "/u", "url"
	var buf bytes.Buffer
	err := Write(&buf, Formats["sarif"], Report{Findings: nil, Suppressed: []lint.SuppressedFinding{{Finding: f, Reason: "revoked demo token"}, {Finding: g, Reason: "vetted", InSource: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), tok) {
		t.Error("raw token in a suppressed result")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := rvSARIFSchema(t).Validate(inst); err != nil {
		t.Errorf("invalid SARIF: %v", err)
	}
	rs := rvDecodeSARIF(t, buf.Bytes()).Runs[0].Results
	if len(rs) != 2 || len(rs[0].Suppressions) != 1 || rs[0].Suppressions[0].Kind != "external" || rs[0].Suppressions[0].Justification != "revoked demo token" ||
		len(rs[1].Suppressions) != 1 || rs[1].Suppressions[0].Kind != "inSource" {
		t.Errorf("results %+v", rs)
	}
}

// TestFingerprintStableIdentity: a finding that names its value (ValueHash)
// keeps its fingerprint when an element is inserted earlier in the array
// its pointer goes through (a dependency inserted before it in
// cinatra.dependencies: workspace_child_missing); one without a ValueHash is
// told apart by its index; a v2 fingerprint (a baseline written before v3)
// still carries the index.
func TestFingerprintStableIdentity(t *testing.T) {
	at := func(ptr, value string) lint.Finding {
		return lint.Finding{Code: "workspace_child_missing", File: "agents/a/package.json", Location: ptr, ValueHash: value}
	}
	a, b := at("/cinatra/dependencies/0/packageName", "h1"), at("/cinatra/dependencies/1/packageName", "h1")
	if Fingerprint(a, ".") != Fingerprint(b, ".") {
		t.Errorf("the index moved the fingerprint: %s != %s", Fingerprint(a, "."), Fingerprint(b, "."))
	}
	if FingerprintV2(a, ".") == FingerprintV2(b, ".") {
		t.Error("v2 fingerprints should carry the index")
	}
	if other := at("/cinatra/dependencies/1/packageName", "h2"); Fingerprint(a, ".") == Fingerprint(other, ".") {
		t.Error("two values gave one fingerprint")
	}
	x, y := at("/nodes/0", ""), at("/nodes/1", "")
	if Fingerprint(x, ".") == Fingerprint(y, ".") {
		t.Error("without a ValueHash the index tells two findings apart")
	}
	if got := StablePointer(at("/nodes/12/data/url", "h")); got != "/nodes/*/data/url" {
		t.Errorf("StablePointer = %q", got)
	}
}
