package compile

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/oastui/oastui/present"
)

// TestFlowViewSameAsBefore: the view, which finds an edge's end, the start
// and a BFS id by the id as nodes writes it (one look-up) before its key,
// is the view that found each by its key (buildViewBefore, the view as it
// was): ids shown alike (an escape sequence, a bidi mark), an edge or start
// written with another spelling of a node's id, an id shown as "",
// repeated entries, unresolved nodes, and slim context steps injected at
// mount (beside a context step the file places itself).
func TestFlowViewSameAsBefore(t *testing.T) {
	ref := func(id string) jm { return jm{"$component_ref": id} }
	comp := func(typ, id string) jm { return jm{"component_type": typ, "id": id, "name": id} }
	ctl := func(from, to string) jm {
		return jm{"component_type": "ControlFlowEdge", "name": from + "-" + to, "from_node": ref(from), "to_node": ref(to)}
	}
	alike := jm{
		"component_type": "Flow", "id": "f", "name": "F", "start_node": ref("s\u202e"),
		"nodes":                    []any{ref("s"), ref("a"), ref("a\x1b[31m"), ref("b"), ref("\x1b[0m"), ref(""), ref("ghost"), ref("b"), ref("e")},
		"control_flow_connections": []any{ctl("s\u202e", "a"), ctl("a\x1b[0m", "b"), ctl("b", "nowhere"), ctl("b", "e\u200b"), ctl("\x1b[0m", "e"), ctl("", "e"), ctl("ghost", "e")},
		"data_flow_connections": []any{jm{"component_type": "DataFlowEdge", "name": "d", "source_node": ref("s\u200b"), "source_output": "x",
			"destination_node": ref("b"), "destination_input": "y"}},
		"$referenced_components": jm{"s": comp("StartNode", "s"), "a": comp("ApiNode", "a"), "a\x1b[31m": comp("ApiNode", "a\x1b[31m"),
			"b": comp("ApiNode", "b"), "\x1b[0m": comp("ApiNode", "\x1b[0m"), "e": comp("EndNode", "e")},
	}
	collide := slimSpec([]any{slotDecl("alpha", nil), slotDecl("beta", nil)}, "alphaContextSlotBindings", "betaContextSlotBindings")
	collide["nodes"] = append(collide["nodes"].([]any), ref("context_alpha"))
	refsOf(collide)["context_alpha"] = comp("ApiNode", "context_alpha")
	docs := map[string]jm{"alike": alike, "slots": slimSpec([]any{slotDecl("alpha", nil), slotDecl("beta", nil)}, "alphaContextSlotBindings", "betaContextSlotBindings"),
		"slot id a node's too": collide}
	agents := map[string]*Agent{"model flow": loadModelFlow(t)}
	for name, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		agents[name] = &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", b), Profile: ProfileCinatra}
	}
	injected := 0
	for name, a := range agents {
		for _, fm := range a.Model().Flows {
			got, want := fm.buildView(), buildViewBefore(fm)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, flow %q:\n got %+v\nwant %+v", name, fm.Flow.Pointer, got, want)
			}
			for _, n := range got.Nodes {
				if n.Injected {
					injected++
				}
			}
		}
	}
	if injected < 3 {
		t.Errorf("%d context steps injected, want 3: the mount is not exercised", injected)
	}
}

// buildViewBefore is buildView as it was: every id found by its key.
func buildViewBefore(fm *FlowModel) *FlowView {
	keys := map[string]string{}
	key := func(s string) string {
		if s == "" {
			return ""
		}
		k, ok := keys[s]
		if !ok {
			k = present.Text(s)
			keys[s] = k
		}
		return k
	}
	nn := len(fm.Entries)
	v := &FlowView{Start: -1, Nodes: make([]ViewNode, 0, nn), Edges: make([]ViewEdge, 0, len(fm.Control)),
		Data: make([]ViewData, 0, len(fm.Data)), Index: make(map[string]int, nn)}
	for _, en := range fm.Entries {
		id := key(en.RawID)
		if id == "" {
			continue
		}
		if j, dup := v.Index[id]; dup {
			v.Nodes[j].Repeats = append(v.Nodes[j].Repeats, en.Pointer)
			continue
		}
		v.Index[id] = len(v.Nodes)
		v.Nodes = append(v.Nodes, ViewNode{ID: en.RawID, Key: id, Resolved: en.Resolved.FlowScoped(), Entry: en.Pointer, BFS: -1})
	}
	for i := range fm.Control {
		e := &fm.Control[i]
		if e.Scope.OutsideFlowScopes() {
			continue
		}
		fi, ok1 := v.Index[key(e.From.RawID)]
		ti, ok2 := v.Index[key(e.To.RawID)]
		if !ok1 || !ok2 {
			continue
		}
		branch := ""
		if e.BranchGiven {
			branch = e.Branch
		}
		v.Edges = append(v.Edges, ViewEdge{From: fi, To: ti, Branch: branch, Pointer: e.Entry})
	}
	for i := range fm.Data {
		e := &fm.Data[i]
		if e.Scope.OutsideFlowScopes() {
			continue
		}
		fi, ok1 := v.Index[key(e.Source.RawID)]
		ti, ok2 := v.Index[key(e.Destination.RawID)]
		if !ok1 || !ok2 {
			continue
		}
		v.Data = append(v.Data, ViewData{From: fi, To: ti, Output: e.Output, Input: e.Input, Pointer: e.Entry})
	}
	if id := key(fm.Start.RawID); id != "" {
		if i, ok := v.Index[id]; ok {
			v.Start = i
		}
	}
	v.injectSlots(fm.Flow, fm.mount, key)
	for k, id := range fm.BFSOrder() {
		if i, ok := v.Index[key(id)]; ok && v.Nodes[i].BFS < 0 {
			v.Nodes[i].BFS = k
		}
	}
	return v
}
