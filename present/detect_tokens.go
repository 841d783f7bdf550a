package present

// secTokState is what the token pass keeps of the tokens
// secNextLongToken passes over: the last of them (the label of a
// "name: x" pair, the scheme of "Bearer x"), how many tokens were seen,
// and the PEM mark.
type secTokState struct {
	prevA, prevB int // the token before the one returned (-1: none)
	count        int // tokens seen, the one returned included
	marks        uint8
}

// tfStop: secNextLongToken stopped at secMaxTokensPerValue tokens.
const tfStop = 1 << 7

// secNextLongToken is secNextToken for the token pass: the next token of
// s at or after i that the pass judges, passing over the short words that
// it only counts and remembers as the token before (fewer than 8 bytes,
// no ':' before them, no '=' in them: most of prose) without returning
// to it for each. Each token seen is counted in st.count and its PEM flag
// is kept in st.marks, as the pass did; the words passed over leave the
// last of them in st.prevA and st.prevB. At the end of s it returns
// a == b == len(s); after secMaxTokensPerValue tokens, flags tfStop.
//
//go:noinline
func secNextLongToken(s string, i int, st *secTokState) (a, b, firstEq, lastEq int, flags uint8) {
	for {
		i0 := i
		flags = 0
		for uint(i) < uint(len(s)) {
			cc := secCharClass[s[i]]
			if cc < ccSep {
				break
			}
			if cc == ccColon {
				flags |= tfColon
			}
			i++
		}
		a, firstEq, lastEq = i, -1, -1
		dots := 0
		for {
			// letters and digits: the common case, a loop of its own
			for uint(i) < uint(len(s)) && secCharClass[s[i]] == 0 {
				i++
			}
			if uint(i) >= uint(len(s)) {
				break
			}
			cc := secCharClass[s[i]]
			if cc >= ccSep {
				break
			}
			flags |= tfBoundary
			switch cc {
			case ccDot:
				dots++
			case ccDash:
				if i+5 <= len(s) && s[i:i+5] == "-----" {
					flags |= tfPEM
					st.marks |= markPEM
				}
			case ccEq:
				if firstEq < 0 {
					firstEq = i - a
				}
				lastEq = i - a
			}
			i++
		}
		if a == i {
			return a, i, firstEq, lastEq, flags // the end of s
		}
		if st.count++; st.count > secMaxTokensPerValue || i-a >= 8 || flags&tfColon != 0 || firstEq >= 0 {
			// a token the pass judges: the flags of its dots and of the
			// separators just before it (never bytes of the token before
			// it: '{' and ' ' are separators)
			if dots >= 2 {
				flags |= tfDots
			}
			if a > i0 {
				if c := s[a-1]; c == '{' || c == ' ' && a-2 >= i0 && s[a-2] == '{' {
					flags |= tfTemplate
				}
			}
			if st.count > secMaxTokensPerValue {
				flags |= tfStop
			}
			return a, i, firstEq, lastEq, flags
		}
		// a short word: it holds no provider key, no credential-shaped
		// literal and no entropy candidate, and without a ':' before it
		// or a '=' in it, it starts no URL and is no value of a "name: x"
		// or "name=x" pair
		st.prevA, st.prevB = a, i
	}
}
