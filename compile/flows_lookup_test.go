package compile

import "testing"

// TestFlowLookupIsResolves: Flow.Lookup finds what Flow.Resolve finds in
// the Flow's own and enclosing scopes (the same component and owning
// Flow), and nothing where Resolve goes to the registry or finds nothing;
// a Flow of the document's list (which reads its $referenced_components
// once) and the same Flow built by hand agree.
func TestFlowLookupIsResolves(t *testing.T) {
	src := `{"component_type": "Flow", "id": "root",
  "$referenced_components": {
    "a": {"component_type": "EndNode", "id": "a"},
    "shadowed": {"component_type": "EndNode", "id": "outer-shadowed"},
    "inner": {"component_type": "Flow", "id": "inner",
      "nodes": [{"$component_ref": "a"}, {"$component_ref": "shadowed"}, {"$component_ref": "b"}, {"$component_ref": "reg"}, {"$component_ref": "nowhere"}],
      "$referenced_components": {
        "shadowed": {"component_type": "EndNode", "id": "inner-shadowed"},
        "b": {"component_type": "EndNode", "id": "b"},
        "deep": {"component_type": "Flow", "id": "deep", "nodes": [{"$component_ref": "b"}, {"$component_ref": "a"}, {"$component_ref": "shadowed"}]}}}},
  "nodes": [{"$component_ref": "a"}, {"$component_ref": "b"}, {"$component_ref": "inner"}]}`
	root, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	registry, _ := Parse([]byte(`{"reg": {"component_type": "EndNode", "id": "reg"}}`))
	flows := Flows(root)
	if len(flows) != 3 {
		t.Fatalf("%d flows, want 3", len(flows))
	}
	byHand := map[*Flow]*Flow{}
	for _, f := range flows {
		h := &Flow{Node: f.Node, Pointer: f.Pointer, Depth: f.Depth}
		if f.Parent != nil {
			h.Parent = byHand[f.Parent]
		}
		byHand[f] = h
	}
	found, missing := 0, 0
	for _, f := range flows {
		for _, n := range f.Node.Get("nodes").Items {
			id, _ := RefID(n)
			r := f.Resolve(n, "", registry)
			for _, g := range []*Flow{f, byHand[f]} {
				c, owner := g.Lookup(id)
				switch r.Scope {
				case RefLocal, RefOuter:
					if c != r.Node || owner == nil || owner.Node != r.Owner.Node {
						t.Errorf("flow %s, %q: Lookup gives %v in %v, Resolve %v in %s", f.ID(), id, c, owner, r.Node, r.Owner.ID())
					}
					found++
				default:
					if c != nil || owner != nil {
						t.Errorf("flow %s, %q: Lookup gives %v, Resolve's scope is %d", f.ID(), id, c, r.Scope)
					}
					missing++
				}
			}
		}
	}
	if found != 2*8 || missing != 2*3 {
		t.Errorf("%d found and %d not, want 16 and 6", found, missing)
	}
	if c, _ := flows[2].Lookup("shadowed"); c.Get("id").StringOr("") != "inner-shadowed" {
		t.Errorf("deep's shadowed is %s, want the inner definition", c.Get("id").StringOr(""))
	}
}
