package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// Tests of the review wiring of the CLI: --format sarif|github, --config
// and .oastui.yaml discovery, --mode advisory, and the compile gate.

func rvCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

var rvRules = filepath.Join("..", "..", "lint", "testdata", "rules")

func TestReviewCLIFormats(t *testing.T) {
	agent := filepath.Join(rvRules, "err", "untrusted_external_url", "urls-allowlist")
	code, out, errOut := rvCLI("lint", "--format", "sarif", agent)
	if code != 1 {
		t.Fatalf("sarif: exit %d (%s)", code, errOut)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("sarif output: %v %.300s", err, out)
	}
	code, out, _ = rvCLI("lint", "--format", "github", agent)
	if code != 1 || !strings.HasPrefix(out, "::") || !strings.Contains(out, "::error file=") || !strings.Contains(out, ",title=untrusted_external_url::") {
		t.Fatalf("github: exit %d:\n%s", code, out)
	}
	// The .oastui.yaml beside the agent was found upward from PATH: the
	// allowlisted hosts are not reported.
	if strings.Contains(out, "api.partner.example/v1/items") {
		t.Error("allowed host reported: .oastui.yaml not found upward from PATH")
	}
	if code, _, errOut := rvCLI("lint", "--format", "xml", agent); code != 2 || !strings.Contains(errOut, "sarif") {
		t.Errorf("bad format: exit %d, %q", code, errOut)
	}
}

func TestReviewCLIConfig(t *testing.T) {
	agent := filepath.Join(rvRules, "ok", "untrusted_external_url", "ok-clean")
	bad := filepath.Join("..", "..", "testdata", "config", "bad", "missing-reason.yaml")
	code, out, errOut := rvCLI("lint", "--config", bad, agent)
	if code != 2 || out != "" || !strings.Contains(errOut, `"reason" is required`) || !strings.Contains(errOut, "missing-reason.yaml:2:") {
		t.Errorf("config without reason: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := rvCLI("lint", "--config", "no-such.yaml", agent); code != 2 || errOut == "" {
		t.Errorf("missing config: exit %d, %q", code, errOut)
	}
}

func TestReviewCLIAdvisory(t *testing.T) {
	agent := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "planner-agent")
	_, det, _ := rvCLI("lint", "--format", "github", "--fail-on", "none", agent)
	_, adv, _ := rvCLI("lint", "--format", "github", "--fail-on", "none", "--mode", "advisory", agent)
	if strings.Contains(det, "advisory_dispatch_deferred") || strings.Count(adv, "title=advisory_dispatch_deferred") != 2 {
		t.Errorf("advisory markers: deterministic\n%s\nadvisory\n%s", det, adv)
	}
}

func TestReviewCLICompileGate(t *testing.T) {
	agent := filepath.Join(rvRules, "err", "untrusted_external_url", "urls-everywhere")
	code, out, _ := rvCLI("compile", agent)
	if code != 1 || !strings.HasPrefix(out, `{"ok":false,"error":"review_blocked: `) || !strings.Contains(out, ` deterministic blockers","code":"review_blocked","blockers":[{`) {
		t.Fatalf("exit %d: %.300s", code, out)
	}
	_, again, _ := rvCLI("compile", agent)
	if again != out {
		t.Error("the gate's output differs on repeat")
	}
}
