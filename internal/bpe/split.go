package bpe

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers: each next(s, i) returns the end of the piece that
// starts at i, as the encoding's regular expression (tiktoken's pattern,
// leftmost alternative first, greedy with backtracking) would match it.
// Each alternative is decided by scanning the run of one character class
// once, so cutting a text is linear in its length.
//
// cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// \s is Unicode White_Space (Go's unicode.IsSpace: the same set as the
// regular-expression engines' \s).

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isL(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isN(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

func isS(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// isUpperish: [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func isUpperish(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// isLowerish: [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func isLowerish(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// contraction is the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i (0: none).
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' || i+1 >= len(s) {
		return 0
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return 3
		}
	}
	return 0
}

// run is the end of the run of runes from i that satisfy in.
func run(s string, i int, in func(rune) bool) int {
	for i < len(s) {
		r, n := decode(s, i)
		if !in(r) {
			break
		}
		i += n
	}
	return i
}

// numbers is \p{N}{1,3} at i, whose rune is a number.
func numbers(s string, i int) int {
	for k := 0; k < 3 && i < len(s); k++ {
		r, n := decode(s, i)
		if !isN(r) {
			break
		}
		i += n
	}
	return i
}

func isPunct(r rune) bool { return !isS(r) && !isL(r) && !isN(r) }

// punct is ` ?[^\s\p{L}\p{N}]+` then newlines (and '/' when slash) at i,
// or -1.
func punct(s string, i int, slash bool) int {
	j := i
	if s[j] == ' ' {
		j++
	}
	if j >= len(s) {
		return -1
	}
	if r, _ := decode(s, j); !isPunct(r) {
		return -1
	}
	j = run(s, j, isPunct)
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || slash && s[j] == '/') {
		j++
	}
	return j
}

// spaces is `\s*[\r\n]+|\s+(?!\S)|\s+` at i, whose rune is white space.
func spaces(s string, i int) int {
	lastNL, lastStart, runes := -1, i, 0
	j := i
	for j < len(s) {
		r, n := decode(s, j)
		if !isS(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastNL = j
		}
		lastStart = j
		runes++
		j += n
	}
	switch {
	case lastNL >= 0: // \s*[\r\n]+: up to the run's last line break
		return lastNL + 1
	case j == len(s) || runes == 1: // \s+(?!\S) at the end; \s+ for one rune
		return j
	default: // \s+(?!\S): all but the last, which goes with what follows
		return lastStart
	}
}

func cl100kNext(s string, i int) int {
	if k := contraction(s, i); k > 0 {
		return i + k
	}
	r0, n0 := decode(s, i)
	if isL(r0) {
		return run(s, i+n0, isL)
	}
	if r0 != '\r' && r0 != '\n' && !isN(r0) && i+n0 < len(s) {
		if r1, n1 := decode(s, i+n0); isL(r1) {
			return run(s, i+n0+n1, isL)
		}
	}
	if isN(r0) {
		return numbers(s, i)
	}
	if j := punct(s, i, false); j >= 0 {
		return j
	}
	return spaces(s, i)
}

// o200kWord1 is [\p{Lu}…\p{M}]*[\p{Ll}…\p{M}]+ then an optional
// contraction at j, or -1.
func o200kWord1(s string, j int) int {
	e, lastLower := j, -1
	for e < len(s) {
		r, n := decode(s, e)
		if !isUpperish(r) {
			break
		}
		if isLowerish(r) {
			lastLower = e + n
		}
		e += n
	}
	end := -1
	if e < len(s) {
		if r, _ := decode(s, e); isLowerish(r) {
			end = run(s, e, isLowerish)
		}
	}
	if end < 0 {
		if lastLower < 0 {
			return -1
		}
		end = lastLower // the upper run gives back up to its last lowerish rune
	}
	return end + contraction(s, end)
}

// o200kWord2 is [\p{Lu}…\p{M}]+[\p{Ll}…\p{M}]* then an optional
// contraction at j, or -1.
func o200kWord2(s string, j int) int {
	e := run(s, j, isUpperish)
	if e == j {
		return -1
	}
	e = run(s, e, isLowerish)
	return e + contraction(s, e)
}

func o200kNext(s string, i int) int {
	r0, n0 := decode(s, i)
	lead := r0 != '\r' && r0 != '\n' && !isL(r0) && !isN(r0) && i+n0 < len(s)
	for _, word := range [2]func(string, int) int{o200kWord1, o200kWord2} {
		if lead {
			if j := word(s, i+n0); j >= 0 {
				return j
			}
		}
		if j := word(s, i); j >= 0 {
			return j
		}
	}
	if isN(r0) {
		return numbers(s, i)
	}
	if j := punct(s, i, true); j >= 0 {
		return j
	}
	return spaces(s, i)
}
