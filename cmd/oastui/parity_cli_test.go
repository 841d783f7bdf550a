package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/lint"
)

// TestRulesParity: `oastui rules --parity` prints every row of the parity
// table, in text and as JSON equal to lint.Parity().
func TestRulesParity(t *testing.T) {
	code, out, errs := runRulesCmd(t, "--parity")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, r := range lint.Parity() {
		if !strings.Contains(out, r.Check) || !strings.Contains(out, r.Source.Path) {
			t.Errorf("text lacks %q (%s)", r.Check, r.Source.Path)
		}
	}
	if !strings.Contains(out, "approximated: ") || !strings.Contains(out, "reason: an install gate over the child package") {
		t.Errorf("text lacks the approximated and reason lines:\n%.400s", out)
	}
	code, out, errs = runRulesCmd(t, "--parity", "--format", "json")
	if code != exitClean {
		t.Fatalf("json: exit %d: %s", code, errs)
	}
	var rows []lint.ParityRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows, lint.Parity()) {
		t.Error("--format json is not the parity table")
	}
	if code, _, _ := runRulesCmd(t, "--parity", "OAS-RUNTIME-012"); code != exitUsage {
		t.Errorf("--parity with a CODE: exit %d", code)
	}
}

// TestRulesExplain: `oastui rules CODE` explains one rule with the
// platform checks it reproduces; a rule of oastui's own says so; an
// unknown code is a usage error.
func TestRulesExplain(t *testing.T) {
	code, out, errs := runRulesCmd(t, "produces_dependency_missing")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"produces_dependency_missing  blocker  platform-ci", "scripts/audit/extension-produces-deps-gate.mjs @73049e5c",
		"undeclaredProducesDeps", "automatic fixes", "docs/rules.md#produces_dependency_missing"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if _, out, _ := runRulesCmd(t, "flow_dead_end"); !strings.Contains(out, "platform: none") {
		t.Errorf("an oastui rule:\n%s", out)
	}
	code, out, _ = runRulesCmd(t, "OAS-RUNTIME-010", "--format", "json")
	var e ruleExplained
	if code != exitClean || json.Unmarshal([]byte(out), &e) != nil || e.Code != "OAS-RUNTIME-010" || len(e.Platform) != 2 {
		t.Errorf("json: exit %d %+v\n%s", code, e, out)
	}
	if code, _, errs := runRulesCmd(t, "no_such_rule"); code != exitUsage || !strings.Contains(errs, "no rule") {
		t.Errorf("unknown code: exit %d %s", code, errs)
	}
}

// TestLintGate: --gate keeps only the view's findings at the platform's
// severities: on the corpus, scan-all reports its 14 findings (the
// expected scanAll of the 25 agents), compile refuses none of them (the
// platform compiles all 25), creation-review reports its lane's 7.
func TestLintGate(t *testing.T) {
	dir := filepath.Join(testshared.Dir(t, "corpus", "cinatra", "agents"), "cinatra-ai")
	for gate, want := range map[string]string{
		"scan-all":        "14 findings (2 blockers, 12 warnings, 0 suggestions)",
		"compile":         "no findings",
		"creation-review": "7 findings (2 blockers, 5 warnings, 0 suggestions)",
	} {
		_, out, errs := runLintCmd(t, dir, "--gate", gate, "--fail-on", "none")
		if !strings.Contains(out, want) {
			t.Errorf("--gate %s: want %q in\n%s%s", gate, want, out, errs)
		}
	}
	_, out, _ := runLintCmd(t, dir, "--gate", "scan-all", "--format", "json", "--fail-on", "none")
	if strings.Contains(out, `"source": "deterministic"`) || strings.Contains(out, "OAS-RUNTIME-005") || !strings.Contains(out, `"OAS-RUNTIME-012"`) {
		t.Errorf("scan-all json:\n%.600s", out)
	}
	if code, _, errs := runLintCmd(t, dir, "--gate", "nope"); code != exitUsage || !strings.Contains(errs, "--gate must be one of scan-all, compile, creation-review") {
		t.Errorf("unknown gate: exit %d %s", code, errs)
	}
}
