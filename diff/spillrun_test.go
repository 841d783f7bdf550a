package diff

import (
	"maps"
	"math/rand"
	"testing"
)

// oldSpill is spill's count before the run of one key was kept aside
// (pendKey, pendN): a look-up in raised and spilled per change.
func oldSpill(raised, spilled map[spillKey]int, m int, k spillKey) bool {
	if raised[k] < m {
		raised[k]++
		return false
	}
	spilled[k]++
	return true
}

// TestSpillRunAsMaps: spill raises and counts as the old maps did, in runs
// of one check and in mixes of checks and levels, with the counts read
// (spilledAt) and re-levelled (spilledLevels) between spills.
func TestSpillRunAsMaps(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	checks := []*Check{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	levels := []Level{Breaking, Warn, Info}
	for c := 0; c < 500; c++ {
		m := 1 + r.Intn(4)
		d := &differ{opts: Options{MaxChanges: m}}
		raised, spilled := map[spillKey]int{}, map[spillKey]int{}
		for i := 0; i < r.Intn(200); i++ {
			ck, lvl := checks[r.Intn(len(checks))], levels[r.Intn(len(levels))]
			if r.Intn(4) > 0 && i > 0 { // runs: the same key again
				ck, lvl = checks[0], Warn
			}
			k := spillKey{ck.ID, lvl}
			if got, want := d.spill(ck, lvl), oldSpill(raised, spilled, m, k); got != want {
				t.Fatalf("case %d, change %d: spill %v, want %v", c, i, got, want)
			}
			switch r.Intn(20) {
			case 0:
				n := 0
				for _, v := range spilled {
					n += v
				}
				if got := d.spilledAt(""); got != n {
					t.Fatalf("case %d, change %d: spilledAt %d, want %d", c, i, got, n)
				}
			case 1: // re-levelled: the old maps alike
				over := map[string]string{"a": "info"}
				d.spilledLevels(over)
				out := map[spillKey]int{}
				for k, n := range spilled {
					if k.check == "a" {
						k.level = Info
					}
					out[k] += n
				}
				spilled = out
			}
		}
		d.flushSpill()
		if len(d.spilled) != len(spilled) && !(len(spilled) == 0) || !maps.Equal(d.spilled, spilled) && len(spilled) > 0 {
			t.Fatalf("case %d: spilled %v, want %v", c, d.spilled, spilled)
		}
		if !maps.Equal(d.raised, raised) && len(raised) > 0 {
			t.Fatalf("case %d: raised %v, want %v", c, d.raised, raised)
		}
	}
}
