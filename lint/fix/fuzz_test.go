package fix

import (
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// FuzzEdits applies every kind of edit at a node chosen by pick to any
// document that parses: the result must parse again, and Remove must give
// a container one child shorter. The seeds run in the normal test run.
func FuzzEdits(f *testing.F) {
	for _, s := range []string{
		"{\n  \"a\": 1,\n  \"o\": {\n    \"x\": [1, 2]\n  },\n  \"e\": {}\n}\n",
		"{\r\n\t\"a\": [\r\n\t\t\"p\"\r\n\t],\r\n\t\"b\": {}\r\n}",
		`{"a":{"b":{"c":[]}},"d":"\"}{"}`,
		`[{"k": "v"}, [], {}, "s\\"]`,
		"{ \"a\" : 1 , \"b\" : [ 1 , 2 ] }",
		"{}",
	} {
		for op := range byte(5) {
			f.Add([]byte(s), op, uint16(1))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, op byte, pick uint16) {
		d := compile.ParseDoc("f.json", src)
		if d.Err != nil {
			return
		}
		var nodes []*compile.Node
		compile.WalkNodes(d.Root, func(n *compile.Node) bool { nodes = append(nodes, n); return true })
		n := nodes[int(pick)%len(nodes)]
		ptr := compile.PointerOf(n)
		var e edit.Edit
		var err error
		switch op % 5 {
		case 0:
			e, err = Replace(d, ptr, map[string]any{"k": []any{"v", 1.5, nil}})
		case 1:
			e, err = Insert(d, ptr, "new\"key", Raw(`{"x": [1, {"y": "z"}]}`))
		case 2:
			e, err = Append(d, ptr, "a", map[string]int{"b": 1})
		case 3:
			e, err = Remove(d, ptr)
		case 4:
			e, err = RenameKey(d, ptr, "renamed")
		}
		if err != nil {
			return // not applicable at this node
		}
		out, err := edit.Apply(d.Src, []edit.Edit{e})
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		root, err := compile.Parse(out)
		if err != nil {
			t.Fatalf("op %d at %q: the result does not parse: %v\n%s", op%5, ptr, err, out)
		}
		if op%5 == 3 {
			p := n.Parent()
			q := root
			if pp := compile.PointerOf(p); pp != "" {
				q = (&compile.Doc{Path: "f.json", Src: out, Root: root}).Lookup(pp)
			}
			if q == nil || len(q.Members)+len(q.Items) != len(p.Members)+len(p.Items)-1 {
				t.Fatalf("remove %q: the parent did not lose exactly one child\n%s", ptr, out)
			}
		}
	})
}
