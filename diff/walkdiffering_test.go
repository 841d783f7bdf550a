package diff

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestWalkDifferingSameAsBefore: walkDiff, which hands the values it found
// different to walkDiffering without comparing them again, finds the
// residues the walk that compared each value again found (walkDiffBefore,
// the walk as it was), by place and by key, on random documents and their
// edits; and none of a document with itself.
func TestWalkDifferingSameAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 13))
	found := 0
	for range 300 {
		o, n := randomDocPair(t, rng)
		for _, distinct := range []bool{true, false} {
			var got, want []residue
			walkDiff(o.Root, n.Root, "", "", "", distinct, &got)
			walkDiffBefore(o.Root, n.Root, "", "", "", distinct, &want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("distinct %v: %d residues, before %d:\n%+v\n%+v", distinct, len(got), len(want), got, want)
			}
			found += len(got)
			// a document with itself: nothing (the walk of two objects
			// skips the comparison of the whole)
			var self []residue
			walkDiff(n.Root, n.Root, "", "", "", distinct, &self)
			if len(self) > 0 {
				t.Fatalf("distinct %v: %d residues of a document with itself: %+v", distinct, len(self), self)
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d residues: the pairs hardly differ", found)
	}
}

// walkDiffBefore and walkArrayBefore are walkDiff and walkArray as they
// were: each value compared again by the walk of it (the oracle).
func walkDiffBefore(o, n *compile.Node, op, np, ident string, distinct bool, out *[]residue) {
	if o != nil && n != nil && equalNode(o, n) {
		return
	}
	switch {
	case o == nil && n == nil:
		return
	case o == nil:
		*out = appendDoubling(*out, residue{newPtr: np, newN: n, ident: ident})
		return
	case n == nil:
		*out = appendDoubling(*out, residue{oldPtr: op, oldN: o, ident: ident})
		return
	}
	if o.Kind != n.Kind {
		*out = appendDoubling(*out, residue{oldPtr: op, newPtr: np, oldN: o, newN: n, ident: ident})
		return
	}
	switch o.Kind {
	case compile.Object:
		if distinct && sameKeys(o, n) {
			for i := range o.Members {
				a, b := o.Members[i].Value, n.Members[i].Value
				if equalNode(a, b) {
					continue
				}
				k := o.Members[i].Key
				walkDiffBefore(a, b, compile.Append(op, k), compile.Append(np, k), ident+"/"+k, distinct, out)
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
				continue // equal: no pointers to build (most of a large flow)
			}
			walkDiffBefore(a, b, compile.Append(op, m.Key), compile.Append(np, m.Key), ident+"/"+m.Key, distinct, out)
		}
		for _, m := range n.Members {
			if seen.add(m.Key) {
				walkDiffBefore(nil, n.Get(m.Key), "", compile.Append(np, m.Key), ident+"/"+m.Key, distinct, out)
			}
		}
	case compile.Array:
		walkArrayBefore(o, n, op, np, ident, distinct, out)
	default:
		if equalNode(o, n) {
			return
		}
		*out = appendDoubling(*out, residue{oldPtr: op, newPtr: np, oldN: o, newN: n, ident: ident})
	}
}

func walkArrayBefore(o, n *compile.Node, op, np, ident string, distinct bool, out *[]residue) {
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
			*out = appendDoubling(*out, residue{oldPtr: op, newPtr: np, oldN: o, newN: n, ident: ident})
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
			ap, bp := "", ""
			if i < len(o.Items) {
				a, ap = o.Items[i], compile.AppendIndex(op, i)
			}
			if i < len(n.Items) {
				b, bp = n.Items[i], compile.AppendIndex(np, i)
			}
			if a != nil && b != nil && equalNode(a, b) {
				continue
			}
			walkDiffBefore(a, b, ap, bp, fmt.Sprintf("%s/%d", ident, i), distinct, out)
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
			continue // equal: no pointers to build
		}
		var a, b *compile.Node
		ap, bp := "", ""
		if oi > 0 {
			a, ap = o.Items[oi-1], compile.AppendIndex(op, oi-1)
		}
		if ni > 0 {
			b, bp = n.Items[ni-1], compile.AppendIndex(np, ni-1)
		}
		walkDiffBefore(a, b, ap, bp, ident+"["+k+"]", distinct, out)
	}
}

// TestWalkDiffPlaces: the walk, which builds a residue's pointers and
// identity only for the residue (from its path), names each residue as the
// walk that built them at each step did (walkDiffBefore): keys a pointer
// escapes ("/", "~"), elements matched by index and by identity, members
// one side lacks, values deep in the document, and a walk begun below the
// root.
func TestWalkDiffPlaces(t *testing.T) {
	o := compile.ParseDoc("o.json", []byte(`{"a/b": {"~c": [1, {"x": 1}, 3], "k": {"deep": {"er": {"still": 1}}}},
		"list": [{"id": "p/q", "v": 1, "w": [true]}, {"id": "r~", "v": {"z": 1}}, {"id": "gone"}],
		"only old": {"q": 1}, "same": [1, 2], "set": [1, 2, 3], "kind": 1, "idx": [[1, [2, 3]], {"m": 1}]}`))
	n := compile.ParseDoc("n.json", []byte(`{"a/b": {"~c": [1, {"x": 2}, 3, 4], "k": {"deep": {"er": {"still": 2}}}},
		"list": [{"id": "new"}, {"id": "r~", "v": {"z": 2}}, {"id": "p/q", "v": 2, "w": [false]}],
		"same": [1, 2], "set": [3, 1], "kind": "1", "idx": [[1, [2, 4]], {"m": 2}], "only new": {"q": [1]}}`))
	for _, d := range []*compile.Doc{o, n} {
		if d.Root == nil {
			t.Fatal(d.Err)
		}
	}
	for _, root := range [][3]string{{"", "", ""}, {"/x~1y", "/z", "/ident"}} {
		for _, distinct := range []bool{true, false} {
			var got, want []residue
			walkDiff(o.Root, n.Root, root[0], root[1], root[2], distinct, &got)
			walkDiffBefore(o.Root, n.Root, root[0], root[1], root[2], distinct, &want)
			if len(want) < 12 {
				t.Fatalf("only %d residues: the documents hardly differ", len(want))
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("root %q, distinct %v:\n got %+v\nwant %+v", root, distinct, got, want)
			}
		}
	}
}

// TestWalkUncoveredSameAsBefore: the walk that drops the residues the
// covered places explain as it finds them (walkUncovered) keeps what
// uncovered keeps of the whole walk's residues, in order, on random
// documents and their edits with covered places drawn from the residues:
// their own pointers, prefixes of them, and each member of a value one
// side lacks (explained as a whole).
func TestWalkUncoveredSameAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 14))
	kept, dropped := 0, 0
	for range 300 {
		o, n := randomDocPair(t, rng)
		for _, distinct := range []bool{true, false} {
			var all []residue
			walkDiff(o.Root, n.Root, "", "", "", distinct, &all)
			var oc, nc []string
			for _, r := range all {
				for _, side := range []struct {
					p    string
					v    *compile.Node
					list *[]string
				}{{r.oldPtr, r.oldN, &oc}, {r.newPtr, r.newN, &nc}} {
					if side.p == "" {
						continue
					}
					switch rng.IntN(5) {
					case 0:
						*side.list = append(*side.list, side.p)
					case 1:
						if i := strings.LastIndex(side.p, "/"); i > 0 {
							*side.list = append(*side.list, side.p[:i])
						}
					case 2:
						if side.v != nil {
							for _, m := range side.v.Members {
								*side.list = append(*side.list, compile.Append(side.p, m.Key))
							}
							for i := range side.v.Items {
								*side.list = append(*side.list, compile.AppendIndex(side.p, i))
							}
						}
					}
				}
			}
			want := uncovered(all, oc, nc)
			var got []residue
			walkUncovered(o.Root, n.Root, nil, nil, "", "", "", distinct, newCovSet(oc), newCovSet(nc), &got)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("distinct %v: %d residues, uncovered %d:\n%+v\n%+v", distinct, len(got), len(want), got, want)
			}
			kept += len(want)
			dropped += len(all) - len(want)
		}
	}
	if kept < 100 || dropped < 100 {
		t.Fatalf("%d residues kept, %d dropped: the test hardly tells the two walks apart", kept, dropped)
	}
}
