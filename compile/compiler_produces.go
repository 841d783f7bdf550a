package compile

import (
	"fmt"
	"sort"
	"strings"
)

// The compiled output and compile refusals of today's platform beyond the
// pin (reference cinatra.md §17.2). The newest compiler's source could not
// be read; what follows is built from its tests and callers in
// cinatra-ai/cinatra, named at each function.

// producesEntry is one {extension, objectTypeId?} entry of a produces list.
type producesEntry struct {
	extension    string
	objectTypeID string
	typed        bool // objectTypeId present
}

// key is the entry's identity as a JSON tuple: two entries agree when
// extension and objectTypeId are equal, never because their labels read
// alike ("@a/b (c)" and {@a/b, c} differ).
func (e producesEntry) key() string {
	if !e.typed {
		return e.extension + "\x00"
	}
	return e.extension + "\x00\x01" + e.objectTypeID
}

func (e producesEntry) label() string {
	if e.typed {
		return e.extension + " (objectTypeId " + e.objectTypeID + ")"
	}
	return e.extension
}

// readProducesList reads a produces list: nil and true for an absent (or
// null) member, the entries and true for a list of {extension,
// objectTypeId?} objects, false for anything else (not a list, or an entry
// without a non-empty string extension or with a non-string objectTypeId).
func readProducesList(n *Node) ([]producesEntry, bool) {
	if n == nil || n.Kind == Null {
		return nil, true
	}
	if n.Kind != Array {
		return nil, false
	}
	out := make([]producesEntry, 0, len(n.Items))
	for _, it := range n.Items {
		if it.Kind != Object {
			return nil, false
		}
		ext, ok := it.Get("extension").Str()
		if !ok || ext == "" {
			return nil, false
		}
		e := producesEntry{extension: ext}
		if ot := it.Get("objectTypeId"); ot != nil && ot.Kind != Null {
			s, ok := ot.Str()
			if !ok {
				return nil, false
			}
			e.objectTypeID, e.typed = s, true
		}
		out = append(out, e)
	}
	return out, true
}

// ProducesMirror is a disagreement between the flow's
// metadata.cinatra.produces (the mirror) and package.json's
// cinatra.produces (the manifest), which the platform's compiler refuses.
type ProducesMirror struct {
	// Manifest: the manifest's block could not be read whole, so the
	// mirror cannot be checked (the manifest is named, not the mirror).
	Manifest bool
	// Msg is the compile error's text after "produces-mirror validation
	// failed for <package>: ".
	Msg string
}

// CheckProducesMirror compares the flow's produces mirror with package.json
// cinatra.produces as the platform's compiler does (cinatra#3095,
// compareAgentProducesMirror; its rules read from the tests
// packages/agents/src/__tests__ of cinatra-ai/cinatra, the source not
// being public): an absent mirror asserts nothing; the two must be equal
// entry for entry as {extension, objectTypeId} tuples, order ignored; an
// absent manifest is an empty one (so [] beside it agrees); a manifest
// block that cannot be read whole refuses the mirror naming the manifest;
// a mirror that cannot be read is refused. nil when they agree, or when
// package.json was not read (nothing to compare with, as for the
// bindings' parity).
func CheckProducesMirror(a *Agent) *ProducesMirror {
	if a == nil || a.Flow == nil || a.Flow.Root == nil || a.Package == nil || a.Package.Root == nil || a.Package.Root.Kind != Object {
		return nil
	}
	raw := a.Flow.Root.Path("metadata", "cinatra", "produces")
	if raw == nil || raw.Kind == Null {
		return nil
	}
	manifest, whole := readProducesList(a.Package.Root.Path("cinatra", "produces"))
	if !whole {
		return &ProducesMirror{Manifest: true, Msg: "package.json cinatra.produces could not be read whole (every entry must be {extension, objectTypeId?}), so metadata.cinatra.produces cannot be checked against it"}
	}
	mirror, ok := readProducesList(raw)
	if !ok {
		return &ProducesMirror{Msg: "metadata.cinatra.produces could not be read: it must be a list of {extension, objectTypeId?} objects, like package.json cinatra.produces"}
	}
	if sameProduces(mirror, manifest) {
		return nil
	}
	return &ProducesMirror{Msg: fmt.Sprintf("metadata.cinatra.produces [%s] disagrees with the package manifest, package.json cinatra.produces [%s]: the mirror may be left out, but when present it must equal the manifest entry for entry (order does not matter)",
		producesLabels(mirror), producesLabels(manifest))}
}

func sameProduces(a, b []producesEntry) bool {
	if len(a) != len(b) {
		return false
	}
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		ka[i], kb[i] = a[i].key(), b[i].key()
	}
	sort.Strings(ka)
	sort.Strings(kb)
	for i := range ka {
		if ka[i] != kb[i] {
			return false
		}
	}
	return true
}

func producesLabels(l []producesEntry) string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.label()
	}
	return strings.Join(s, ", ")
}

// HasArtifactBindings is the compiled output's hasArtifactBindings
// (cinatra#2498): the flow declares at least one outputs[].cinatra.artifact
// binding, on an EndNode of its $referenced_components (where the
// compiler's binding collector reads them). The platform persists it with
// the version and reads it back (packages/agents/src/mcp/handlers.ts
// @02e8bfa3; the produces-road test expects false for an unbound flow and
// true for a flow with one bound output).
func HasArtifactBindings(root *Node) bool {
	return len(boundExtensions(root)) > 0
}

// boundExtensions are the extensions of the EndNode output bindings
// (outputs[].cinatra.artifact.extension; "" for a binding without one).
func boundExtensions(root *Node) []string {
	var out []string
	for _, m := range objEntries(root.Get("$referenced_components")) {
		if !m.Value.Is(Object) || ComponentType(m.Value) != "EndNode" {
			continue
		}
		for _, o := range m.Value.Get("outputs").itemsOrNil() {
			if art := o.Get("cinatra").Get("artifact"); o.Is(Object) && !nullish(art) {
				out = append(out, art.Get("extension").StringOr(""))
			}
		}
	}
	return out
}

// materializedExtensions are the literal input.extension of every
// artifact_materialize passthrough ApiNode (top level, subflows, nested
// Flows), as collectMaterializeNodes finds them.
func materializedExtensions(root *Node) []string {
	var out []string
	var visit func(n *Node, depth int)
	visit = func(n *Node, depth int) {
		if !n.Is(Object) || depth > MaxDepth {
			return
		}
		if ComponentType(n) == "ApiNode" {
			if u, ok := n.Get("url").Str(); ok && strings.Contains(u, "/api/agents/passthrough") {
				data := n.Get("data")
				if s, ok := data.Str(); ok {
					data, _ = Parse([]byte(s))
				}
				if data.Get("tool").StringOr("") == "artifact_materialize" {
					if e, ok := data.Get("input").Get("extension").Str(); ok {
						out = append(out, e)
					}
				}
			}
		}
		for _, m := range objEntries(n.Get("$referenced_components")) {
			visit(m.Value, depth+1)
		}
		if sf := n.Get("subflow"); sf.Is(Object) {
			visit(sf, depth+1)
		}
	}
	visit(root, 0)
	return out
}

// ProducesWithoutRoad lists, sorted and once each, the extensions
// package.json cinatra.produces promises that the flow wires no road for:
// no outputs[].cinatra.artifact binding and no artifact_materialize node
// names them (cinatra#3051, producesWithoutMaterializationRoad in
// packages/agents/src/artifact-binding.ts, read from its test
// oas-compiler-produces-road: a compile warning, the compile succeeds).
// Nothing when package.json was not read or promises nothing; a road for
// one extension does not cover another.
func ProducesWithoutRoad(a *Agent) []string {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil
	}
	sib := readSibling(a.Package)
	if sib == nil || len(sib.produces) == 0 {
		return nil
	}
	road := map[string]bool{}
	for _, e := range boundExtensions(a.Flow.Root) {
		road[e] = true
	}
	for _, e := range materializedExtensions(a.Flow.Root) {
		road[e] = true
	}
	var out []string
	for _, e := range dedupe(sib.produces) {
		if !road[e] {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// RoadWarning is the compile warning for extensions ProducesWithoutRoad
// names, as the compiler prints it once per compile ([artifact-binding]).
func RoadWarning(pkg string, exts []string) string {
	return fmt.Sprintf("[artifact-binding] %s: package.json cinatra.produces promises %s, but the flow wires no road for it: no outputs[].cinatra.artifact binding and no artifact_materialize node names it, so a run materializes nothing for it and opens no review gate",
		pkg, strings.Join(exts, ", "))
}

// objEntries are an object's members (the last of a repeated key), nil for
// anything else.
func objEntries(n *Node) []Member {
	if !n.Is(Object) {
		return nil
	}
	return entries(n)
}
