package diff

import "github.com/oastui/oastui/compile"

// The whole structural walk and the filter of its residues, as they were
// before walkUncovered did both in one walk: oracles for the tests of the
// walk and of the covered places (production code calls walkUncovered).

// walkDiff compares two JSON values and appends their differences.
// distinct says no object of either side repeats a key: two objects whose
// members come with the same keys in the same order (nearly every object
// of a flow edited in place) are then walked member by member, without a
// look-up per key on each side nor a set of the keys seen. op, np and
// ident are the values' places (the residues' pointers and identity extend
// them).
func walkDiff(o, n *compile.Node, op, np, ident string, distinct bool, out *[]residue) {
	walkUncovered(o, n, nil, nil, op, np, ident, distinct, nil, nil, out)
}

// uncovered keeps the residues no covered pointer is a prefix of (on the
// side the residue has).
func uncovered(rs []residue, oldCovList, newCovList []string) []residue {
	oldCov, newCov := newCovSet(oldCovList), newCovSet(newCovList)
	var out []residue
	for _, r := range rs {
		if !explained(&r, oldCov, newCov) {
			out = append(out, r)
		}
	}
	return out
}
