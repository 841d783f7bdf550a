package compile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// compiledJSON is a compile's result as its envelope shows it: the
// compiled output's JSON, or the error's text.
func compiledJSON(out *CompiledAgentOas, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	b, merr := json.Marshal(out)
	if merr != nil {
		return "marshal: " + merr.Error()
	}
	return string(b)
}

// sharedOrderSame compiles the agent at dir twice, each from its own load:
// the compiler ordering the root Flow alone (compileWith), and Compile
// (the order shared with the agent's flow model). The results must be equal, and the model's
// order of the root Flow must be the one the compiler used (the same list)
// and equal to BFSOrder's.
func sharedOrderSame(t *testing.T, dir string, opts LoadOptions) {
	t.Helper()
	a, err := Load(dir, opts)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	b, err := Load(dir, opts)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	want := compiledJSON(compileWith(a, false))
	got := compiledJSON(Compile(b))
	if got != want {
		t.Errorf("%s: Compile sharing the order differs from the compiler ordering alone\n got %.400s\nwant %.400s", dir, got, want)
	}
	if b.Flow == nil || b.Flow.Root == nil {
		return
	}
	fm := b.Model().FlowByNode(b.Flow.Root)
	if fm == nil {
		t.Fatalf("%s: no model of the root Flow", dir)
	}
	mo := fm.BFSOrder()
	if co := BFSOrder(b.Flow.Root); !reflect.DeepEqual(mo, co) {
		t.Errorf("%s: the model's order %q, BFSOrder's %q", dir, mo, co)
	}
	if sc := b.sharedCache(); sc == nil || len(mo) > 0 && &sc.order[0] != &mo[0] {
		t.Errorf("%s: the root Flow's model does not share the compiler's order", dir)
	}
	// the step order of the root Flow reads the components the compiler
	// looked up: the same as FlowStepOrder's own look-ups, after Compile
	// (b) and before it (a)
	ids := BFSOrder(b.Flow.Root)
	comps, types := make([]*Node, len(ids)), make([]string, len(ids))
	for i, id := range ids { // each look-up made here, as FlowStepOrderOf made them
		comps[i] = b.Flow.Root.Get("$referenced_components").Get(id)
		types[i] = ComponentType(comps[i])
	}
	steps := stepOrder(b.Flow.Root, ids, comps, types)
	if got := fm.StepOrder(); !reflect.DeepEqual(got, steps) {
		t.Errorf("%s: the root Flow's step order after Compile\n got %+v\nwant %+v", dir, got, steps)
	}
	// a: compiled so far only by the compiler ordering alone, which reads
	// nothing of the cache: the step order looks the components up first
	// and Compile reads them
	if fm := a.Model().FlowByNode(a.Flow.Root); fm != nil {
		if got := fm.StepOrder(); !reflect.DeepEqual(got, steps) {
			t.Errorf("%s: the root Flow's step order before Compile\n got %+v\nwant %+v", dir, got, steps)
		}
		if got := compiledJSON(Compile(a)); got != want {
			t.Errorf("%s: Compile after the step order differs from the compiler ordering alone", dir)
		}
	}
}

// TestCompileShareOrderSame: the compiler sharing the root Flow's order
// with the flow model (analysis compiles so) compiles every corpus agent,
// with and without the registry, every revision of the history, and a
// large generated flow, valid and not, exactly as the compiler ordering it
// alone does. Under -race, every other corpus agent, every 8th revision
// and a generated flow a quarter the size.
func TestCompileShareOrderSame(t *testing.T) {
	tmp := t.TempDir()
	for k, valid := range []bool{true, false} {
		d := filepath.Join(tmp, []string{"valid", "invalid"}[k], "cinatra")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "oas.json"), hostile.Flow(2000/race.Stride(4), valid), 0o644); err != nil {
			t.Fatal(err)
		}
		sharedOrderSame(t, filepath.Dir(d), LoadOptions{})
	}
	// the corpus and the history need ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		reg := LoadOptions{RegistryPath: filepath.Join(dir, "agents", "_shared", "cinatra", "components.json")}
		for k := 0; k < len(slugs); k += race.Stride(2) {
			agent := filepath.Join(dir, "agents", "cinatra-ai", slugs[k])
			sharedOrderSame(t, agent, LoadOptions{})
			sharedOrderSame(t, agent, reg)
		}
	})
	t.Run("history", func(t *testing.T) {
		revs := testshared.HistoryFlows(t)
		for i := 0; i < len(revs); i += race.Stride(8) {
			sharedOrderSame(t, filepath.Dir(filepath.Dir(revs[i])), LoadOptions{})
		}
	})
}
