package diff

import (
	"math/rand"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// TestNoDescriptionsComparesNothing: a pair noDescriptions passes over is
// one whose two descriptions (the node's, and metadata.cinatra's) are
// alike on both sides as descriptions reads them (StringOr ""), so the
// walk it skips added no change; on random components with and without
// each member, of every kind.
func TestNoDescriptionsComparesNothing(t *testing.T) {
	vals := []string{`"a"`, `"b"`, `""`, `null`, `1`, `{}`, `{"cinatra":{"description":"g"}}`, `{"cinatra":{"description":"h"}}`, `{"cinatra":{}}`}
	r := rand.New(rand.NewSource(16))
	skipped, differ := 0, 0
	comp := func() *compile.Node {
		src := `{"component_type":"ApiNode","name":"N"`
		if r.Intn(3) == 0 {
			src += `,"description":` + vals[r.Intn(len(vals))]
		}
		if r.Intn(3) == 0 {
			src += `,"metadata":` + vals[r.Intn(len(vals))]
		}
		return compile.ParseDoc("c.json", []byte(src+"}")).Root
	}
	for c := 0; c < 8000/race.Stride(8); c++ {
		oc, nc := comp(), comp()
		p := &nodePair{oc: oc, nc: nc, of: membersOf(oc), nf: membersOf(nc)}
		// what descriptions compares, as its loop reads it
		differs := p.of.description.StringOr("") != p.nf.description.StringOr("") ||
			p.of.metadata.Path("cinatra", "description").StringOr("") != p.nf.metadata.Path("cinatra", "description").StringOr("")
		if differs {
			differ++
		}
		if noDescriptions(p) {
			skipped++
			if differs {
				t.Fatalf("case %d: a pair with a description changed passed over: %+v %+v", c, p.of, p.nf)
			}
		}
	}
	if skipped < 100 || differ < 100 {
		t.Fatalf("%d pairs passed over, %d differing: the test hardly tells", skipped, differ)
	}
}
