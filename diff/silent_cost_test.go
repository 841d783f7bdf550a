package diff

import (
	"slices"
	"strings"
	"testing"
)

// TestUncoveredPrefixes: a residue is explained by a covered pointer equal
// to its own or a prefix of it ending before a "/" (never by a prefix that
// ends inside a key, nor by the empty pointer), on the side it has; the
// look-up by segments agrees with comparing against every covered pointer.
func TestUncoveredPrefixes(t *testing.T) {
	cov := []string{"", "/a", "/nodes/3", "/x/", "/k~1v"}
	ptrs := []string{"", "/a", "/a/b", "/ab", "/nodes/3/name", "/nodes/30", "/nodes/3", "/x/", "/x//y", "/x", "/k~1v/z", "/k", "/b/a"}
	reference := func(p string) bool {
		for _, c := range cov {
			if c != "" && p != "" && (p == c || strings.HasPrefix(p, c+"/")) {
				return true
			}
		}
		return false
	}
	for _, p := range ptrs {
		for _, side := range []string{"old", "new"} {
			r := residue{oldPtr: p}
			oc, nc := cov, []string(nil)
			if side == "new" {
				r = residue{newPtr: p}
				oc, nc = nil, cov
			}
			got := len(uncovered([]residue{r}, slices.Clone(oc), slices.Clone(nc))) == 0
			if want := reference(p); got != want {
				t.Errorf("%s %q: covered %v, want %v", side, p, got, want)
			}
		}
	}
}
