package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CI features of issue 12 (items 2-4), through the command line.

// ciFixture is absolute: some tests change directory.
var ciFixture, _ = filepath.Abs("../../lint/testdata/rules/ok/unused_ignore")

// ciToken builds a fake GitHub token at run time (no literal secret in the
// repository).
func ciToken(tail string) string { return "ghp_" + "R4nd0mT0k3nAbCdEfGhIjKlMn" + tail }

// ciRepo makes a repository (a .git directory) holding one agent at
// agents/acme/x whose ApiNode is off the platform and carries a literal
// token; it returns the repository and the agent's flow file.
func ciRepo(t *testing.T, token string) (string, string) {
	t.Helper()
	repo := t.TempDir()
	dir := filepath.Join(repo, "agents", "acme", "x")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(dir, "cinatra")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pkg, err := os.ReadFile(filepath.Join(ciFixture, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	ciWrite(t, filepath.Join(dir, "package.json"), string(pkg))
	flow := filepath.Join(dir, "cinatra", "oas.json")
	ciWrite(t, flow, ciFlow(t, token))
	return repo, flow
}

func ciFlow(t *testing.T, token string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(ciFixture, "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), `"http_method": "POST"`, `"http_method": "POST", "api_key": "`+token+`"`, 1)
	if s == string(src) {
		t.Fatal("fixture changed: no http_method")
	}
	return s
}

func ciWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ciRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

type ciSARIF struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Version string `json:"version"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Suppressions        []struct {
				Kind          string `json:"kind"`
				Justification string `json:"justification"`
			} `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

func ciDecodeSARIF(t *testing.T, out string) ciSARIF {
	t.Helper()
	var s ciSARIF
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Runs) != 1 {
		t.Fatalf("not SARIF (%v):\n%s", err, out)
	}
	return s
}

// TestLintPathsRelativeToRepoRoot: run from a subdirectory, SARIF and
// github name the file from the repository root (the .git directory);
// --root overrides it. driver.version is what `oastui version` prints.
func TestLintPathsRelativeToRepoRoot(t *testing.T) {
	repo, _ := ciRepo(t, ciToken("OpQrStUvWx12"))
	t.Chdir(filepath.Join(repo, "agents", "acme"))
	const want = "agents/acme/x/cinatra/oas.json"

	code, out, errOut := ciRun(t, "lint", "--format", "sarif", "x")
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	s := ciDecodeSARIF(t, out)
	for _, r := range s.Runs[0].Results {
		if uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != want {
			t.Errorf("%s: uri %q, want %q", r.RuleID, uri, want)
		}
	}
	_, v, _ := ciRun(t, "version")
	if got := "oastui " + s.Runs[0].Tool.Driver.Version + "\n"; got != v {
		t.Errorf("driver.version gives %q, oastui version %q", got, v)
	}
	if _, vflag, _ := ciRun(t, "--version"); vflag != v {
		t.Errorf("--version %q, version %q", vflag, v)
	}

	_, out, _ = ciRun(t, "lint", "--format", "github", "x")
	if !strings.Contains(out, "file="+want+",") {
		t.Errorf("github output not relative to the root:\n%s", out)
	}
	_, out, _ = ciRun(t, "lint", "--format", "github", "--root", ".", "x")
	if !strings.Contains(out, "file=x/cinatra/oas.json,") {
		t.Errorf("--root . not honoured:\n%s", out)
	}
	if code, _, errOut := ciRun(t, "lint", "--root", "no-such-dir", "x"); code != exitUsage || !strings.Contains(errOut, "--root") {
		t.Errorf("bad --root: exit %d, %s", code, errOut)
	}
}

// ciValueHash returns the valueHash `lint --format json` shows for rule.
func ciValueHash(t *testing.T, path, rule string) string {
	t.Helper()
	_, out, _ := ciRun(t, "lint", "--format", "json", path)
	var rep struct {
		Findings []struct {
			Code      string `json:"code"`
			ValueHash string `json:"valueHash"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Code == rule {
			if len(f.ValueHash) != 32 {
				t.Fatalf("valueHash %q", f.ValueHash)
			}
			return f.ValueHash
		}
	}
	t.Fatalf("no %s finding in\n%s", rule, out)
	return ""
}

// TestSecretIgnoreBindsToValue (issue 12 item 3): an ignore of a secret
// rule names the secret's value_hash; a different secret at the same
// place is reported again; a pointer-only ignore of a secret rule is a
// config error that says what to use. Ignored findings are SARIF
// suppressions with the reason, and count for no exit code.
func TestSecretIgnoreBindsToValue(t *testing.T) {
	tok := ciToken("OpQrStUvWx12")
	repo, flow := ciRepo(t, tok)
	agent := filepath.Dir(filepath.Dir(flow))
	h := ciValueHash(t, agent, "literal_credential_detected")
	cfg := filepath.Join(repo, ".oastui.yaml")
	ciWrite(t, cfg, `ignores:
  - rule: literal_credential_detected
    file: agents/**/oas.json
    pointer: /$referenced_components/call/api_key
    value_hash: `+h+`
    reason: a revoked demo token
  - rule: untrusted_external_url
    file: agents/acme/x/cinatra/oas.json
    reason: the partner API is vetted
`)
	code, out, errOut := ciRun(t, "lint", agent)
	if code != exitClean || !strings.Contains(out, "no findings") {
		t.Fatalf("ignored: exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = ciRun(t, "lint", "--format", "sarif", agent)
	s := ciDecodeSARIF(t, out)
	got := map[string]string{}
	for _, r := range s.Runs[0].Results {
		if len(r.Suppressions) != 1 || r.Suppressions[0].Kind != "external" {
			t.Errorf("%s: suppressions %+v", r.RuleID, r.Suppressions)
			continue
		}
		got[r.RuleID] = r.Suppressions[0].Justification
	}
	if got["literal_credential_detected"] != "a revoked demo token" || got["untrusted_external_url"] != "the partner API is vetted" {
		t.Errorf("suppressions %v", got)
	}
	if strings.Contains(out, tok) {
		t.Error("raw token in SARIF")
	}

	// Another secret at the same place: reported again.
	ciWrite(t, flow, ciFlow(t, ciToken("OpQrStUvWx99")))
	code, out, _ = ciRun(t, "lint", agent)
	if code != exitFindings || !strings.Contains(out, "[literal_credential_detected]") || strings.Contains(out, "[unused_ignore]") == false {
		t.Errorf("a new secret must be reported (and the old ignore is unused): exit %d\n%s", code, out)
	}

	// A pointer-only ignore of a secret rule: a config error naming value_hash.
	ciWrite(t, cfg, `ignores:
  - rule: literal_credential_detected
    file: agents/acme/x/cinatra/oas.json
    pointer: /$referenced_components/call/api_key
    reason: demo
`)
	code, _, errOut = ciRun(t, "lint", agent)
	if code != exitUsage || !strings.Contains(errOut, "value_hash") || !strings.Contains(errOut, ".oastui.yaml:2:") {
		t.Errorf("pointer-only secret ignore: exit %d, %s", code, errOut)
	}
}

// TestSecurityRuleOffNeedsReason: turning a security rule off needs a
// reason and prints a notice on every run; other rules keep the short form.
func TestSecurityRuleOffNeedsReason(t *testing.T) {
	repo, flow := ciRepo(t, ciToken("OpQrStUvWx12"))
	agent := filepath.Dir(filepath.Dir(flow))
	cfg := filepath.Join(repo, ".oastui.yaml")

	ciWrite(t, cfg, "rules:\n  literal_credential_detected: off\n")
	if code, _, errOut := ciRun(t, "lint", agent); code != exitUsage || !strings.Contains(errOut, "needs a reason") {
		t.Errorf("security rule off without reason: exit %d, %s", code, errOut)
	}
	ciWrite(t, cfg, "rules:\n  literal_credential_detected: {severity: off, reason: \"scanned by gitleaks instead\"}\n  untrusted_external_url: {severity: off, reason: vetted}\n  start_node_inputs_without_required: off\n")
	code, out, errOut := ciRun(t, "lint", agent)
	if code != exitClean || strings.Contains(out, "literal_credential_detected") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if !strings.Contains(errOut, "security rule literal_credential_detected is turned off") || !strings.Contains(errOut, "scanned by gitleaks instead") ||
		strings.Contains(errOut, "start_node_inputs_without_required") {
		t.Errorf("notice on stderr: %q", errOut)
	}
	// A YAML syntax error is file:line:col.
	ciWrite(t, cfg, "rules:\n  a: [unclosed\n")
	if code, _, errOut := ciRun(t, "lint", agent); code != exitUsage || !strings.Contains(errOut, ".oastui.yaml:2:3: invalid YAML") {
		t.Errorf("syntax error: exit %d, %q", code, errOut)
	}
}

// TestBaseline (issue 12 item 4): a baseline holds every current finding
// (no message, no secret); with it lint is clean even after lines moved;
// a new finding and a changed secret are reported; exit codes follow.
func TestBaseline(t *testing.T) {
	tok := ciToken("OpQrStUvWx12")
	repo, flow := ciRepo(t, tok)
	t.Chdir(repo)
	agent := filepath.Join("agents", "acme", "x")

	code, out, errOut := ciRun(t, "baseline", agent)
	if code != exitClean {
		t.Fatalf("baseline: exit %d %s", code, errOut)
	}
	if strings.Contains(out, tok) || strings.Contains(out, "message") {
		t.Errorf("the baseline holds a message or the secret:\n%s", out)
	}
	var b Baseline
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.SchemaVersion != 1 || len(b.Findings) < 2 || b.Findings[0].File != "agents/acme/x/cinatra/oas.json" {
		t.Fatalf("baseline %+v (%v):\n%s", b, err, out)
	}
	ciWrite(t, "baseline.json", out)

	// Lines moved: still clean, and the summary says what was left out.
	src, _ := os.ReadFile(flow)
	ciWrite(t, flow, strings.Replace(string(src), "{\n", "{\n\n\n\n  \"description\": \"moved\",\n", 1))
	code, out, _ = ciRun(t, "lint", "--baseline", "baseline.json", agent)
	if code != exitClean || !strings.Contains(out, fmt.Sprintf("%d findings in the baseline not shown", len(b.Findings))) {
		t.Errorf("moved lines: exit %d\n%s", code, out)
	}
	code, _, errOut = ciRun(t, "lint", "--format", "json", "--baseline", "baseline.json", agent)
	if code != exitClean || !strings.Contains(errOut, "in the baseline baseline.json not reported") {
		t.Errorf("json: exit %d, stderr %q", code, errOut)
	}

	// A new finding (a second off-platform URL) is reported, alone.
	src, _ = os.ReadFile(flow)
	ciWrite(t, flow, strings.Replace(string(src), `"url": "https://api.partner.example/v1",`, `"url": "https://api.partner.example/v1", "x": {"component_type": "RemoteTool", "id": "rt", "name": "rt", "url": "https://other.example/"},`, 1))
	code, out, _ = ciRun(t, "lint", "--baseline", "baseline.json", agent)
	if code != exitFindings || strings.Count(out, "[untrusted_external_url]") != 1 || !strings.Contains(out, "other.example") {
		t.Errorf("new finding: exit %d\n%s", code, out)
	}

	// A changed secret is new.
	ciWrite(t, flow, ciFlow(t, ciToken("OpQrStUvWx99")))
	code, out, _ = ciRun(t, "lint", "--baseline", "baseline.json", agent)
	if code != exitFindings || !strings.Contains(out, "[literal_credential_detected]") || strings.Contains(out, "[untrusted_external_url]") {
		t.Errorf("changed secret: exit %d\n%s", code, out)
	}

	// A missing or foreign baseline is a usage error.
	ciWrite(t, "foreign.json", `{"runs":[]}`)
	for _, f := range []string{"missing.json", "foreign.json"} {
		if code, _, errOut := ciRun(t, "lint", "--baseline", f, agent); code != exitUsage || !strings.Contains(errOut, "--baseline") {
			t.Errorf("%s: exit %d, %s", f, code, errOut)
		}
	}
}
