package diff

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestEqualNodeKeys: objects are equal when every key holds equal values as
// JSON.parse leaves them (the last of a repeated key wins), whatever the
// members' order; a repeated key's earlier, shadowed values do not count.
func TestEqualNodeKeys(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":{"c":[1,2]}}`, `{"a":1,"b":{"c":[1,2]}}`, true},
		{`{"a":1,"b":{"c":[1,2]}}`, `{"a":1,"b":{"c":[1,3]}}`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},             // another order
		{`{"a":1,"b":2}`, `{"b":2,"a":3}`, false},            // another order, a value changed
		{`{"a":1,"a":2}`, `{"a":3,"a":2}`, true},             // the shadowed value differs
		{`{"a":1,"a":2}`, `{"a":1,"a":3}`, false},            // the kept value differs
		{`{"a":1,"b":5,"a":2}`, `{"a":9,"b":5,"a":2}`, true}, // shadowed, apart
		{`{"a":1,"b":5,"a":2}`, `{"a":1,"b":6,"a":2}`, false},
		{`{"a":1,"a":2}`, `{"a":2,"b":2}`, true}, // as many members: only the first side's keys are asked (as before)
		{`{"a":1,"b":2}`, `{"a":1,"c":2}`, false},
	} {
		a, b := compile.ParseDoc("a.json", []byte(c.a)).Root, compile.ParseDoc("b.json", []byte(c.b)).Root
		if a == nil || b == nil {
			t.Fatalf("%s or %s did not parse", c.a, c.b)
		}
		if got := equalNode(a, b); got != c.want {
			t.Errorf("equalNode(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := equalMembers(a, b); got != c.want {
			t.Errorf("equalMembers(%s, %s) = %v, want %v (the look-up per key)", c.a, c.b, got, c.want)
		}
	}
}

// TestWalkDiffSameKeys: the fallback walk finds the same differences, in the
// same order, whether it pairs the members of two objects with the same
// keys in the same order by their place (distinct: no object of either file
// repeats a key) or looks each key up on both sides, on random pairs of
// documents edited in place (values changed, members added, removed and
// reordered, arrays of scalars and of objects with ids, nested objects
// past the key set's list size).
// randomDocPair makes two documents of a random JSON value, the second
// edited (values changed, members added and removed, objects written in
// another key order now and then), from rng.
func randomDocPair(t *testing.T, rng *rand.Rand) (o, n *compile.Doc) {
	t.Helper()
	var value func(depth int) any
	value = func(depth int) any {
		switch k := rng.IntN(8); {
		case depth > 3 || k < 3:
			return []any{rng.IntN(3), "s" + strconv.Itoa(rng.IntN(3)), true, nil}[rng.IntN(4)]
		case k < 6:
			m, size := map[string]any{}, 5
			if depth == 0 {
				size = 20 // past the key set's list
			}
			for i := range rng.IntN(size) {
				m["k"+strconv.Itoa(i)] = value(depth + 1)
			}
			return m
		default:
			var l []any
			for i := range rng.IntN(4) {
				if rng.IntN(2) == 0 {
					l = append(l, map[string]any{"id": "e" + strconv.Itoa(i), "v": value(depth + 1)})
				} else {
					l = append(l, rng.IntN(5))
				}
			}
			return l
		}
	}
	// edit changes a value, adds or removes a member of a few objects
	var edit func(v any) any
	edit = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				if rng.IntN(10) > 0 {
					out[k] = edit(e)
				}
			}
			if rng.IntN(5) == 0 {
				out["new"+strconv.Itoa(rng.IntN(3))] = value(3)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = edit(e)
			}
			return out
		}
		if rng.IntN(6) == 0 {
			return value(3)
		}
		return v
	}
	// doc writes v as JSON, the members of each object in key order or, now
	// and then, reversed
	var write func(b *strings.Builder, v any)
	write = func(b *strings.Builder, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := slices.Sorted(maps.Keys(x))
			if rng.IntN(8) == 0 {
				slices.Reverse(keys)
			}
			b.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(b, "%q:", k)
				write(b, x[k])
			}
			b.WriteByte('}')
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(',')
				}
				write(b, e)
			}
			b.WriteByte(']')
		default:
			j, _ := json.Marshal(x)
			b.Write(j)
		}
	}
	doc := func(v any) *compile.Doc {
		var b strings.Builder
		write(&b, v)
		d := compile.ParseDoc("f.json", []byte(b.String()))
		if d.Root == nil || len(d.Duplicates) > 0 {
			t.Fatalf("%s: %v, %d repeated keys", b.String(), d.Err, len(d.Duplicates))
		}
		return d
	}
	v := map[string]any{"a": value(0), "b": value(1), "c": value(1)}
	return doc(v), doc(edit(v))
}

func TestWalkDiffSameKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 12))
	found := 0
	for range 100 {
		o, n := randomDocPair(t, rng)
		var byPlace, byKey []residue
		walkDiff(o.Root, n.Root, "", "", "", true, &byPlace)
		walkDiff(o.Root, n.Root, "", "", "", false, &byKey)
		if !reflect.DeepEqual(byPlace, byKey) {
			t.Fatalf("by place %d residues, by key %d:\n%+v\n%+v", len(byPlace), len(byKey), byPlace, byKey)
		}
		found += len(byKey)
	}
	if found == 0 {
		t.Fatal("no pair differed")
	}
}
