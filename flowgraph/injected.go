package flowgraph

import (
	"encoding/json"

	"github.com/oastui/oastui/compile"
)

// InjectedSuffix marks the name of a step the WayFlow loader adds when it
// mounts the agent: it is not in the file.
const InjectedSuffix = " (at mount)"

// injectSlots adds to raw the context steps the WayFlow loader injects at
// mount for the slim context slots of Flow f (compile.MountSlots, after
// cinatra-ai/cinatra docker/wayflow/context_subflow_injection.py @b76ddc22):
// a FlowNode context_<slot> per slot, chained after the start node (the
// start node's former successors follow the last one), with a data edge
// contextSlotBindings into each consumer. The nodes are marked Injected,
// have no place in the file, and a component that exists only here (its
// name ends with InjectedSuffix). A refused mount injects nothing.
func injectSlots(a *compile.Agent, f *compile.Flow, rm *rawModel, key func(string) string) {
	if a == nil || a.Model().FlowByNode(f.Node) == nil {
		return // a flow of another document (a registry component's)
	}
	mount := a.Model().Mount
	def := ""
	if f.Pointer != "" {
		def = f.ID()
	}
	var slots []compile.MountedSlot
	for _, s := range mount.Slots {
		if s.Definition == def && s.DefPointer == f.Pointer && s.Form == compile.SlotSlim && !s.Refused {
			slots = append(slots, s)
		}
	}
	raw := rm.raw
	start, ok := rm.index[key(rawStartID(f))]
	if len(slots) == 0 || !ok {
		return
	}
	var out []int // the start node's original control edges
	for i, e := range raw.Edges {
		if e.From == start {
			out = append(out, i)
		}
	}
	prev := start
	for _, s := range slots {
		comp := injectedComponent(s)
		i := len(raw.Nodes)
		id := key(s.Node)
		rm.index[id] = i
		rm.keys = append(rm.keys, id)
		rm.comps = append(rm.comps, compile.Resolved{Node: comp, Scope: compile.RefLocal})
		rm.repeats = append(rm.repeats, nil)
		raw.Nodes = append(raw.Nodes, RawNode{ID: s.Node, Comp: comp, BFS: -1, Injected: true})
		raw.Edges = append(raw.Edges, RawEdge{From: prev, To: i})
		for _, c := range s.Consumers {
			if to, ok := rm.index[key(c.Node)]; ok {
				raw.Data = append(raw.Data, RawData{From: i, To: to, Output: "contextSlotBindings", Input: c.Input})
			}
		}
		prev = i
	}
	for _, j := range out {
		raw.Edges[j].From = prev
	}
}

func rawStartID(f *compile.Flow) string {
	if id, ok := compile.RefID(f.Node.Get("start_node")); ok {
		return id
	}
	return f.Node.Get("start_node").StringOr("")
}

// injectedComponent is the context FlowNode the loader adds for slot s, as
// much of it as the faces show: its id, name, purpose marker and output.
func injectedComponent(s compile.MountedSlot) *compile.Node {
	b, _ := json.Marshal(map[string]any{
		"component_type": "FlowNode",
		"id":             s.Node,
		"name":           "Resolve " + s.Slot + InjectedSuffix,
		"metadata":       map[string]any{"cinatra": map[string]any{"purpose": compile.LoaderInjectedPurpose + s.Slot}},
		"inputs":         []any{},
		"outputs":        []any{map[string]any{"title": "contextSlotBindings", "type": "array"}},
	})
	n, err := compile.Parse(b)
	if err != nil {
		return nil
	}
	return n
}
