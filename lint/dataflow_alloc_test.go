package lint

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// TestSchemaMembersIn: schemaMembersIn gives schemaMembers' list (the same
// schemas, the same synthetic members) for schemas with and without type,
// a type list, anyOf, both, non-objects and past the depth bound.
func TestSchemaMembersIn(t *testing.T) {
	parts := []string{`"type": "string"`, `"type": ["string", "integer"]`, `"type": []`, `"type": [1, "number"]`, `"type": null`,
		`"anyOf": [{"type": "string"}, {"type": ["array", "object"]}, 3]`, `"anyOf": []`, `"anyOf": {"type": "string"}`, `"title": "x"`}
	r := rand.New(rand.NewSource(39))
	srcs := []string{`"s"`, `1`, `null`, `[]`, `{}`}
	for i := 0; i < 2000; i++ {
		src := "{"
		for j, n := 0, r.Intn(4); j < n; j++ {
			if j > 0 {
				src += ","
			}
			src += parts[r.Intn(len(parts))]
		}
		srcs = append(srcs, src+"}")
	}
	for _, src := range srcs {
		d := compile.ParseDoc("s.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("%s: %v", src, d.Err)
		}
		for _, depth := range []int{0, 16, 17} {
			var buf [1]*compile.Node
			got, want := schemaMembersIn(d.Root, depth, &buf), schemaMembers(d.Root, depth)
			if !slices.EqualFunc(got, want, sameSchema) {
				t.Fatalf("%s at depth %d: %s, want %s", src, depth, schemaList(got), schemaList(want))
			}
		}
	}
}

// sameSchema: the same node, or synthetic members of the same members.
func sameSchema(a, b *compile.Node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Offset != b.Offset || len(a.Members) != len(b.Members) {
		return false
	}
	for i := range a.Members {
		x, y := a.Members[i], b.Members[i]
		if x.Key != y.Key || x.Value != y.Value && (x.Value.Kind != y.Value.Kind || x.Value.Text != y.Value.Text) {
			return false
		}
	}
	return true
}

func schemaList(l []*compile.Node) string {
	s := ""
	for _, n := range l {
		if n == nil {
			s += " nil"
			continue
		}
		s += fmt.Sprintf(" %d:%d", n.Offset, len(n.Members))
	}
	return s
}

// TestPortIndexGet: get reads each node's ports once and gives them back
// for that node, by the scan under portIndexMapFrom nodes and by the map
// from there, in any order of asking, with the pointer good until the
// next get of another node.
func TestPortIndexGet(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	for round := 0; round < 50; round++ {
		nodes := make([]compile.FlowNode, 1+r.Intn(3*portIndexMapFrom))
		lists := map[*compile.FlowNode][]*compile.Node{}
		reads := map[*compile.FlowNode]int{}
		for i := range nodes {
			lists[&nodes[i]] = make([]*compile.Node, r.Intn(3))
		}
		x := portIndex{of: func(n *compile.FlowNode) ([]*compile.Node, bool) {
			reads[n]++
			return lists[n], len(lists[n]) != 1
		}}
		if r.Intn(2) == 0 {
			x.all, x.keys = make([]ports, 0, len(nodes)), make([]*compile.FlowNode, 0, len(nodes))
		}
		for k := 0; k < 4*len(nodes); k++ {
			n := &nodes[r.Intn(len(nodes))]
			ps := x.get(n)
			if len(ps.list) != len(lists[n]) || len(ps.list) > 0 && &ps.list[0] != &lists[n][0] || ps.ok != (len(lists[n]) != 1) {
				t.Fatalf("round %d: node %p: ports of another node", round, n)
			}
			if reads[n] != 1 {
				t.Fatalf("round %d: node %p read %d times", round, n, reads[n])
			}
		}
	}
}

// valEntriesRef is valEntries as it was before its repeated-key look went
// by signatures (a pairwise scan up to 8 members, a map above): the oracle
// of TestValEntriesSameAsMap.
func valEntriesRef(n *compile.Node) []compile.Member {
	if n == nil || n.Kind != compile.Object {
		return nil
	}
	ms := n.Members
	seen := make(map[string]struct{}, len(ms))
	dup := false
	for _, m := range ms {
		if _, ok := seen[m.Key]; ok {
			dup = true
			break
		}
		seen[m.Key] = struct{}{}
	}
	if !dup {
		return ms
	}
	pos := make(map[string]int, len(ms))
	out := make([]compile.Member, 0, len(ms))
	for _, m := range ms {
		if i, ok := pos[m.Key]; ok {
			out[i].Value = m.Value
			continue
		}
		pos[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// TestValEntriesSameAsMap: valEntries gives the oracle's entries (and the
// members themselves when no key repeats) for objects of 0 to 100 members,
// keys unique or repeated, sharing signatures or not, on both sides of
// valEntriesScanMax.
func TestValEntriesSameAsMap(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	for i := 0; i < 3000/race.Stride(8); i++ {
		n := &compile.Node{Kind: compile.Object}
		size := r.Intn(101)
		alphabet := 1 + r.Intn(4*size+2)
		for j := 0; j < size; j++ {
			k := fmt.Sprintf("k%d", r.Intn(alphabet))
			if r.Intn(3) == 0 {
				k = fmt.Sprintf("%c%dx", 'a'+r.Intn(3), r.Intn(alphabet)) // same first and last bytes: shared signatures
			}
			n.Members = append(n.Members, compile.Member{Key: k, Value: &compile.Node{Kind: compile.Number, Text: fmt.Sprint(j)}})
		}
		got, want := valEntries(n), valEntriesRef(n)
		if !slices.EqualFunc(got, want, func(a, b compile.Member) bool { return a.Key == b.Key && a.Value == b.Value }) {
			t.Fatalf("object %d (%d members): entries differ", i, size)
		}
		if len(want) == len(n.Members) && len(n.Members) > 0 && &got[0] != &n.Members[0] {
			t.Fatalf("object %d: no repeated key, but a copy", i)
		}
	}
	if valEntries(nil) != nil || valEntries(&compile.Node{Kind: compile.Array}) != nil {
		t.Error("entries of a non-object")
	}
}
