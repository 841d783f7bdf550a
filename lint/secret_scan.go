package lint

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

var (
	RuleLiteralCredentialDetected = &Rule{Code: "literal_credential_detected", Severity: compile.Blocker, Group: "scan", Tags: []string{"security"}, Secret: true,
		Fix: "replace the literal with a {{placeholder}} or a secret reference, then rotate the credential (it is in the history)",
		Doc: "a string value holds a literal credential (provider token, private key, JWT, Bearer token, URL password, high-entropy token, or a literal under a secret-named key); use a {{placeholder}} or a secret reference"}
	RuleCredentialInDescription = &Rule{Code: "credential_in_description", Severity: compile.Warning, Group: "scan", Tags: []string{"security"}, Secret: true,
		Fix: "replace the token with an obviously fake example (sk-…EXAMPLE), and rotate it if it was real",
		Doc: "a name or description field quotes a provider-prefixed token, private key or JWT; descriptions are published, so use an obviously fake example"}
)

var passLiteralSecrets = &Check{
	Name:     "literal-secrets",
	Profiles: []compile.Profile{compile.ProfileCinatra, compile.ProfileAgentSpec},
	Run: func(p *Pass) {
		if p.Agent.Flow != nil {
			scanDocSecrets(p, p.Agent.Flow)
		}
	},
}

// scanDocSecrets walks every string of a document (nested subflows
// included) and reports literal credentials at the string's pointer.
func scanDocSecrets(p *Pass, d *compile.Doc) {
	if d == nil || d.Root == nil {
		return
	}
	w := secretWalker{report: func(ptr string, class present.KeyClass, det present.Detection, secret string) {
		r, what := RuleLiteralCredentialDetected, "literal credential detected"
		if class == present.KeyDescriptive {
			r, what = RuleCredentialInDescription, "credential in a descriptive field"
		}
		p.reportValue(d, ptr, r, secretMessage(what, ptr, det), secret)
	}}
	w.quiet = quietPool.Get().(*quietStrings)
	w.classes = classPool.Get().(*keyClasses)
	w.walk(d.Root, "", present.KeyNeutral)
	clear(w.quiet[:]) // the next document starts afresh, holding none of this one's strings
	quietPool.Put(w.quiet)
	classPool.Put(w.classes) // keys and their classes only: kept for the next document
}

func secretMessage(what, ptr string, det present.Detection) string {
	return fmt.Sprintf("%s at %s: pattern=%s, value %s", what, ptr, det.Family, det.Masked)
}

// secretWalker visits strings with the key they sit under. It keeps no
// path: a finding's JSON Pointer is built from the string's parent links
// (pointer), the few times one is reported.
type secretWalker struct {
	root *compile.Node // the node walk was called with
	// report gets the secret itself (the detected part of the string) for
	// the finding's ValueHash; it must not be kept or shown
	report func(ptr string, class present.KeyClass, det present.Detection, secret string)
	// classes caches key classes (keyClasses); nil: the walk makes its own
	classes *keyClasses
	nodes   int
	// quiet, when set, remembers strings that reported nothing
	quiet *quietStrings
}

// quietStrings remembers the strings of one document that reported
// nothing, with the key classes they were judged under: a flow names each
// node by its id again and again (its list of nodes, every edge from or to
// it, every data edge), and two thirds of the strings the scan looks at
// in the corpus repeat one before them in the same document. The detector
// is a pure function of the class and the value, so a string quiet under
// a class once is quiet there again; detections are not remembered (each
// is reported at its own pointer). A direct-mapped table: a slot keeps the
// last string hashed to it, and a collision only costs the scan.
type quietStrings [1 << quietBits]quietEntry

type quietEntry struct {
	s       string
	classes uint8 // bit c: quiet under KeyClass c
}

const quietBits = 10

// quietPool lends the tables (24 KiB each) from one document to the next.
var quietPool = sync.Pool{New: func() any { return new(quietStrings) }}

// slot is the entry of s: from its length and five of its bytes, mixed.
func (q *quietStrings) slot(s string) *quietEntry {
	n := len(s) // at least 6: shorter strings are not scanned
	h := uint32(n)*0x9E3779B1 ^ (uint32(s[0]) | uint32(s[n-1])<<8 | uint32(s[n/2])<<16 | uint32(s[n/4])<<24)
	h ^= uint32(s[n-n/4-1]) * 0x27D4EB2F
	h *= 0x85EBCA6B
	return &q[h>>(32-quietBits)]
}

// secretMaxNodes bounds the walk (the parser already bounds depth and size).
const secretMaxNodes = 1 << 22

// keyClasses caches present.ClassifyKey: keys repeat a lot in one
// document and from one document to the next (every flow has its
// component_type, name, inputs, title, …), and a small direct-mapped table
// is cheaper than a map for these short keys. ClassifyKey is a pure
// function of the key, so a table is lent from one document to the next
// (classPool) without being cleared: what it holds is keys and their
// classes, never a value, and each key is a copy of its own.
//
// Within one walk a key is found again by its address: a document's keys
// are its own interned strings, alive and unchanged while it is walked, so
// a key at the address and length the slot matched before in this walk
// (gen) holds the same bytes, and the comparison of the bytes is skipped.
// The address is kept as a number, never trusted in another walk: it pins
// nothing, and a later document's string at a reused address is compared.
type keyClasses struct {
	slots [1 << keyClassBits]struct {
		key   string
		class present.KeyClass
		ok    bool
		at    uintptr // the address of the key last matched in walk gen
		gen   uint64
	}
	gen uint64 // the walk: bumped by each walk (secretWalker.walk)
}

const keyClassBits = 9

var classPool = sync.Pool{New: func() any { return new(keyClasses) }}

func (w *secretWalker) class(key string) present.KeyClass {
	if w.classes == nil {
		w.classes = new(keyClasses)
	}
	h := uint(len(key))
	if len(key) > 0 {
		h = h*31 + uint(key[0])*7 + uint(key[len(key)-1])*131 + uint(key[len(key)/2])
	}
	e := &w.classes.slots[h&(1<<keyClassBits-1)]
	at := uintptr(unsafe.Pointer(unsafe.StringData(key)))
	if e.ok && e.at == at && e.gen == w.classes.gen && len(e.key) == len(key) {
		return e.class // the key this walk matched here before, at the same address
	}
	if e.ok && e.key == key {
		e.at, e.gen = at, w.classes.gen
		return e.class
	}
	c := present.ClassifyKey(key)
	e.key, e.class, e.ok, e.at, e.gen = strings.Clone(key), c, true, at, w.classes.gen
	return c
}

// pointer is the JSON Pointer of n below the walk's root: from n's parent
// links (compile.PointerOf) when they lead to the root, as they do in
// every parsed document; else (a tree built by hand, without links) found
// by a search from the root.
func (w *secretWalker) pointer(n *compile.Node) string {
	top := n
	for top.Parent() != nil {
		top = top.Parent()
	}
	if top == w.root {
		return compile.PointerOf(n)
	}
	var path []string
	if pointerSearch(w.root, n, &path) {
		return compile.Pointer(path...)
	}
	return ""
}

// pointerSearch extends path with the tokens from at to n; false when n
// is not below at.
func pointerSearch(at, n *compile.Node, path *[]string) bool {
	if at == n {
		return true
	}
	if at == nil {
		return false
	}
	for _, m := range at.Members {
		*path = append(*path, m.Key)
		if pointerSearch(m.Value, n, path) {
			return true
		}
		*path = (*path)[:len(*path)-1]
	}
	for i, it := range at.Items {
		*path = append(*path, strconv.Itoa(i))
		if pointerSearch(it, n, path) {
			return true
		}
		*path = (*path)[:len(*path)-1]
	}
	return false
}

// walk visits n, the root of the walk, under key class kc. The key is
// not read: a key matters only through its class.
func (w *secretWalker) walk(n *compile.Node, key string, kc present.KeyClass) {
	w.root = n
	if w.classes != nil {
		w.classes.gen++ // a new walk: no address matched before is trusted
	}
	w.visit(n, kc)
}

// visit visits n whose own key has class kc (array items inherit it).
func (w *secretWalker) visit(n *compile.Node, kc present.KeyClass) {
	if n == nil {
		return
	}
	w.nodes++
	if w.nodes > secretMaxNodes {
		return
	}
	switch n.Kind {
	case compile.String:
		w.str(n, kc)
	case compile.Object:
		w.object(n)
	case compile.Array:
		for _, it := range n.Items {
			w.visit(it, kc)
		}
	}
}

// object visits the members of object n. The class of a key matters only
// for a string under it or the strings of an array under it: objects
// bring their own keys, and numbers, booleans, null and short strings are
// not scanned. A string member is judged here (the node count as visit
// keeps it), without a call to visit.
func (w *secretWalker) object(n *compile.Node) {
	// name/value pairs: {"name": "Authorization", "value": "Bearer …"}:
	// the label's class, read at the first value or default member
	// holding a string or an array (most objects have none)
	pairClass, paired := present.KeyClass(255), false
	for _, m := range n.Members {
		v := m.Value
		if v == nil {
			continue
		}
		switch v.Kind {
		case compile.String:
			if len(v.Text) < 6 {
				continue // nothing that short is reported under any key
			}
		case compile.Array:
			// the class is read at the first string to judge (most
			// arrays hold objects)
			w.nodes++
			if w.nodes <= secretMaxNodes {
				lz := lazyClass{key: m.Key, obj: n}
				w.array(v, &lz)
			}
			continue
		case compile.Object:
			w.nodes++
			if w.nodes <= secretMaxNodes {
				w.object(v)
			}
			continue
		default:
			continue // numbers, booleans, null
		}
		c := w.class(m.Key)
		if m.Key == "value" || m.Key == "default" {
			if !paired {
				pairClass, paired = w.pairClass(n), true
			}
			if pairClass != 255 {
				c = pairClass
			}
		}
		w.nodes++
		if w.nodes <= secretMaxNodes {
			w.str(v, c)
		}
	}
}

// lazyClass is the class of an array's key, read when first needed: the
// key's class, or the pair label's (pairClass) for a value or default
// member.
type lazyClass struct {
	key string
	obj *compile.Node // the object the key is in
	c   present.KeyClass
	ok  bool
}

func (w *secretWalker) lazy(lz *lazyClass) present.KeyClass {
	if !lz.ok {
		lz.c, lz.ok = w.class(lz.key), true
		if lz.key == "value" || lz.key == "default" {
			if pc := w.pairClass(lz.obj); pc != 255 {
				lz.c = pc
			}
		}
	}
	return lz.c
}

// array visits the items of array n, whose key's class is lz's (visit
// with the class read when an item needs it).
func (w *secretWalker) array(n *compile.Node, lz *lazyClass) {
	for _, it := range n.Items {
		if it == nil {
			continue
		}
		w.nodes++
		if w.nodes > secretMaxNodes {
			return
		}
		switch it.Kind {
		case compile.String:
			if len(it.Text) >= 6 {
				w.str(it, w.lazy(lz))
			}
		case compile.Object:
			w.object(it)
		case compile.Array:
			w.array(it, lz)
		}
	}
}

// str judges string n under key class kc.
func (w *secretWalker) str(n *compile.Node, kc present.KeyClass) {
	if len(n.Text) < 6 {
		return // nothing that short is reported under any key
	}
	if w.quiet != nil && kc < 8 {
		e := w.quiet.slot(n.Text)
		if e.s == n.Text && e.classes&(1<<kc) != 0 {
			return // this string was quiet under this class before
		}
		det, ok := present.DetectIn(kc, n.Text)
		if !ok || kc == present.KeyDescriptive && !det.Strong {
			if e.s != n.Text {
				e.s, e.classes = n.Text, 0
			}
			e.classes |= 1 << kc
			return
		}
		w.report(w.pointer(n), kc, det, secretOf(n.Text, det))
		return
	}
	det, ok := present.DetectIn(kc, n.Text)
	if !ok {
		return
	}
	if kc == present.KeyDescriptive && !det.Strong {
		return
	}
	w.report(w.pointer(n), kc, det, secretOf(n.Text, det))
}

// pairClass is the class of object n's label (its last name, key, header,
// field or param member holding a string) when that is KeySecret or above
// and n has a value or default member: the class its value and default
// take. 255 when there is none.
func (w *secretWalker) pairClass(n *compile.Node) present.KeyClass {
	var label *compile.Node
	hasValue := false
	for _, m := range n.Members {
		switch m.Key {
		case "value", "default":
			hasValue = true
		case "name", "key", "header", "field", "param":
			if m.Value != nil && m.Value.Kind == compile.String {
				label = m.Value
			}
		}
	}
	if hasValue && label != nil && label.Text != "" && len(label.Text) < 128 {
		if c := w.class(label.Text); c >= present.KeySecret {
			return c
		}
	}
	return 255
}

// secretOf is the detected secret inside value v (the whole value when the
// detection's span is not usable).
func secretOf(v string, det present.Detection) string {
	if det.Start >= 0 && det.Start < det.End && det.End <= len(v) {
		return v[det.Start:det.End]
	}
	return v
}
