package analysis

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

func fixture(name string) string {
	return filepath.Join("..", "testdata", "agents", "oastui", name)
}

// copyAgent copies a fixture package into a temp agents/ tree so a test
// can put a config beside it.
func copyAgent(t *testing.T, name string) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, "agents", "acme", name)
	src := fixture(name)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root, dir
}

func TestRunStages(t *testing.T) {
	for _, tc := range []struct {
		name       string
		stages     Stages
		compiled   bool
		flows      bool
		slotsFound bool
	}{
		{"review only", ReviewOnly, false, false, false},
		{"compile", StageCompile, true, false, false},
		{"graphs", StageGraphs, false, true, false},
		{"slots", StageSlots, false, false, true},
		{"everything", Everything, true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Run(fixture("context-slot-agent"), Options{Stages: tc.stages})
			if !s.Parsed() {
				t.Fatalf("fixture did not load: %v %+v", s.LoadErr, s.Review.Findings)
			}
			if got := s.Compiled != nil; got != tc.compiled || s.CompileErr != nil {
				t.Errorf("compiled %v (err %v), want %v", got, s.CompileErr, tc.compiled)
			}
			if got := len(s.Flows) > 0; got != tc.flows {
				t.Errorf("flows %d, want some: %v", len(s.Flows), tc.flows)
			}
			if got := len(s.Slots) > 0; got != tc.slotsFound {
				t.Errorf("slots %d, want some: %v", len(s.Slots), tc.slotsFound)
			}
			if s.Mode != lint.ModeDeterministic || s.Took <= 0 {
				t.Errorf("mode %q took %v", s.Mode, s.Took)
			}
		})
	}
}

func TestRunFlowsDrawnLazily(t *testing.T) {
	// Without StageDrawTop nothing is drawn: Marked is the graph Drawn
	// then draws (DOT and Mermaid read it and lay nothing out).
	u := Run(fixture("orchestrator-agent"), Options{Stages: StageGraphs})
	if len(u.Flows) < 2 || u.Flows[0].Canvas != nil {
		t.Fatalf("flows %d, root drawn without StageDrawTop", len(u.Flows))
	}
	mg, why := u.Flows[0].Marked()
	if mg == nil || why != "" || u.Flows[0].Canvas != nil {
		t.Fatalf("Marked: %v %q, or it drew", mg, why)
	}
	if u.Flows[0].Drawn().Graph != mg || u.Flows[0].Canvas == nil {
		t.Fatalf("Drawn drew another graph than Marked's")
	}
	if g, why := (*Flow)(nil).Marked(); g != nil || why == "" {
		t.Fatalf("Marked of no Flow: %v %q", g, why)
	}

	s := Run(fixture("orchestrator-agent"), Options{Stages: StageGraphs | StageDrawTop})
	if len(s.Flows) < 2 {
		t.Fatalf("flows: %d, want the root and nested ones", len(s.Flows))
	}
	if s.Flows[0].Canvas == nil || s.Flows[0].Graph == nil {
		t.Errorf("root flow not drawn: %q", s.Flows[0].Err)
	}
	nested := s.Flows[1]
	if nested.Canvas != nil {
		t.Errorf("nested flow drawn before it was asked for")
	}
	if s.Flow(nested.Pointer) != nested || nested.Drawn().Canvas == nil {
		t.Errorf("nested flow %q not found or not drawn: %q", nested.Pointer, nested.Err)
	}
	if s.Flow("/no/such") != nil {
		t.Errorf("Flow of an unknown pointer is not nil")
	}
}

func TestRunLoadFailureIsOneFinding(t *testing.T) {
	for _, path := range []string{t.TempDir(), filepath.Join(t.TempDir(), "missing")} {
		s := Run(path, Options{Stages: Everything})
		if s.Parsed() || s.LoadErr == nil {
			t.Fatalf("%s: good=%v err=%v", path, s.Parsed(), s.LoadErr)
		}
		if len(s.Review.Findings) != 1 || len(s.Review.Blockers) != 1 {
			t.Fatalf("%s: findings %+v", path, s.Review.Findings)
		}
		f := s.Review.Blockers[0]
		if f.Code != "agent_read_failed" || f.File != path || f.Message != s.LoadErr.Error() {
			t.Errorf("%s: finding %+v", path, f)
		}
		if s.Compiled != nil || s.Flows != nil || s.Slots != nil {
			t.Errorf("%s: stages ran on nothing", path)
		}
	}
	if s := Run(t.TempDir(), Options{}); !errors.Is(s.LoadErr, compile.ErrNotAnAgent) {
		t.Errorf("an empty directory: %v, want ErrNotAnAgent", s.LoadErr)
	}
}

func TestRunUnparseableFlowStillCompiles(t *testing.T) {
	_, dir := copyAgent(t, "leaf-agent")
	if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(`{"id": `), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Run(dir, Options{Stages: Everything})
	if s.Parsed() || len(s.Review.Blockers) == 0 || s.Review.Blockers[0].Code != "invalid_json" {
		t.Fatalf("good=%v blockers %+v", s.Parsed(), s.Review.Blockers)
	}
	if s.CompileErr == nil || !strings.Contains(s.CompileErr.Error(), "malformed JSON") {
		t.Errorf("compile error %v, want the compiler's malformed-JSON error", s.CompileErr)
	}
	if s.Flows != nil || s.Slots != nil {
		t.Errorf("graphs or slots of a flow that does not parse")
	}
}

func TestConfigResolution(t *testing.T) {
	root, dir := copyAgent(t, "leaf-agent")
	cfgPath := filepath.Join(root, ".oastui.yaml")

	s := Run(dir, Options{})
	if s.Config != (ConfigResult{}) {
		t.Errorf("no config: %+v", s.Config)
	}

	if err := os.WriteFile(cfgPath, []byte("allowed_hosts: [example.com]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = Run(dir, Options{})
	if s.Config.Path != cfgPath || s.Config.Config == nil || s.Config.Err != nil {
		t.Errorf("found config: %+v", s.Config)
	}

	if err := os.WriteFile(cfgPath, []byte("nonsense_key: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = Run(dir, Options{})
	if s.Config.Path != cfgPath || s.Config.Config != nil || s.Config.Err == nil {
		t.Errorf("bad config: %+v", s.Config)
	}
	if !s.Parsed() || len(s.Review.Findings) != 0 {
		t.Errorf("a bad config must leave the review on the defaults: %+v", s.Review.Findings)
	}

	// A config handed in wins over the one found upward.
	given := &ConfigResult{}
	if s = Run(dir, Options{Config: given}); s.Config.Err != nil {
		t.Errorf("handed-in config ignored: %+v", s.Config)
	}

	// --config names a file explicitly.
	other := filepath.Join(t.TempDir(), "other.yaml")
	if err := os.WriteFile(other, []byte("allowed_hosts: [example.org]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s = Run(dir, Options{ConfigPath: other}); s.Config.Path != other || s.Config.Config == nil {
		t.Errorf("--config: %+v", s.Config)
	}
}

func TestGateUsesTheReview(t *testing.T) {
	_, dir := copyAgent(t, "leaf-agent")
	s := Run(dir, Options{})
	if g := s.Gate(); g.Blocked() || g.Response() != nil {
		t.Fatalf("clean agent blocked: %+v", g)
	}
	// A literal credential is a deterministic blocker.
	p := filepath.Join(dir, "cinatra", "oas.json")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), `"name"`, `"api_key": "ghp_R7dK2mP9xQ4vL8nT3wZ6yB1cF5hJ0sA2eG4i", "name"`, 1)
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, mode := range lint.Modes {
		s = Run(dir, Options{Mode: mode, Stages: Everything})
		g := s.Gate()
		if !g.Blocked() {
			t.Fatalf("%s: not blocked; findings=%+v", mode, s.Review.Findings)
		}
		out := g.Response().JSON()
		if !strings.Contains(string(out), `"code":"review_blocked"`) {
			t.Errorf("%s: %s", mode, out)
		}
		if want == nil {
			want = out
		} else if string(out) != string(want) {
			t.Errorf("%s: gate %s, the deterministic one %s", mode, out, want)
		}
	}
}

// An agent the caller already loaded (Options.Agent) is analysed as
// loaded: Run does not read path again.
func TestRunUsesTheLoadedAgent(t *testing.T) {
	_, dir := copyAgent(t, "leaf-agent")
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	s := Run(dir, Options{Agent: a, Stages: Everything})
	if s.Agent != a || s.LoadErr != nil || !s.Parsed() {
		t.Fatalf("agent %p (given %p), load error %v", s.Agent, a, s.LoadErr)
	}
	if s = Run(dir, Options{}); s.LoadErr == nil {
		t.Error("without Options.Agent, Run does not load path")
	}
}

func TestSnapshotNames(t *testing.T) {
	s := Run(fixture("leaf-agent"), Options{})
	if s.AgentName() == "" || s.AgentName() == "leaf-agent" {
		t.Errorf("agent name %q, want the flow's name", s.AgentName())
	}
	if !strings.HasPrefix(s.PackageVersion(), "@") || !strings.Contains(s.PackageVersion(), "@0") && !strings.Contains(s.PackageVersion(), "@1") {
		t.Errorf("package version %q", s.PackageVersion())
	}
	if len(s.Docs()) < 2 || s.Docs()[s.FlowFile()] == nil {
		t.Errorf("docs %v", s.Docs())
	}
	missing := Run(filepath.Join(t.TempDir(), "gone-agent"), Options{})
	if missing.AgentName() != "gone-agent" || missing.PackageVersion() != "" || missing.Docs() != nil {
		t.Errorf("missing agent: %q %q %v", missing.AgentName(), missing.PackageVersion(), missing.Docs())
	}
}

// A context-slot finding outside the slot (on its context FlowNode) is
// matched to its slot by the fact its check gives (Finding.Slot), not by
// reading the message.
func TestSlotProblemsByFact(t *testing.T) {
	s := Run(filepath.Join("..", "lint", "testdata", "rules", "err", "context_slot_not_wired", "flownode-not-placed"), Options{Stages: StageSlots})
	var found bool
	for _, r := range s.Slots {
		if r.Slot.SlotID == "draftContext" {
			found = true
			if len(r.Problems) != 1 || r.Problems[0] != "context_slot_not_wired" {
				t.Errorf("slot draftContext: problems %v, want context_slot_not_wired", r.Problems)
			}
		}
	}
	if !found {
		t.Fatalf("no slot draftContext: %+v", s.Slots)
	}
	for _, f := range s.Review.Findings {
		if f.Code == "context_slot_not_wired" && (f.Slot != "draftContext" || f.Group != lint.GroupSlots) {
			t.Errorf("finding %s: slot %q group %q", f.Code, f.Slot, f.Group)
		}
	}
}
