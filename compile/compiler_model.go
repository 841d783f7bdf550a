package compile

// componentsNear is componentsOf (each id's component in flow's
// $referenced_components, as Get finds it, and its ComponentType): when
// that object's key index covers its members and no key repeats, each id
// is tried first at the member after the last one found (a Flow's nodes
// are mostly defined in the order the compiler visits them), so one
// comparison of keys answers where a look-up in the index did. As Get, it
// trusts the key index while the object has the members it was built for.
func componentsNear(flow *Node, ids []string) ([]*Node, []string) {
	refs := flow.Get("$referenced_components")
	comps, types := make([]*Node, len(ids)), make([]string, len(ids))
	if !refs.indexed() || len(refs.keys.last) != len(refs.Members) {
		for i, id := range ids {
			comps[i] = refs.Get(id)
			types[i] = ComponentType(comps[i])
		}
		return comps, types
	}
	ms, last := refs.Members, refs.keys.last
	g := -1 // the place of the last member found
	for i, id := range ids {
		var c *Node
		if g+1 < len(ms) && ms[g+1].Key == id {
			g++
			c = ms[g].Value
		} else if j, ok := last[id]; ok && j < len(ms) && ms[j].Key == id {
			g = j
			c = ms[j].Value
		}
		comps[i] = c
		types[i] = ComponentType(c)
	}
	return comps, types
}
