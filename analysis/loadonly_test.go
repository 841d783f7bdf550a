package analysis

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// Load is the loading findings of Run alone, and Run goes on from its
// agent and config to the whole review Run makes by itself.
func TestLoadThenRun(t *testing.T) {
	_, dir := copyAgent(t, "orchestrator-agent")
	flow := filepath.Join(dir, "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	// a duplicate key (a loading finding) beside the flow's own findings
	dup := strings.Replace(string(src), "{", `{"description": "one", "description": "two",`, 1)
	for _, c := range []struct{ name, src, want string }{
		{"duplicate key", dup, "duplicate_key"},
		{"syntax", `{"id": `, "invalid_json"},
	} {
		if err := os.WriteFile(flow, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		full := Run(dir, Options{})
		first := Load(dir, Options{})
		if first.LoadErr != nil || first.Agent == nil {
			t.Fatalf("%s: %v", c.name, first.LoadErr)
		}
		codes := func(fs []compile.Finding) []string {
			var out []string
			for _, f := range fs {
				out = append(out, f.Code+"@"+f.Location)
			}
			return out
		}
		var loading []compile.Finding
		for _, f := range full.Review.Findings {
			if r := lint.LookupRule(f.Code); r != nil && r.Group == lint.RuleInvalidJSON.Group {
				loading = append(loading, f)
			}
		}
		if got, want := codes(first.Review.Findings), codes(loading); !slices.Equal(got, want) || !slices.Contains(got, c.want+"@"+first.Review.Findings[0].Location) {
			t.Errorf("%s: Load's findings %v, want Run's loading ones %v (with %s)", c.name, got, want, c.want)
		}
		rest := Run(dir, Options{Agent: first.Agent, Config: &first.Config})
		if got, want := codes(rest.Review.Findings), codes(full.Review.Findings); !slices.Equal(got, want) {
			t.Errorf("%s: Run after Load %v, want %v", c.name, got, want)
		}
		if c.name == "duplicate key" && len(full.Review.Findings) <= len(first.Review.Findings) {
			t.Errorf("%s: the flow's checks found nothing more than loading (%d findings): the test shows nothing", c.name, len(full.Review.Findings))
		}
	}
	if s := Load(filepath.Join(t.TempDir(), "missing"), Options{}); s.LoadErr == nil || len(s.Review.Findings) != 1 || s.Review.Findings[0].Code != "agent_read_failed" {
		t.Errorf("a missing agent: %v %+v", s.LoadErr, s.Review.Findings)
	}
}

// Options.Stop stops the review between its checks: the snapshot says so
// (its review is partial); a Stop that never says stop changes nothing.
func TestRunStop(t *testing.T) {
	dir := fixture("orchestrator-agent")
	full := Run(dir, Options{})
	asked := 0
	never := Run(dir, Options{Stop: func() bool { asked++; return false }})
	if never.Stopped || len(never.Review.Findings) != len(full.Review.Findings) || asked < 10 {
		t.Fatalf("never stopping: stopped %v, %d findings (want %d), asked %d times", never.Stopped, len(never.Review.Findings), len(full.Review.Findings), asked)
	}
	calls := 0
	stopped := Run(dir, Options{Stop: func() bool { calls++; return calls > 3 }, Stages: Everything})
	if !stopped.Stopped || calls > 5 {
		t.Fatalf("stopped %v after %d questions", stopped.Stopped, calls)
	}
	if stopped.Flows != nil || stopped.Slots != nil {
		t.Error("the stages after the review ran on a stopped one")
	}
}
