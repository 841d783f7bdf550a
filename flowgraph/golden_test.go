package flowgraph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// corpusAgentsDir returns ../../shared/corpus/cinatra/agents/cinatra-ai, or
// skips the test when the shared corpus is not beside the checkout.
func corpusAgentsDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus", "cinatra", "agents", "cinatra-ai")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not found at %s: skipping", dir)
	}
	return dir
}

// agentDirs lists the agent package directories under dir.
func agentDirs(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// drawAgent renders every Flow of an agent: each in box drawing, and the
// top-level one in ASCII too.
func drawAgent(t testing.TB, dir string) string {
	t.Helper()
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Flow.Root == nil {
		return "(flow file does not parse)\n"
	}
	var b strings.Builder
	for i, f := range compile.Flows(a.Flow.Root) {
		// flowAt finds the same Flow, with the same enclosing ones.
		for x, y := f, flowAt(a.Flow.Root, f.Pointer); x != nil || y != nil; x, y = x.Parent, y.Parent {
			if x == nil || y == nil || x.Node != y.Node || x.Pointer != y.Pointer || x.Depth != y.Depth {
				t.Fatalf("%s: flowAt(%q) differs from compile.Flows", dir, f.Pointer)
			}
		}
		g, err := Build(a, f.Pointer)
		if err != nil {
			t.Fatalf("%s %q: %v", dir, f.Pointer, err)
		}
		ptr := f.Pointer
		if ptr == "" {
			ptr = "(top level)"
		}
		fmt.Fprintf(&b, "=== flow %s  %s  [%d nodes, %d edges]\n\n", g.FlowID, ptr, len(g.Nodes), len(g.Edges))
		c, _ := Render(g, Options{})
		b.WriteString(c.String())
		b.WriteString("\n")
		if i == 0 {
			fmt.Fprintf(&b, "=== flow %s  ascii\n\n", g.FlowID)
			c, _ := Render(g, Options{ASCII: true})
			b.WriteString(c.String())
			b.WriteString("\n")
		}
	}
	return b.String()
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./flowgraph -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the drawing (run go test ./flowgraph -update and review the diff):\n%s", path, got)
	}
}

func TestGoldenCorpus(t *testing.T) {
	for _, dir := range agentDirs(t, corpusAgentsDir(t)) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", "corpus", name+".txt"), drawAgent(t, dir))
		})
	}
}

func TestGoldenTestdataAgents(t *testing.T) {
	// The fixtures live in this repository: every one must be an agent and
	// have a reviewed golden (a missing golden fails; -update writes it).
	root := filepath.Join("..", "testdata", "agents", "oastui")
	for _, dir := range agentDirs(t, root) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			if _, err := compile.Load(dir, compile.LoadOptions{}); err != nil {
				t.Fatalf("fixture is not an agent: %v", err)
			}
			checkGolden(t, filepath.Join("testdata", "agents", name+".txt"), drawAgent(t, dir))
		})
	}
}
