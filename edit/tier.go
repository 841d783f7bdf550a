package edit

// Tier is how much a fix may change, which decides who may apply it
// (docs/fixes.md):
//
//   - Safe: what the platform compiles and shows is unchanged (formatting,
//     metadata the platform ignores or re-derives, mirrors of package.json,
//     file moves with the bytes unchanged). `oastui lint --fix`, the
//     language server's source.fixAll and every other batch apply these.
//   - Unsafe: the compiled output, a name the user sees, a version or a
//     prompt changes. Only `--unsafe-fixes`, or one at a time after its
//     compiled-output diff was shown.
//   - Dangerous: approval, gates, riskClass. Never in a batch; only the
//     one finding named by an explicit flag.
//
// The zero value is no tier: a fix that does not declare one is treated as
// dangerous, so a forgotten declaration can never widen what a batch does.
type Tier string

const (
	Safe      Tier = "safe"
	Unsafe    Tier = "unsafe"
	Dangerous Tier = "dangerous"
)

// Tiers lists the tiers from the least to the most risky.
var Tiers = []Tier{Safe, Unsafe, Dangerous}

// Rank orders the tiers: 0 safe, 1 unsafe, 2 dangerous (and an undeclared
// tier, counted as dangerous).
func (t Tier) Rank() int {
	switch t {
	case Safe:
		return 0
	case Unsafe:
		return 1
	}
	return 2
}

// Valid reports whether t is one of the three declared tiers.
func (t Tier) Valid() bool { return t == Safe || t == Unsafe || t == Dangerous }

// Within reports whether a fix of tier t may be applied where fixes up to
// max are allowed.
func (t Tier) Within(max Tier) bool { return t.Rank() <= max.Rank() }

// FirstWithin is the index of the first of a finding's fixes (its
// alternatives, best first) that may be applied up to tier max, or -1.
// At most one of a finding's fixes is ever applied.
func FirstWithin(fixes []Fix, max Tier) int {
	for i, f := range fixes {
		if f.Tier.Within(max) {
			return i
		}
	}
	return -1
}
