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
	ac := a.sharedArtifactChecks()
	if ac == nil {
		ac = newArtifactChecks(a)
	}
	out := make([]ArtifactRefusal, 0, len(ac.bindings)+len(ac.materialize))
	return append(append(out, ac.bindings...), ac.materialize...)
}

// artifactChecks are the compiler's two artifact checks of an agent's flow
// file against its package.json: the output bindings' refusals (10b) and
// the artifact_materialize nodes' (10c, Materialize set). Read only.
type artifactChecks struct {
	pkg                   *Doc // the package.json they were checked against
	bindings, materialize []ArtifactRefusal
}

// newArtifactChecks runs both checks over a's flow file (not nil).
func newArtifactChecks(a *Agent) *artifactChecks {
	root := a.Flow.Root
	sib := readSibling(a.Package)
	var produces []string
	var refs []producesRef
	if sib != nil {
		produces, refs = sib.produces, sib.producesRefs
	}
	ac := &artifactChecks{pkg: a.Package, bindings: collectArtifactBindings(root, sib != nil, produces, refs)}
	for _, r := range collectMaterializeNodes(root, sib != nil, produces, refs, bridgeDataOf(root)) {
		r.Materialize = true
		ac.materialize = append(ac.materialize, r)
	}
	return ac
}

// sharedArtifactChecks are a's artifact checks from its model cache, made
// there on first use: the compiler and the linter each ran both checks
// over the whole flow file. Nil when a has no shared cache, or when the
// cache's checks were made against another package.json.
func (a *Agent) sharedArtifactChecks() *artifactChecks {
	sc := a.sharedCache()
	if sc == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil
	}
	sc.artOnce.Do(func() { sc.art = newArtifactChecks(a) })
	if sc.art.pkg != a.Package {
		return nil
	}
	return sc.art
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
