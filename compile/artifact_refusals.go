package compile

// ArtifactRefusal is one error of the compiler's artifact checks (the
// reference's steps 10b and 10c: the outputs[].cinatra.artifact binding
// grammar and the artifact_materialize passthrough nodes, each against
// package.json cinatra.produces when package.json is readable): the node
// the error is about, and the line the compiler's error carries for it.
type ArtifactRefusal struct {
	At  *Node
	Msg string
	// Materialize: an artifact_materialize node's error (10c), not a
	// binding's (10b).
	Materialize bool
}

// ArtifactRefusals are the errors for which the compiler refuses the
// agent's artifact bindings and artifact_materialize nodes. Compile stops
// at the first of the two checks that has any (its error lists that
// check's lines); ArtifactRefusals returns both, so a linter can show
// every one where it is. The linter and the compiler share these
// functions: one grammar, one set of messages.
func ArtifactRefusals(a *Agent) []ArtifactRefusal {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil
	}
	root := a.Flow.Root
	sib := readSibling(a.Package)
	var produces []string
	var refs []producesRef
	if sib != nil {
		produces, refs = sib.produces, sib.producesRefs
	}
	out := collectArtifactBindings(root, sib != nil, produces, refs)
	for _, r := range collectMaterializeNodes(root, sib != nil, produces, refs, bridgeDataOf(root)) {
		r.Materialize = true
		out = append(out, r)
	}
	return out
}

// refusalLines are the compiler's error lines of rs.
func refusalLines(rs []ArtifactRefusal) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Msg
	}
	return out
}

// nodeAt is the value at path under n (a schema issue's path), or n when
// the path does not lead to one (a missing required key).
func nodeAt(n *Node, path []string) *Node {
	at := n
	for _, k := range path {
		next := at.Get(k)
		if next == nil {
			return at
		}
		at = next
	}
	return at
}

// orNode is n, or else when n is absent.
func orNode(n, otherwise *Node) *Node {
	if n == nil {
		return otherwise
	}
	return n
}
