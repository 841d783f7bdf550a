package compile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const docatSample = "{\r\n  \"a\": [1, -2.5e3, true, null, \"x\\\"y\"],\n  \"b\": {\"c\": {}, \"d\": [] , \"é𝄞\": \"😀\"},\n  \"a\": \"last\"\n}\n"

// Every value's extent parses as that value, and NodeAt at every byte of
// the document lands on the innermost value (or key) holding it.
func TestValueEndAndNodeAt(t *testing.T) {
	d := ParseDoc("x.json", []byte(docatSample))
	if d.Root == nil {
		t.Fatal(d.Err)
	}
	var all []*Node
	WalkNodes(d.Root, func(n *Node) bool { all = append(all, n); return true })
	for _, n := range all {
		end := d.ValueEnd(n)
		var v any
		if err := json.Unmarshal(d.Src[n.Offset:end], &v); err != nil {
			t.Fatalf("%s: %q does not parse: %v", PointerOf(n), d.Src[n.Offset:end], err)
		}
		if n.Kind != Object && !reflect.DeepEqual(v, n.Interface()) {
			t.Errorf("%s: extent %q is %v, want %v", PointerOf(n), d.Src[n.Offset:end], v, n.Interface())
		}
	}
	for off := 0; off < len(d.Src)+2; off++ {
		n, onKey := d.NodeAt(off)
		if n == nil {
			if off >= d.Root.Offset && off < d.ValueEnd(d.Root) {
				t.Fatalf("offset %d inside the root has no node", off)
			}
			continue
		}
		if onKey {
			s, e, ok := d.KeySpan(n)
			if !ok || off < s || off >= e {
				t.Fatalf("offset %d: key span %d-%d (%v)", off, s, e, ok)
			}
			continue
		}
		if off < n.Offset || off >= d.ValueEnd(n) {
			t.Fatalf("offset %d outside %s [%d,%d)", off, PointerOf(n), n.Offset, d.ValueEnd(n))
		}
		// no child holds it
		for _, c := range append(append([]*Node{}, n.Items...), membersOf(n)...) {
			if off >= c.Offset && off < d.ValueEnd(c) {
				t.Fatalf("offset %d: child %s holds it too", off, PointerOf(c))
			}
		}
	}
	cases := map[string]string{"/a": `"last"`, "/b/c": `{}`, "/b/d": `[]`, "/b/é𝄞": `"😀"`, "/b/missing": `{"c": {}, "d": [] , "é𝄞": "😀"}`}
	for ptr, want := range cases {
		s, e, ok := d.ValueSpan(ptr)
		if !ok || string(d.Src[s:e]) != want {
			t.Errorf("ValueSpan(%q) = %q, want %q", ptr, d.Src[s:e], want)
		}
	}
	if p, onKey, ok := d.PointerAt(d.Lookup("/b/é𝄞").Offset - 4); !ok || !onKey || p != "/b/é𝄞" {
		t.Errorf("PointerAt on the key = %q %v %v", p, onKey, ok)
	}
}

func membersOf(n *Node) []*Node {
	var out []*Node
	for _, m := range n.Members {
		out = append(out, m.Value)
	}
	return out
}

// A broken or YAML document never panics and stays within the source.
func TestValueEndFallbacks(t *testing.T) {
	d := ParseDoc("x.json", []byte("{\"a\": [1,\n"))
	if s, e, ok := d.ValueSpan("/a"); !ok || s > e || e > len(d.Src) {
		t.Errorf("unparsed: %d %d %v", s, e, ok)
	}
	if n, _ := d.NodeAt(3); n != nil {
		t.Errorf("unparsed doc has a node at 3")
	}
	y := &Doc{Path: "x.yaml", Src: []byte("a: 1\nb: [x]\n"), Root: &Node{Kind: Object, Offset: 0, Members: []Member{{Key: "a", KeyOffset: 0, Value: &Node{Kind: Number, Text: "1", Offset: 3}}}}}
	if e := y.ValueEnd(y.Root); e != 4 {
		t.Errorf("yaml root end = %d, want the line end 4", e)
	}
	// a parsed YAML document: containers end with their last child, plain keys are their text
	yd := ParseYAMLDoc("f.yaml", []byte("flow:\n  id: main\n  nodes:\n    - a\n    - b\nname: x\n"))
	if yd.Root == nil {
		t.Fatal(yd.Err)
	}
	if s, e, _ := yd.ValueSpan("/flow"); string(yd.Src[s:e]) != "id: main\n  nodes:\n    - a\n    - b" {
		t.Errorf("yaml /flow = %q", yd.Src[s:e])
	}
	if n, onKey := yd.NodeAt(strings.Index(string(yd.Src), "- b") + 2); n == nil || n.Text != "b" || onKey {
		t.Errorf("yaml NodeAt(b) = %+v %v", n, onKey)
	}
	if n, onKey := yd.NodeAt(strings.Index(string(yd.Src), "id:") + 1); n == nil || n.Text != "main" || !onKey {
		t.Errorf("yaml NodeAt(id key) = %+v %v", n, onKey)
	}
	if e := y.ValueEnd(&Node{Offset: 999}); e != len(y.Src) {
		t.Errorf("out of range end = %d", e)
	}
}
