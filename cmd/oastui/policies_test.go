package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/lint"
)

const ungatedFixture = "../../lint/testdata/policies/ungated"

const sendPolicy = `policies:
  - id: approval-before-send
    severity: blocker
    message: a send step is reachable from the start without a human gate
    doc: add an InputMessageNode before it on every path
    match: node.riskClass.endsWith('_send')
    assert: "!reachesAvoiding(flow.start, node.id, flow.nodes.filter(n, n.gate).map(n, n.id))"
`

func withConfig(t *testing.T, src, cfg string) string {
	t.Helper()
	dir := copyFixtureTree(t, src)
	if err := os.WriteFile(filepath.Join(dir, ".oastui.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLintPolicyFindings: a policy's finding is a finding of every lint
// format: its id as code, the node's position, the configured severity
// and so the exit code; SARIF describes the policy as a rule from its
// message and doc; a baseline holds it.
func TestLintPolicyFindings(t *testing.T) {
	dir := withConfig(t, ungatedFixture, sendPolicy)
	code, out, errOut := runLintCmd(t, "--format", "json", dir)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d: %s", code, exitFindings, errOut)
	}
	var rep lintJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Code == "approval-before-send" {
			n++
			if f.Severity != "blocker" || f.Location != "/$referenced_components/send" || f.Line < 2 || f.Message != "a send step is reachable from the start without a human gate" {
				t.Errorf("finding %+v", f)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d policy findings:\n%s", n, out)
	}
	if code, _, _ := runLintCmd(t, "--fail-on", "none", dir); code != exitClean {
		t.Errorf("--fail-on none: exit %d", code)
	}
	for _, format := range []string{"text", "github"} {
		_, out, _ := runLintCmd(t, "--format", format, dir)
		if !strings.Contains(out, "approval-before-send") || !strings.Contains(out, "a send step is reachable") {
			t.Errorf("%s: no policy finding:\n%s", format, out)
		}
	}
	_, out, _ = runLintCmd(t, "--format", "sarif", dir)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string `json:"id"`
						ShortDescription     struct{ Text string }
						DefaultConfiguration struct{ Level string }
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "approval-before-send" {
			found = true
			rule := log.Runs[0].Tool.Driver.Rules[r.RuleIndex]
			if rule.ID != r.RuleID || rule.ShortDescription.Text != "a send step is reachable from the start without a human gate. add an InputMessageNode before it on every path" || rule.DefaultConfiguration.Level != "error" {
				t.Errorf("SARIF rule %+v", rule)
			}
		}
	}
	if !found {
		t.Errorf("SARIF has no result of the policy:\n%.2000s", out)
	}
	// A baseline holds it.
	t.Chdir(dir)
	var b, e bytes.Buffer
	if code := run([]string{"baseline", "."}, &b, &e); code != exitClean {
		t.Fatalf("baseline: exit %d %s", code, e.String())
	}
	if !strings.Contains(b.String(), "approval-before-send") {
		t.Fatalf("the baseline lacks the policy's finding:\n%s", b.String())
	}
	if err := os.WriteFile("baseline.json", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runLintCmd(t, "--baseline", "baseline.json", "."); code != exitClean || strings.Contains(out, "[approval-before-send]") {
		t.Errorf("with the baseline: exit %d\n%s", code, out)
	}
}

// TestLintBadPolicy: a policy that does not type-check is exit 2 naming
// .oastui.yaml:LINE:COL, the policy and the error with a caret.
func TestLintBadPolicy(t *testing.T) {
	dir := withConfig(t, ungatedFixture, strings.Replace(sendPolicy, "node.riskClass.endsWith", "node.riskclass.endsWith", 1))
	code, _, errOut := runLintCmd(t, dir)
	want := ".oastui.yaml:6:16: policy \"approval-before-send\": match: undefined field 'riskclass'\n | node.riskclass.endsWith('_send')\n | ....^"
	if code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant it to contain:\n%s", code, errOut, want)
	}
}

// TestRulesListsPolicies: oastui rules lists the team's policies after
// the built-in rules, in both formats.
func TestRulesListsPolicies(t *testing.T) {
	dir := withConfig(t, ungatedFixture, sendPolicy)
	cfg := filepath.Join(dir, ".oastui.yaml")
	code, out, errs := runRulesCmd(t, "--format", "json", "--config", cfg)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []ruleEntry
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(lint.All)+1 || got[len(got)-1].Code != "approval-before-send" || got[len(got)-1].Group != "policy" || got[len(got)-1].Severity != "blocker" {
		t.Errorf("last entries: %+v", got[len(got)-2:])
	}
	_, out, _ = runRulesCmd(t, "--config", cfg)
	if !strings.Contains(out, "approval-before-send  blocker  policy") {
		t.Errorf("text:\n%s", out[max(0, len(out)-600):])
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("policies:\n  - {id: a, message: m, assert: 'nope'}\n"), 0o644)
	if code, _, errs := runRulesCmd(t, "--config", bad); code != exitUsage || !strings.Contains(errs, "undeclared reference to 'nope'") {
		t.Errorf("bad config: exit %d %s", code, errs)
	}
}

// TestInitPolicies: init --policies writes the starter pack (which loads
// and flags the ungated send), appends to a config without policies:,
// and refuses a config that has them.
func TestInitPolicies(t *testing.T) {
	dir := copyFixtureTree(t, ungatedFixture)
	cfg := filepath.Join(dir, ".oastui.yaml")
	os.WriteFile(cfg, []byte("rules:\n  dataflow_empty_list: off"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"init", "--policies", dir}, &out, &errb); code != exitClean {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, _ := os.ReadFile(cfg)
	if !strings.HasPrefix(string(b), "rules:\n  dataflow_empty_list: off\n\n# Team policies") || !strings.HasSuffix(string(b), lint.StarterPolicies) {
		t.Errorf(".oastui.yaml:\n%s", b)
	}
	_, lo, _ := runLintCmd(t, "--format", "json", dir)
	if !strings.Contains(lo, `"approval-before-side-effect"`) || strings.Contains(lo, "dataflow_empty_list") {
		t.Errorf("lint with the starter pack:\n%s", lo)
	}
	errb.Reset()
	if code := run([]string{"init", "--policies", dir}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "already has policies:") {
		t.Errorf("second init: exit %d %s", code, errb.String())
	}
	if code := run([]string{"init", dir}, &out, &errb); code != exitUsage {
		t.Errorf("init without --policies: exit %d", code)
	}
}
