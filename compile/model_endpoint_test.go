package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"

	"github.com/oastui/oastui/internal/race"
)

// sameEndpoints builds every Flow of a's model again with each endpoint
// resolved anew (Model.slowEndpoints) and compares the parts with the
// model's own; it returns how many endpoints it compared.
func sameEndpoints(t *testing.T, name string, a *Agent) int {
	t.Helper()
	m := buildModel(a)
	slow := *m
	slow.slowEndpoints = true
	n := 0
	for i, f := range m.flows {
		got, want := m.Flows[i], slow.buildFlow(f)
		for _, c := range []struct {
			what      string
			got, want any
		}{
			{"entries", got.Entries, want.Entries}, {"nodes", got.Nodes, want.Nodes}, {"start", got.Start, want.Start},
			{"control", got.Control, want.Control}, {"data", got.Data, want.Data},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Fatalf("%s, Flow %s: %s differ\n%+v\nresolved anew\n%+v", name, f.Pointer, c.what, c.got, c.want)
			}
		}
		n += 1 + 2*len(got.Control) + 2*len(got.Data)
	}
	return n
}

// TestEndpointsFromEntries: an endpoint read from the nodes entry with
// its reference (FlowModel.entryByRef) is the endpoint Flow.Lookup and
// identity give: the same component, identity and node, in the corpus and
// in random Flows of references to own, outer, missing, non-object and
// id-less definitions, inline components and subflows.
func TestEndpointsFromEntries(t *testing.T) {
	sameInDirs := func(dirs []string) (compared int) {
		for _, dir := range dirs {
			a, err := Load(dir, LoadOptions{})
			if err != nil || a.Flow == nil || a.Flow.Root == nil {
				continue
			}
			compared += sameEndpoints(t, dir, a)
		}
		return compared
	}
	var bundled []string
	if ents, err := os.ReadDir(filepath.Join("..", "testdata", "agents", "oastui")); err == nil {
		for _, e := range ents {
			bundled = append(bundled, filepath.Join("..", "testdata", "agents", "oastui", e.Name()))
		}
	}
	if n := sameInDirs(bundled); n == 0 {
		t.Errorf("no endpoint of the bundled agents compared")
	}
	// the corpus needs ../shared (skipped without it); the random Flows
	// below run everywhere
	t.Run("corpus", func(t *testing.T) {
		corpus, slugs := testshared.CorpusAgents(t)
		var dirs []string
		for _, s := range slugs {
			dirs = append(dirs, filepath.Join(corpus, "agents", "cinatra-ai", s))
		}
		if n := sameInDirs(dirs); n < 1000 {
			t.Errorf("only %d endpoints of the corpus compared", n)
		}
	})

	compared := 0
	rng := rand.New(rand.NewSource(39))
	ids := []string{"a", "b", "c", "d", "x"}
	ref := func() string {
		switch rng.Intn(8) {
		case 0:
			return `{"component_type":"EndNode","name":"inline"}`
		case 1:
			return `{"component_type":"LlmNode","id":"` + ids[rng.Intn(len(ids))] + `"}`
		case 2:
			return `null`
		}
		return `{"$component_ref":"` + ids[rng.Intn(len(ids))] + `"}`
	}
	def := func(sub bool) string {
		switch rng.Intn(6) {
		case 0:
			return `"not an object"`
		case 1:
			return `{"component_type":"LlmNode"}` // no id
		case 2:
			if sub {
				return fmt.Sprintf(`{"component_type":"FlowNode","id":"%s","subflow":%s}`, ids[rng.Intn(len(ids))], flowSrc(rng, ids, ref, nil))
			}
		}
		return `{"component_type":"LlmNode","id":"` + ids[rng.Intn(len(ids))] + `"}`
	}
	for i := 0; i < 3000; i += race.Stride(8) { // a sample under -race
		src := flowSrc(rng, ids, ref, func() string { return def(true) })
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", []byte(src))}
		if a.Flow.Root == nil {
			continue
		}
		compared += sameEndpoints(t, src, a)
	}
}

// flowSrc is a random Flow: nodes, start_node, control and data edges
// naming ref()s, and (def != nil) $referenced_components of def()s.
func flowSrc(rng *rand.Rand, ids []string, ref func() string, def func() string) string {
	list := func(n int, item func() string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = item()
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"component_type":"Flow","start_node":%s,"nodes":%s`, ref(), list(rng.Intn(6), ref))
	b.WriteString(`,"control_flow_connections":` + list(rng.Intn(5), func() string {
		return fmt.Sprintf(`{"component_type":"ControlFlowEdge","from_node":%s,"to_node":%s}`, ref(), ref())
	}))
	b.WriteString(`,"data_flow_connections":` + list(rng.Intn(4), func() string {
		return fmt.Sprintf(`{"component_type":"DataFlowEdge","source_node":%s,"source_output":"o","destination_node":%s,"destination_input":"i"}`, ref(), ref())
	}))
	if def != nil {
		b.WriteString(`,"$referenced_components":{`)
		for j, id := range ids {
			if rng.Intn(4) == 0 {
				continue
			}
			if j > 0 && b.String()[b.Len()-1] != '{' {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", id, def())
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.String()
}
