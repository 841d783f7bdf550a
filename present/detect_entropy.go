package present

import "math/bits"

// secFewDistinct: t is ASCII with fewer than 23 distinct bytes, so that
// its entropy is below secretMinEntropy (log2(22) < 4.5): secShannon
// answers 0 for it without the count. The token pass and the path
// segments look at this before secEntropyCandidate (an identifier's
// segments, case changes and vowels, read at about 15 instructions a
// byte): the tests of an entropy token are pure and all must pass, so
// their order changes no answer, and most long tokens of prose (paths,
// identifiers, template expressions) have fewer distinct bytes.
func secFewDistinct(t string) bool {
	var lo, hi uint64 // the bytes below 64, and from 64 to 127
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 0x80 {
			return false
		}
		if c < 64 {
			lo |= 1 << c
		} else {
			hi |= 1 << (c & 63)
		}
	}
	return bits.OnesCount64(lo)+bits.OnesCount64(hi) < 23
}
