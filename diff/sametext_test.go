package diff

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// TestSameTextWalkAsCompared: the walk given the texts (members' values
// written alike are not compared) leaves the residues the walk without
// them leaves, on random document pairs, pretty and minified renamed
// flows (large equal arrays beside large different ones), flows whose
// equal values are written with other spacing or whose next member
// differs, and every pair of consecutive history revisions.
func TestSameTextWalkAsCompared(t *testing.T) {
	same := func(t *testing.T, name string, o, n *compile.Doc) int {
		t.Helper()
		if o.Root == nil || n.Root == nil {
			return 0
		}
		skipped := 0
		for _, distinct := range []bool{true, false} {
			var got, want []residue
			walkUncovered(o.Root, n.Root, o.Src, n.Src, "", "", "", distinct, nil, nil, &got)
			walkUncovered(o.Root, n.Root, nil, nil, "", "", "", distinct, nil, nil, &want)
			if len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, distinct %v: %d residues, compared %d:\n%+v\n%+v", name, distinct, len(got), len(want), got, want)
			}
		}
		w := walker{osrc: o.Src, nsrc: n.Src}
		if o.Root.Kind == compile.Object && n.Root.Kind == compile.Object && sameKeys(o.Root, n.Root) {
			for i := 0; i+1 < len(o.Root.Members); i++ {
				if w.sameText(o.Root.Members[i].Value, n.Root.Members[i].Value, o.Root.Members[i+1].KeyOffset, n.Root.Members[i+1].KeyOffset) {
					skipped++
				}
			}
		}
		return skipped
	}
	rng := rand.New(rand.NewPCG(16, 16))
	for i := 0; i < 400/race.Stride(8); i++ {
		o, n := randomDocPair(t, rng)
		same(t, fmt.Sprint("random ", i), o, n)
	}
	skipped := 0
	for _, size := range []int{50, 400} {
		old := hostile.Flow(size, true)
		renamed := bytes.ReplaceAll(old, []byte(`"name":"Step `), []byte(`"name":"Renamed step `))
		skipped += same(t, "renamed", compile.ParseDoc("a.json", old), compile.ParseDoc("b.json", renamed))
		po, err := hostile.Pretty(old)
		if err != nil {
			t.Fatal(err)
		}
		pn, err := hostile.Pretty(renamed)
		if err != nil {
			t.Fatal(err)
		}
		skipped += same(t, "renamed, pretty", compile.ParseDoc("a.json", po), compile.ParseDoc("b.json", pn))
		// equal values written with other spacing: compared, not skipped
		same(t, "spacing", compile.ParseDoc("a.json", old), compile.ParseDoc("b.json", pn))
		// an edge renamed: the edges differ in one place
		edge := bytes.Replace(old, []byte(`"name":"c1"`), []byte(`"name":"c1x"`), 1)
		same(t, "an edge renamed", compile.ParseDoc("a.json", old), compile.ParseDoc("b.json", edge))
	}
	if skipped < 4 {
		t.Fatalf("only %d values written alike skipped: the fast path is not exercised", skipped)
	}
	t.Run("history", func(t *testing.T) {
		// the history needs ../shared (skipped without it)
		revs := testshared.HistoryFlows(t)
		var prev *compile.Doc
		for i, f := range revs {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			d := compile.ParseDoc(f, b)
			if prev != nil && i%race.Stride(8) == 0 && filepath.Dir(filepath.Dir(filepath.Dir(prev.Path))) == filepath.Dir(filepath.Dir(filepath.Dir(f))) {
				same(t, f, prev, d)
			}
			prev = d
		}
	})
}
