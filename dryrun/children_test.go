package dryrun_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
)

// TestChildAgent: a FlowNode whose subflow is not in the document runs
// the child agent its packageName names, found in the agents/ tree as the
// compiler finds it; without a look-up it is a stub with a note.
func TestChildAgent(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "agents")
	for _, slug := range []string{"orchestrator-agent", "gate-agent"} {
		copyTree(t, filepath.Join("..", "testdata", "agents", "oastui", slug), filepath.Join(tree, "oastui", slug))
	}
	flow := filepath.Join(tree, "oastui", "orchestrator-agent", "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	// brief_flow's subflow now names nothing in the document.
	src = []byte(strings.Replace(string(src), `"$component_ref": "brief-subflow"`, `"$component_ref": "gone"`, 1))
	if !strings.Contains(string(src), `"gone"`) {
		t.Fatal("fixture changed: no brief-subflow reference to replace")
	}
	if err := os.WriteFile(flow, src, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := compile.Load(filepath.Join(tree, "oastui", "orchestrator-agent"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := dryrun.Explore(a, dryrun.Options{Children: a.FindAgent})
	var child []dryrun.Step
	var brief dryrun.Step
	for _, st := range r.Paths[0].Steps {
		if st.Node == "brief_flow" {
			brief = st
		}
		if strings.Contains(st.File, "gate-agent") {
			child = append(child, st)
		}
	}
	if brief.Note != "child agent @oastui/gate-agent" || len(child) == 0 || child[0].Anchor != brief.Pointer || child[0].Depth != 1 {
		t.Errorf("brief %+v; child steps %d", brief, len(child))
	}
	r = dryrun.Explore(a, dryrun.Options{})
	for _, st := range r.Paths[0].Steps {
		if st.Node == "brief_flow" && !strings.Contains(st.Note, "not loaded") {
			t.Errorf("without Children: note %q", st.Note)
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
