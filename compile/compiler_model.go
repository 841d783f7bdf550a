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

// distinctComponents says comps, each a node's component as the compiler
// looked it up in refs (c.ref: Get, the last of a repeated key), are
// distinct members of refs: then their ids are distinct (one id is one
// member, and two ids are two keys, so two members). Each is placed by
// its own place in refs (the parser's parent and slot), marked in a list
// of refs' members, no set of ids or nodes built; false when one is nil
// or is not a member of refs.
func distinctComponents(refs *Node, comps []*Node) bool {
	if refs == nil || refs.Kind != Object {
		return false
	}
	ms := refs.Members
	member := func(c *Node) bool {
		return c != nil && c.parent == refs && c.slot >= 0 && int(c.slot) < len(ms) && ms[c.slot].Value == c
	}
	// members in their order (a Flow's nodes mostly are) are distinct:
	// the list of those seen is made only from the first that is not
	prev := int32(-1)
	for i, c := range comps {
		if c == nil || c.parent != refs || c.slot <= prev {
			if !member(c) {
				return false
			}
			seen := make([]bool, len(ms))
			for _, b := range comps[:i] {
				seen[b.slot] = true
			}
			for _, c := range comps[i:] {
				if !member(c) || seen[c.slot] {
					return false
				}
				seen[c.slot] = true
			}
			return true
		}
		if int(c.slot) >= len(ms) || ms[c.slot].Value != c {
			return false
		}
		prev = c.slot
	}
	return true
}

// rootStepCounts are, for each id of rootOrder(root), the approval steps
// it produces (countSteps of rootComponents(root)): the counts the
// compiler made building its steps (giveStepCounts), or counted here on
// first use, whichever comes first. Callers must not modify them.
func (c *modelCache) rootStepCounts(root *Node) []int32 {
	c.gatesOnce.Do(func() { c.gates = countSteps(c.rootComponents(root)) })
	return c.gates
}

// giveStepCounts hands the cache the step counts of the root's order the
// compiler made (the same as countSteps': one entry per AgentNode and
// InputMessageNode, one per gate step or one per FlowNode); nothing when
// they were counted already.
func (c *modelCache) giveStepCounts(counts []int32) {
	c.gatesOnce.Do(func() { c.gates = counts })
}

// sharedOrder is the agent's model cache when the compiler reads the root
// Flow's order and components from it (Compile of an agent as loaded:
// topology), else nil.
func (c *compiler) sharedOrder() *modelCache {
	if sc := c.a.sharedCache(); c.shareOrder && sc != nil && c.root == c.a.Flow.Root {
		return sc
	}
	return nil
}
