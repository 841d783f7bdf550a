package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Nothing silent: a side that does not load, parse or compile is named
// (health), and every difference of the flow file and package.json that no
// other check explains is named by the fallback (residue), so "no changes"
// means the two sides are equal up to formatting.

// sideError is the first error of a side that has the agent: why it did not
// load, parse or compile ("" when it did).
func sideError(s *analysis.Snapshot, loadErr error) string {
	if loadErr != nil {
		return loadErr.Error()
	}
	if s == nil || s.Agent == nil {
		return ""
	}
	if !s.Parsed() {
		for _, f := range s.Review.Findings {
			if f.Severity == compile.Blocker {
				return f.Code + ": " + f.Message
			}
		}
		return "the flow file does not parse"
	}
	if s.CompileErr != nil {
		return s.CompileErr.Error()
	}
	return ""
}

// health: the new side fails where the old one did not (breaking: the
// platform refuses it, and whatever the other checks could not read is
// unknown), or the reverse (info).
func (d *differ) health() {
	oe, ne := sideError(d.old.s, nil), sideError(d.new.s, nil)
	d.healthOf(oe, ne)
}

func (d *differ) healthOf(oe, ne string) {
	switch {
	case oe == "" && ne != "":
		d.add(CheckSideBroken, "health", "", "", firstLine(ne), "the new revision does not load or compile: "+firstLine(ne),
			nil, pos(d.new.flow, ""))
	case oe != "" && ne == "":
		d.add(CheckSideFixed, "health", "", firstLine(oe), "", "the new revision loads and compiles again (it failed with: "+firstLine(oe)+")",
			pos(d.old.flow, ""), nil)
	}
}

func firstLine(s string) string {
	s, rest, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if strings.HasSuffix(s, ":") { // the error's detail is on the next line
		next, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
		s += " " + strings.TrimSpace(next)
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// residue is one difference of a document found by the structural walk.
type residue struct {
	oldPtr, newPtr string        // where it is on each side ("" where absent)
	oldN, newN     *compile.Node // the values (nil where absent)
	ident          string        // the same place named by identities, never array indexes
	before, after  string        // compact JSON ("" where absent), made for the residues left uncovered
}

// fallback names every difference of the flow file and package.json that
// no change found so far covers, at warn: "changed at <pointer> (before →
// after)". Arrays of objects are matched by id (else title, name, the
// component reference or the packageName) so that an insertion moves no
// other element; arrays of scalars are compared as sets when neither
// repeats a value.
func (d *differ) fallback() {
	if !d.old.ok || !d.new.ok {
		return
	}
	for _, doc := range []struct {
		name     string
		old, new *compile.Doc
	}{{"flow", d.old.flow, d.new.flow}, {"package.json", d.old.pkgDoc, d.new.pkgDoc}} {
		if doc.old == nil || doc.new == nil || doc.old.Root == nil || doc.new.Root == nil {
			continue
		}
		var oldCov, newCov []string
		add := func(cv covered) {
			switch {
			case cv.old && cv.file == doc.old.Path:
				oldCov = append(oldCov, cv.ptr)
			case !cv.old && cv.file == doc.new.Path:
				newCov = append(newCov, cv.ptr)
			}
		}
		for i := range d.out {
			for _, cv := range coverage(&d.out[i]) {
				add(cv)
			}
		}
		for _, cv := range d.spillCov { // what the changes only counted explain (spill)
			add(cv)
		}
		var rs []residue
		// no object of either file repeats a key (the parsers list every
		// repeated key): the walk may pair members by their place
		distinct := len(doc.old.Duplicates) == 0 && len(doc.new.Duplicates) == 0
		// one set serves both sides when they list the same places (a
		// flow renamed in place: each rename covers one place on each)
		oldSet := newCovSet(oldCov)
		newSet := oldSet
		if !slices.Equal(oldCov, newCov) {
			newSet = newCovSet(newCov)
		}
		walkUncovered(doc.old.Root, doc.new.Root, doc.old.Src, doc.new.Src, "", "", "", distinct, oldSet, newSet, &rs)
		for i := range rs { // the values of what is left (the covered need none)
			rs[i].before, rs[i].after = compact(rs[i].oldN), compact(rs[i].newN)
		}
		rs = d.explainedByNodes(rs)
		for _, r := range rs {
			var op, np *Pos
			if r.oldPtr != "" {
				op = pos(doc.old, r.oldPtr)
			}
			if r.newPtr != "" {
				np = pos(doc.new, r.newPtr)
			}
			at := r.newPtr
			if at == "" {
				at = r.oldPtr
			}
			file := ""
			if doc.name == "package.json" {
				file = "package.json "
			}
			c := d.add(CheckChanged, doc.name+" "+r.ident, "", shortValue(r.before), shortValue(r.after),
				fmt.Sprintf("changed at %s%s (%s → %s)", file, at, clipValue(r.before), clipValue(r.after)), op, np)
			if doc.name == "flow" && r.ident == "/metadata/cinatra/packageVersion" {
				c.Level, c.Reason = Info, "the flow's mirror of package.json's version (a mismatch is the review's finding)"
			}
		}
	}
}

// explainedByNodes drops the residues that a node's own change explains:
// the nodes[] reference and the edges of a node added or removed, and the
// StartNode's required and hidden lists changing by the inputs a contract
// change names.
func (d *differ) explainedByNodes(rs []residue) []residue {
	nodes, ports, arts := map[string]bool{}, map[string]bool{}, map[string]bool{}
	produces := false
	for _, c := range d.out {
		switch c.Check {
		case CheckNodeAdded.ID, CheckNodeRemoved.ID:
			nodes[c.Node] = true
		case CheckArtifactAdded.ID, CheckArtifactRemoved.ID, CheckArtifactRetyped.ID:
			if _, out, ok := strings.Cut(c.Subject, " output "); ok {
				arts[out] = true // an EndNode output's binding: the flow's outputs mirror it
			}
		case CheckProducesAdded.ID, CheckProducesRemoved.ID, CheckProducesTypeChanged.ID:
			produces = true
		}
		if c.Port != "" {
			ports[c.Port] = true
		}
	}
	for id := range d.formNodes {
		nodes[id] = true // a slot's form move explains its context FlowNode (slotForms)
	}
	for p := range d.formPorts {
		ports[p] = true
	}
	quoted := make(map[string]bool, len(nodes))
	for id := range nodes {
		quoted[strconv.Quote(id)] = true
	}
	mentions := func(v string) bool { return mentionsRef(v, quoted) }
	var out []residue
	for _, r := range rs {
		if (r.before == "" || r.after == "") && mentions(r.before+r.after) {
			continue
		}
		if port, ok := componentPort(r.ident); ok && d.formPorts[port] {
			continue // a hidden start input (and output) the loader adds at mount for a slim slot
		}
		if port, ok := mirrorPort(r.ident); ok && (ports[port] || arts[port] && strings.Contains(r.ident, "]/cinatra")) {
			continue // the flow's own inputs/outputs mirror a port the contract checks name
		}
		if produces && (r.ident == "/metadata/cinatra/produces" || strings.HasPrefix(r.ident, "/metadata/cinatra/produces[") || strings.HasPrefix(r.ident, "/metadata/cinatra/produces/")) {
			continue // the flow's mirror of package.json's produces (the compile refuses a mismatch)
		}
		if strings.HasSuffix(r.ident, "/metadata/cinatra/required") || strings.HasSuffix(r.ident, "/metadata/cinatra/hidden") {
			if setDiffIn(r.before, r.after, ports) {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// mentionsRef: v holds `"$component_ref":` followed by one of the quoted
// ids (strconv.Quote of a node id). It reads each reference in v once and
// looks its quoted id up, rather than searching v for every node's id (a
// diff renaming every node of a 5,000-node star searched every residue for
// every node: 11 s). A quoted id ends at its first quote no backslash
// escapes, so the one candidate after each marker is the only prefix there
// that can equal a quoted id.
func mentionsRef(v string, quoted map[string]bool) bool {
	const marker = `"$component_ref":`
	if len(quoted) == 0 {
		return false
	}
	for {
		i := strings.Index(v, marker)
		if i < 0 {
			return false
		}
		v = v[i+len(marker):]
		if len(v) > 0 && v[0] == '"' {
			for j := 1; j < len(v); j++ {
				if v[j] == '\\' {
					j++
					continue
				}
				if v[j] == '"' {
					if quoted[v[:j+1]] {
						return true
					}
					break
				}
			}
		}
	}
}

// componentPort: ident is an inputs or outputs element (or one of its
// fields) of a component of $referenced_components, as "<component
// id>/<title>".
func componentPort(ident string) (string, bool) {
	rest, ok := strings.CutPrefix(ident, "/$referenced_components/")
	if !ok {
		return "", false
	}
	id, rest, _ := strings.Cut(rest, "/")
	for _, p := range []string{"inputs[title=", "outputs[title="} {
		if after, ok := strings.CutPrefix(rest, p); ok {
			name, _, ok := strings.Cut(after, "]")
			return id + "/" + name, ok
		}
	}
	return "", false
}

// mirrorPort: ident is a top-level /inputs or /outputs element (or one of
// its fields), named by title.
func mirrorPort(ident string) (string, bool) {
	for _, p := range []string{"/inputs[title=", "/outputs[title="} {
		if rest, ok := strings.CutPrefix(ident, p); ok {
			name, _, ok := strings.Cut(rest, "]")
			return name, ok
		}
	}
	return "", false
}

// setDiffIn: two JSON string arrays differ only by members of names.
func setDiffIn(a, b string, names map[string]bool) bool {
	var la, lb []string
	if a != "" && json.Unmarshal([]byte(a), &la) != nil || b != "" && json.Unmarshal([]byte(b), &lb) != nil {
		return false
	}
	ia, ib := set(la), set(lb)
	for k := range ia {
		if !ib[k] && !names[k] {
			return false
		}
	}
	for k := range ib {
		if !ia[k] && !names[k] {
			return false
		}
	}
	return true
}

func clipValue(s string) string {
	if s == "" {
		return "absent"
	}
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return s
}

// covSet is one side's covered pointers as a set: a pointer is under it
// when it, or a prefix of it ending before a "/", is in the set (one
// look-up per segment, not one comparison per covered pointer: a flow with
// every node renamed has tens of thousands of both).
type covSet map[string]bool

func newCovSet(l []string) covSet {
	m := make(covSet, len(l))
	for _, c := range l {
		if c != "" {
			m[c] = true
		}
	}
	return m
}

// under says pointer p is under the set ("" never is).
func (cov covSet) under(p string) bool {
	if p == "" || len(cov) == 0 {
		return false
	}
	if cov[p] {
		return true
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && cov[p[:i]] {
			return true
		}
	}
	return false
}

// underBytes is under of a pointer being built (no string made of it).
func (cov covSet) underBytes(p []byte) bool {
	if len(p) == 0 || len(cov) == 0 {
		return false
	}
	if cov[string(p)] {
		return true
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && cov[string(p[:i])] {
			return true
		}
	}
	return false
}

// allUnder: a whole object or array added or removed is explained when
// each of its members is (a dependency map whose entries each have their
// change).
func (cov covSet) allUnder(p string, n *compile.Node) bool {
	if p == "" || n == nil || len(n.Members)+len(n.Items) == 0 {
		return false
	}
	for _, m := range n.Members {
		if !cov.under(compile.Append(p, m.Key)) {
			return false
		}
	}
	for i := range n.Items {
		if !cov.under(compile.AppendIndex(p, i)) {
			return false
		}
	}
	return true
}

// explained says the covered places explain residue r: its place on a
// side it has is under that side's, or it is a whole value one side lacks
// whose members each are.
func explained(r *residue, oldCov, newCov covSet) bool {
	if oldCov.under(r.oldPtr) || newCov.under(r.newPtr) {
		return true
	}
	return r.newN == nil && oldCov.allUnder(r.oldPtr, r.oldN) || r.oldN == nil && newCov.allUnder(r.newPtr, r.newN)
}

// identKeys name an array element across revisions, in order of preference.
var identKeys = []string{"id", "title", "name", "$component_ref", "packageName", "primitive", "slotId"}

// elemIdent is the identity of an array element ("" when it has none).
func elemIdent(n *compile.Node) string {
	if !n.Is(compile.Object) {
		return ""
	}
	for _, k := range identKeys {
		if s, ok := n.Get(k).Str(); ok && s != "" {
			return k + "=" + s
		}
	}
	if r, ok := n.Get("from_node").Get("$component_ref").Str(); ok { // an edge: its ends
		to, _ := n.Get("to_node").Get("$component_ref").Str()
		if to == "" {
			to, _ = n.Get("destination_node").Get("$component_ref").Str()
		}
		return "edge=" + r + "→" + to + "/" + n.Get("from_branch").StringOr("")
	}
	if r, ok := n.Get("source_node").Get("$component_ref").Str(); ok {
		to, _ := n.Get("destination_node").Get("$component_ref").Str()
		return "data=" + r + "." + n.Get("source_output").StringOr("") + "→" + to + "." + n.Get("destination_input").StringOr("")
	}
	return ""
}

// equalNode says two JSON values are equal (object members in any order),
// without allocating.
func equalNode(a, b *compile.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case compile.Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		// Members in the same key order (nearly every object of a flow
		// edited in place): compared pair by pair, without a look-up per
		// key. A pair that differs decides only when it is the member
		// JSON.parse keeps (the last of a repeated key); the same order
		// puts that member at the same index on both sides.
		for i := range a.Members {
			ma, mb := &a.Members[i], &b.Members[i]
			if ma.Key != mb.Key {
				return equalMembers(a, b)
			}
			if !equalNode(ma.Value, mb.Value) && a.Get(ma.Key) == ma.Value {
				return false
			}
		}
		return true
	case compile.Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !equalNode(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case compile.Number:
		return a.Text == b.Text || canonScalar(a) == canonScalar(b)
	case compile.Bool:
		return a.Bool == b.Bool
	}
	return a.Text == b.Text
}

// equalMembers says two objects of as many members hold equal values
// under each key, as JSON.parse leaves them (the last of a repeated key).
func equalMembers(a, b *compile.Node) bool {
	for _, m := range a.Members {
		if !equalNode(a.Get(m.Key), b.Get(m.Key)) {
			return false
		}
	}
	return true
}

// scalarKey is a scalar's identity in a set.
func scalarKey(n *compile.Node) string {
	if n.Kind == compile.Bool {
		return fmt.Sprint(n.Bool)
	}
	return n.Kind.String() + ":" + n.Text
}

// walkUncovered compares two JSON values and appends their differences
// that the covered places (oldCov, newCov) do not explain: a residue under
// them is dropped before its strings are made (a flow with every node
// renamed has tens of thousands, each explained by its rename). distinct
// says no object of either side repeats a key: two objects whose members
// come with the same keys in the same order (nearly every object of a flow
// edited in place) are then walked member by member, without a look-up per
// key on each side nor a set of the keys seen. op, np and ident are the
// values' places (the residues' pointers and identity extend them). The
// walk and the filter it replaced, walkDiff and uncovered, are kept as
// oracles in silent_oracle_test.go.
//
// osrc and nsrc are the texts o and n were parsed from (nil: not known):
// two members' values written alike need no comparison (sameText).
func walkUncovered(o, n *compile.Node, osrc, nsrc []byte, op, np, ident string, distinct bool, oldCov, newCov covSet, out *[]residue) {
	// Two objects without repeated keys are walked member by member, which
	// compares each member once and finds nothing when they are equal: no
	// comparison of the whole first (a renamed flow's nodes and edges, the
	// members before its components, were compared twice).
	wholeFirst := !distinct || o == nil || n == nil || o.Kind != compile.Object || n.Kind != compile.Object
	if wholeFirst && o != nil && n != nil && equalNode(o, n) {
		return
	}
	w := walker{distinct: distinct, out: out, op: op, np: np, ident: ident, oldCov: oldCov, newCov: newCov, osrc: osrc, nsrc: nsrc}
	w.differing(o, n)
}

// walker is one walk of walkDiff. Its place is the root's pointers and
// identity (op, np, ident) and the steps from the root to the values being
// compared (path). The strings of a place are built only for a residue:
// the values the walk passes through on the way to a difference (the
// component of a renamed node, for one) once had theirs built each, most
// of the walk's allocations.
type walker struct {
	distinct      bool
	out           *[]residue
	op, np, ident string
	path          []step
	buf           []byte // scratch for the strings of a residue's place
	// the covered places on each side (walkUncovered; nil: none)
	oldCov, newCov covSet
	osrc, nsrc     []byte // the texts parsed (nil: not known)
}

// sameTextMin is the least span sameText compares: a shorter value is
// compared as fast by equalNode.
const sameTextMin = 64

// sameText says that a and b, the values of two members followed by
// members whose keys start at oe and ne in the texts, are written alike:
// the same bytes from each value's first byte to the next key. A value
// ends before the next key, so the two values are the same text and parse
// to the same tree (equalNode holds). False says only that they must be
// compared.
func (w *walker) sameText(a, b *compile.Node, oe, ne int) bool {
	if a == nil || b == nil || a.Kind != b.Kind || (a.Kind != compile.Object && a.Kind != compile.Array) {
		return false
	}
	l := oe - a.Offset
	if l < sameTextMin || ne-b.Offset != l || a.Offset < 0 || b.Offset < 0 || oe > len(w.osrc) || ne > len(w.nsrc) {
		return false
	}
	return bytes.Equal(w.osrc[a.Offset:oe], w.nsrc[b.Offset:ne])
}

// step is one step of the walk's path: into a member's value (its key),
// an element matched by index, or an element matched by identity.
type step struct {
	kind   stepKind
	key    string // the member's key (stepMember), the element's identity (stepKeyed)
	oi, ni int    // the element's index on each side (stepIndex, stepKeyed; -1 where absent)
}

type stepKind uint8

const (
	stepMember stepKind = iota // "/key" in the pointers (escaped) and the identity
	stepIndex                  // "/i" in the pointers and the identity
	stepKeyed                  // "/i" in the pointers, "[key]" in the identity
)

// in walks o and n (known to differ) one step down the path.
func (w *walker) in(s step, o, n *compile.Node) {
	w.path = append(w.path, s)
	w.differing(o, n)
	w.path = w.path[:len(w.path)-1]
}

// residue appends the residue of o and n (nil where absent) at the walk's
// place, with the pointer of each side present and the identity, as the
// walk that built them at each step made them (compile.Append,
// compile.AppendIndex).
func (w *walker) residue(o, n *compile.Node) {
	if len(w.path) > 0 { // under the covered places: dropped before any string is made
		if o != nil && len(w.oldCov) > 0 {
			if w.buf = w.appendPointer(w.buf[:0], w.op, true); w.oldCov.underBytes(w.buf) {
				return
			}
		}
		if n != nil && len(w.newCov) > 0 {
			if w.buf = w.appendPointer(w.buf[:0], w.np, false); w.newCov.underBytes(w.buf) {
				return
			}
		}
	}
	r := residue{oldN: o, newN: n, ident: w.ident}
	if o != nil {
		r.oldPtr = w.op
	}
	if n != nil {
		r.newPtr = w.np
	}
	if len(w.path) > 0 {
		if o != nil {
			r.oldPtr = w.pointer(w.op, true)
		}
		if n != nil {
			r.newPtr = w.pointer(w.np, false)
		}
		b := append(w.buf[:0], w.ident...)
		for _, s := range w.path {
			switch s.kind {
			case stepMember:
				b = append(b, '/')
				b = append(b, s.key...)
			case stepIndex:
				b = append(b, '/')
				b = strconv.AppendInt(b, int64(s.oi), 10)
			default:
				b = append(b, '[')
				b = append(b, s.key...)
				b = append(b, ']')
			}
		}
		w.buf = b
		r.ident = string(b)
	}
	if (w.oldCov != nil || w.newCov != nil) && explained(&r, w.oldCov, w.newCov) {
		return
	}
	*w.out = appendDoubling(*w.out, r)
}

// pointer is root extended by the path on the old side (old) or the new.
func (w *walker) pointer(root string, old bool) string {
	w.buf = w.appendPointer(w.buf[:0], root, old)
	return string(w.buf)
}

// appendPointer appends root extended by the path on the old side (old)
// or the new to b.
func (w *walker) appendPointer(b []byte, root string, old bool) []byte {
	b = append(b, root...)
	for _, s := range w.path {
		b = append(b, '/')
		switch {
		case s.kind == stepMember:
			b = append(b, compile.EscapePointerToken(s.key)...)
		case old:
			b = strconv.AppendInt(b, int64(s.oi), 10)
		default:
			b = strconv.AppendInt(b, int64(s.ni), 10)
		}
	}
	return b
}

// differing is walkDiff of two values known to differ (its callers
// compared them already: each differing value of a renamed flow was
// compared once by the walk of its parent and again here).
func (w *walker) differing(o, n *compile.Node) {
	switch {
	case o == nil && n == nil:
		return
	case o == nil || n == nil || o.Kind != n.Kind:
		w.residue(o, n)
		return
	}
	switch o.Kind {
	case compile.Object:
		if w.distinct && sameKeys(o, n) {
			for i := range o.Members {
				a, b := o.Members[i].Value, n.Members[i].Value
				if i+1 < len(o.Members) && w.sameText(a, b, o.Members[i+1].KeyOffset, n.Members[i+1].KeyOffset) || equalNode(a, b) {
					continue
				}
				w.in(step{kind: stepMember, key: o.Members[i].Key}, a, b)
			}
			return
		}
		var seen keySet
		if k := len(o.Members) + len(n.Members); k > keySetList {
			seen.m = make(map[string]bool, k)
		}
		for _, m := range o.Members {
			if !seen.add(m.Key) {
				continue
			}
			a, b := o.Get(m.Key), n.Get(m.Key)
			if b != nil && equalNode(a, b) {
				continue // equal: nothing to walk (most of a large flow)
			}
			w.in(step{kind: stepMember, key: m.Key}, a, b)
		}
		for _, m := range n.Members {
			if seen.add(m.Key) {
				w.in(step{kind: stepMember, key: m.Key}, nil, n.Get(m.Key))
			}
		}
	case compile.Array:
		w.array(o, n)
	default:
		w.residue(o, n)
	}
}

// appendDoubling is append that doubles the capacity of a full slice: a
// list that grows to tens of thousands of entries one at a time (the
// residues of a renamed flow, the places the spilled changes explain) is
// copied about twice its final size over its life instead of about five
// times (append grows a large slice by a quarter).
func appendDoubling[T any](s []T, vs ...T) []T {
	if n := len(s) + len(vs); n > cap(s) {
		grown := make([]T, len(s), max(n, 2*cap(s), 16))
		copy(grown, s)
		s = grown
	}
	return append(s, vs...)
}

// sameKeys says objects o and n have the same keys in the same order.
func sameKeys(o, n *compile.Node) bool {
	if len(o.Members) != len(n.Members) {
		return false
	}
	for i := range o.Members {
		if o.Members[i].Key != n.Members[i].Key {
			return false
		}
	}
	return true
}

// keySet is a set of object keys: a list for the few members of most
// objects (a map each was most of the walk's allocations), a map past
// keySetList of them.
type keySet struct {
	list [keySetList]string
	n    int
	m    map[string]bool
}

const keySetList = 16

// add adds k and says whether it was new.
func (s *keySet) add(k string) bool {
	if s.m != nil {
		if s.m[k] {
			return false
		}
		s.m[k] = true
		return true
	}
	for _, x := range s.list[:s.n] {
		if x == k {
			return false
		}
	}
	s.list[s.n] = k
	s.n++
	return true
}

func (w *walker) array(o, n *compile.Node) {
	// scalars: a set when neither side repeats a value
	if scalarSet(o) && scalarSet(n) {
		os, ns := map[string]bool{}, map[string]bool{}
		for _, it := range o.Items {
			os[scalarKey(it)] = true
		}
		for _, it := range n.Items {
			ns[scalarKey(it)] = true
		}
		same := len(os) == len(ns)
		for k := range os {
			same = same && ns[k]
		}
		if !same {
			w.residue(o, n)
		}
		return
	}
	oi, ni := map[string]int{}, map[string]int{}
	keyed := true
	for i, it := range o.Items {
		k := elemIdent(it)
		if k == "" || oi[k] != 0 {
			keyed = false
			break
		}
		oi[k] = i + 1
	}
	for i, it := range n.Items {
		k := elemIdent(it)
		if !keyed || k == "" || ni[k] != 0 {
			keyed = false
			break
		}
		ni[k] = i + 1
	}
	if !keyed { // by index
		for i := 0; i < len(o.Items) || i < len(n.Items); i++ {
			var a, b *compile.Node
			if i < len(o.Items) {
				a = o.Items[i]
			}
			if i < len(n.Items) {
				b = n.Items[i]
			}
			if a != nil && b != nil && equalNode(a, b) {
				continue
			}
			w.in(step{kind: stepIndex, oi: i, ni: i}, a, b)
		}
		return
	}
	keys := make([]string, 0, len(oi)+len(ni))
	for k := range oi {
		keys = append(keys, k)
	}
	for k := range ni {
		if oi[k] == 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		oi, ni := oi[k], ni[k]
		if oi > 0 && ni > 0 && equalNode(o.Items[oi-1], n.Items[ni-1]) {
			continue // equal: nothing to walk
		}
		var a, b *compile.Node
		if oi > 0 {
			a = o.Items[oi-1]
		}
		if ni > 0 {
			b = n.Items[ni-1]
		}
		w.in(step{kind: stepKeyed, key: k, oi: oi - 1, ni: ni - 1}, a, b)
	}
}

func scalarSet(n *compile.Node) bool {
	seen := map[string]bool{}
	for _, it := range n.Items {
		if it.Is(compile.Object) || it.Is(compile.Array) {
			return false
		}
		k := scalarKey(it)
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

func canonScalar(n *compile.Node) string {
	if n.Kind == compile.Bool {
		return fmt.Sprint(n.Bool)
	}
	if n.Kind == compile.Number {
		var f json.Number = json.Number(n.Text)
		if v, err := f.Float64(); err == nil {
			return fmt.Sprint(v)
		}
	}
	return n.Kind.String() + ":" + n.Text
}

// compact is a value's compact JSON.
func compact(n *compile.Node) string {
	if n == nil {
		return ""
	}
	b, err := json.Marshal(n.Interface())
	if err != nil {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

// coverage of a change: what of the documents it explains, for the
// fallback. A change at a node's pointer about one field of the node
// covers that field only; any other change covers the subtree of its
// positions' pointers.
type covered struct {
	old       bool
	file, ptr string
}

// fieldsOf are the fields under the node a node-level check is about.
var fieldsOf = map[string][]string{
	"diff_node_renamed":       {"/name"},
	"diff_node_type_changed":  {"/component_type"},
	"diff_node_moved":         {},
	"diff_model_changed":      {"/llm_config", "/data/model", "/data/provider", "/metadata/cinatra/model", "/metadata/cinatra/llm"},
	"diff_risk_lowered":       {"/metadata/cinatra/riskClass", "/metadata/cinatra/gateSteps"},
	"diff_risk_raised":        {"/metadata/cinatra/riskClass", "/metadata/cinatra/gateSteps"},
	"diff_risk_changed":       {"/metadata/cinatra/riskClass", "/metadata/cinatra/gateSteps"},
	"diff_hitl_owner_changed": {"/metadata/cinatra/hitlOwnedBy", "/metadata/cinatra/gateSteps"},
	"diff_renderer_changed":   {"/metadata/cinatra/renderer", "/metadata/cinatra/inputRenderers", "/metadata/cinatra/gateSteps"},
	"diff_surface_removed":    {"/metadata/cinatra/a2uiSurfaceId", "/metadata/cinatra/a2uiSurfaceIdOverride"},
	"diff_surface_added":      {"/metadata/cinatra/a2uiSurfaceId", "/metadata/cinatra/a2uiSurfaceIdOverride"},
	"diff_surface_changed":    {"/metadata/cinatra/a2uiSurfaceId", "/metadata/cinatra/a2uiSurfaceIdOverride"},
	"diff_approval_removed":   {"/metadata/cinatra/requiresApproval", "/metadata/cinatra/gateSteps"},
	"diff_approval_added":     {"/metadata/cinatra/requiresApproval", "/metadata/cinatra/gateSteps"},
}

// explainsNothing are the checks whose positions explain nothing of the
// files (findings, derived checks, the fallback itself).
var explainsNothing = map[string]bool{"diff_finding_introduced": true, "diff_finding_fixed": true, "diff_version_not_bumped": true,
	"diff_changed": true, "diff_side_broken": true, "diff_side_fixed": true}

// coverage lists what c explains.
func coverage(c *Change) []covered {
	if explainsNothing[c.Check] {
		return nil
	}
	out := append([]covered(nil), c.extra...)
	for _, side := range []struct {
		p   *Pos
		old bool
	}{{c.Old, true}, {c.New, false}} {
		if side.p != nil {
			out = coveredAt(out, c.Check, side.old, side.p.File, side.p.Pointer)
		}
	}
	return out
}

// coveredAt appends to out what a change of check id explains at pointer
// ptr of file on one side: the check's fields under a node it is about,
// else the pointer's subtree.
func coveredAt(out []covered, id string, old bool, file, ptr string) []covered {
	fields, ok := fieldsOf[id]
	if !ok || !isNodePointer(ptr) {
		return append(out, covered{old, file, ptr})
	}
	for _, f := range fields {
		out = append(out, covered{old, file, ptr + f})
	}
	return out
}

// isNodePointer: the pointer names a component (a node of nodes[] or of
// $referenced_components), not one of its fields.
func isNodePointer(p string) bool {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return false
	}
	parent := p[:i]
	return strings.HasSuffix(parent, "/nodes") || strings.HasSuffix(parent, "/$referenced_components") || parent == "/$referenced_components"
}
