package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// hostileShape writes an agent package agents/acme/<shape> whose flow (on
// one line) is a hostile graph shape of size n and returns its directory:
//
//	star      start → n EndNodes
//	fanin     start → n FlowNodes → one EndNode
//	chain     start → a chain of n FlowNodes → end
//	branches  start → a BranchingNode of n branches, each to its EndNode
//	dataedges start → h → end, h an ApiNode with n data edges in and n out
func hostileShape(tb testing.TB, shape string, n int) string {
	tb.Helper()
	refs := map[string]any{}
	var nodes, cf, df []any
	node := func(id, typ string, kv ...any) {
		c := map[string]any{"component_type": typ, "id": id, "name": id}
		for i := 0; i+1 < len(kv); i += 2 {
			c[kv[i].(string)] = kv[i+1]
		}
		refs[id] = c
		nodes = append(nodes, map[string]any{"$component_ref": id})
	}
	edge := func(a, b, branch string) {
		e := map[string]any{"component_type": "ControlFlowEdge", "name": a + ">" + b, "from_node": map[string]any{"$component_ref": a}, "to_node": map[string]any{"$component_ref": b}}
		if branch != "" {
			e["from_branch"] = branch
		}
		cf = append(cf, e)
	}
	props := func(prefix string) []any {
		out := make([]any, n)
		for i := range n {
			out[i] = map[string]any{"title": prefix + strconv.Itoa(i), "type": "string"}
		}
		return out
	}
	sub := map[string]any{"$component_ref": "sub"}
	switch shape {
	case "star":
		node("s", "StartNode")
		for i := range n {
			node("e"+strconv.Itoa(i), "EndNode")
			edge("s", "e"+strconv.Itoa(i), "")
		}
	case "fanin":
		node("s", "StartNode")
		for i := range n {
			m := "m" + strconv.Itoa(i)
			node(m, "FlowNode", "subflow", sub)
			edge("s", m, "")
			edge(m, "e", "")
		}
		node("e", "EndNode")
	case "chain":
		node("s", "StartNode")
		prev := "s"
		for i := range n {
			m := "m" + strconv.Itoa(i)
			node(m, "FlowNode", "subflow", sub)
			edge(prev, m, "")
			prev = m
		}
		node("e", "EndNode")
		edge(prev, "e", "")
	case "branches":
		k := []any{map[string]any{"title": "k", "type": "string"}}
		node("s", "StartNode", "inputs", k, "outputs", k)
		branches, mapping := make([]any, n), map[string]any{}
		for i := range n {
			branches[i] = "b" + strconv.Itoa(i)
			mapping["v"+strconv.Itoa(i)] = branches[i]
		}
		node("g", "BranchingNode", "inputs", k, "outputs", []any{}, "branches", branches, "mapping", mapping)
		edge("s", "g", "")
		for i := range n {
			t := "t" + strconv.Itoa(i)
			node(t, "EndNode")
			edge("g", t, "b"+strconv.Itoa(i))
		}
	case "dataedges":
		node("s", "StartNode", "inputs", props("i"), "outputs", props("i"))
		node("h", "ApiNode", "url", "https://example.com", "http_method", "GET", "inputs", props("i"), "outputs", props("o"))
		node("e", "EndNode", "inputs", props("o"), "outputs", props("o"))
		edge("s", "h", "")
		edge("h", "e", "")
		for i := range n {
			for _, d := range [][4]string{{"s", "i", "h", "i"}, {"h", "o", "e", "o"}} {
				o, in := d[1]+strconv.Itoa(i), d[3]+strconv.Itoa(i)
				df = append(df, map[string]any{"component_type": "DataFlowEdge", "name": d[0] + "." + o + ">" + d[2] + "." + in,
					"source_node": map[string]any{"$component_ref": d[0]}, "source_output": o,
					"destination_node": map[string]any{"$component_ref": d[2]}, "destination_input": in})
			}
		}
	default:
		tb.Fatalf("no shape %q", shape)
	}
	refs["sub"] = map[string]any{"component_type": "Flow", "id": "sub", "name": "sub", "inputs": []any{}, "outputs": []any{},
		"start_node": map[string]any{"$component_ref": "ss"}, "nodes": []any{map[string]any{"$component_ref": "ss"}, map[string]any{"$component_ref": "se"}},
		"control_flow_connections": []any{map[string]any{"component_type": "ControlFlowEdge", "name": "ss>se", "from_node": map[string]any{"$component_ref": "ss"}, "to_node": map[string]any{"$component_ref": "se"}}}}
	refs["ss"] = map[string]any{"component_type": "StartNode", "id": "ss", "name": "ss"}
	refs["se"] = map[string]any{"component_type": "EndNode", "id": "se", "name": "se"}
	doc := map[string]any{"agentspec_version": "26.1.0", "component_type": "Flow", "id": shape, "name": shape, "inputs": []any{}, "outputs": []any{},
		"start_node": map[string]any{"$component_ref": "s"}, "nodes": nodes, "control_flow_connections": cf, "$referenced_components": refs}
	if df != nil {
		doc["data_flow_connections"] = df
	}
	src, err := json.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(tb.TempDir(), "agents", "acme", shape)
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), src, 0o644); err != nil {
		tb.Fatal(err)
	}
	pkg := `{"name": "@acme/` + shape + `", "version": "1.0.0", "license": "MIT"}`
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestHostileShapesOpen: each hostile shape, small, opens in the TUI and
// draws a whole 80×24 frame, every side tab too (the benchmark below runs
// them at 5,000 and 20,000; a test holds no bound in seconds).
func TestHostileShapesOpen(t *testing.T) {
	for _, shape := range []string{"star", "fanin", "chain", "branches", "dataedges"} {
		dir := hostileShape(t, shape, 40)
		m := newModel(t, dir, 80, 24, analyze(t, dir, 1))
		assertFrame(t, m.Render(), 80, 24)
		for range m.tabs {
			press(m, "]")
			assertFrame(t, m.Render(), 80, 24)
		}
	}
}

// BenchmarkOpenShape: the TUI opening a hostile shape of n = 5,000 and
// 20,000: the analysis (Analyze: load, review, compile, slots, dry run,
// prompts, the top flow drawn), the first 80×24 frame of the model given
// it, and a frame of every side tab after. Per op, the three in ms.
func BenchmarkOpenShape(b *testing.B) {
	for _, shape := range []string{"star", "fanin", "chain", "branches", "dataedges"} {
		for _, n := range []int{5000, 20000} {
			dir := hostileShape(b, shape, n)
			b.Run(fmt.Sprintf("%s/n=%d", shape, n), func(b *testing.B) {
				var an, frame, tabs time.Duration
				for b.Loop() {
					t0 := time.Now()
					a := Analyze(dir, Options{}, 1)
					t1 := time.Now()
					m := newModel(b, dir, 80, 24, a)
					if out := m.Render(); ansi.StringWidth(out) == 0 {
						b.Fatal("empty frame")
					}
					t2 := time.Now()
					for range m.tabs {
						press(m, "]")
						m.Render()
					}
					t3 := time.Now()
					an, frame, tabs = an+t1.Sub(t0), frame+t2.Sub(t1), tabs+t3.Sub(t2)
				}
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
				b.ReportMetric(ms(an), "analysis-ms")
				b.ReportMetric(ms(frame), "frame-ms")
				b.ReportMetric(ms(tabs), "tabs-ms")
			})
		}
	}
}

// BenchmarkShapeKeys: a keypress on a model already showing the star of
// n findings: the Findings tab, cursor moved down a row and the frame
// drawn (findings-key-ms), a filter typed and cleared on it
// (filter-ms, per keystroke), and the Compiled tab scrolled a line
// (compiled-key-ms). What a frame costs once the snapshot is in.
func BenchmarkShapeKeys(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		dir := hostileShape(b, "star", n)
		a := Analyze(dir, Options{}, 1)
		b.Run(fmt.Sprintf("star/n=%d", n), func(b *testing.B) {
			m := newModel(b, dir, 80, 24, a)
			press(m, "tab") // the side pane has the focus
			m.Render()
			compiled := newModel(b, dir, 80, 24, a)
			press(compiled, "tab", "]", "]", "]")
			compiled.Render()
			var key, filter, ckey time.Duration
			for b.Loop() {
				t0 := time.Now()
				press(m, "down")
				m.Render()
				t1 := time.Now()
				for _, k := range []string{"/", "e", "esc"} {
					press(m, k)
					m.Render()
				}
				t2 := time.Now()
				press(compiled, "down")
				compiled.Render()
				t3 := time.Now()
				key, filter, ckey = key+t1.Sub(t0), filter+t2.Sub(t1), ckey+t3.Sub(t2)
			}
			ms := func(d time.Duration, k int) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N*k) }
			b.ReportMetric(ms(key, 1), "findings-key-ms")
			b.ReportMetric(ms(filter, 3), "filter-ms")
			b.ReportMetric(ms(ckey, 1), "compiled-key-ms")
		})
	}
}

// BenchmarkShapeTabKeys: a keypress (down) and the frame after it on
// every side tab of a model already showing a hostile shape of n = 5,000,
// per tab in ms (the graph pane's own keys are not timed).
func BenchmarkShapeTabKeys(b *testing.B) {
	for _, shape := range []string{"star", "branches", "dataedges"} {
		dir := hostileShape(b, shape, 5000)
		a := Analyze(dir, Options{}, 1)
		b.Run(shape+"/n=5000", func(b *testing.B) {
			m := newModel(b, dir, 80, 24, a)
			press(m, "tab") // the side pane has the focus
			per := make([]time.Duration, len(m.tabs))
			for b.Loop() {
				for i := range m.tabs {
					m.Render()
					t0 := time.Now()
					press(m, "down")
					m.Render()
					per[i] += time.Since(t0)
					press(m, "]")
				}
			}
			for i, d := range per {
				b.ReportMetric(float64(d.Microseconds())/1000/float64(b.N), m.tabs[i].Name()+"-ms")
			}
		})
	}
}
