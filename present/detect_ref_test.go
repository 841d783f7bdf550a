package present

// The detector's top level as it was before the token pass was split into
// a tight tokenizer and a per-token judge and the look for a key inside a
// word got a loop of its own (issue 39): the oracle that the Agree tests
// and FuzzScanTokensAgree hold the fast path to. Only secDetect,
// secScanTokens and secPrefixInWord are copied (calling each other); the
// helpers they call are the package's own.

import "strings"

func secDetectRef(class KeyClass, value string, depth int) (Detection, bool) {
	if len(value) > secretMaxValue {
		value = value[:secretMaxValue]
	}
	lo, hi := secTrimSpaceIdx(value, 0, len(value))
	if lo == hi {
		return Detection{}, false
	}
	// 1. A value that is nothing but a placeholder (anchored).
	if secIsWholePlaceholder(value[lo:hi]) {
		// ...but a provider key inside its name is one ({{ secret_AKIA… }})
		return secPrefixInWordRef(value, lo, hi)
	}
	// 2. "Bearer x" / "Basic x" / "Token x" as the whole value: judge x
	// (structural secrets first: "Bearer eyJ…" is a JWT).
	if a, b, ok := secAuthSchemeValue(value, lo, hi); ok {
		if d, ok := secStructural(class, value, depth); ok {
			return d, true
		}
		inner := value[a:b]
		if secIsPlaceholderToken(inner) {
			return Detection{}, false
		}
		if d, ok := secPrefixAt(value, a, b); ok {
			return d, true
		}
		if class >= KeyNeutral && secCredentialShaped(inner, false) {
			return secDet("bearer-token", value, a, b, false), true
		}
		if class == KeyDescriptive || class == KeyIdentifier {
			return Detection{}, false
		}
	}
	// 3. Token by token (the reference's split). The pass also notes
	// whether the value may hold a structural secret (a PEM block, a JWT,
	// a Slack webhook, a URL); only then are those searched for, and they
	// take precedence over a token-level finding.
	d, ok, marks := secScanTokensRef(class, value, lo, hi, depth)
	if ok {
		marks = markAll
	}
	if marks != 0 {
		if sd, sok := secStructuralMarked(class, value, depth, marks); sok {
			return sd, true
		}
	}
	if ok {
		return d, true
	}
	// 4. A literal under a key that names a secret.
	if class >= KeySecret {
		a, b := secUnquoteIdx(value, lo, hi)
		// "label: literal" (a YAML line pasted into the field): the
		// literal stays under the secret key unless the label says it is
		// not a secret
		if c := strings.IndexByte(value[a:b], ':'); c > 0 && c+1 < b-a && secIsSpace(value[a+c+1]) && secIsIdentRun(value[a:a+c], true) {
			if lc := ClassifyKey(value[a : a+c]); lc != KeyIdentifier && lc != KeyDescriptive {
				ia, ib := secTrimSpaceIdx(value, a+c+1, b)
				ia, ib = secUnquoteIdx(value, ia, ib)
				a, b = ia, ib
			}
		}
		if a < b && !secHasSpace(value[a:b]) && secCredentialShaped(value[a:b], class == KeyPassword) {
			fam := "secret-named-key"
			if class == KeyPassword {
				fam = "password-literal"
			}
			return secDet(fam, value, a, b, false), true
		}
	}
	return Detection{}, false
}

func secScanTokensRef(class KeyClass, value string, lo, hi, depth int) (Detection, bool, uint8) {
	prevA, prevB := -1, -1
	count := 0
	marks := uint8(0)
	s := value[:hi] // lets the compiler drop bounds checks in the loops below
	i := lo
	for i < len(s) {
		colon := false
		for i < len(s) {
			cc := secCharClass[s[i]]
			if cc < ccSep {
				break
			}
			if cc == ccColon {
				colon = true
			}
			i++
		}
		a := i
		dots, firstEq, lastEq := 0, -1, -1
		boundary := false // the token holds a byte that is neither a letter nor a digit
		for i < len(s) {
			cc := secCharClass[s[i]]
			if cc == 0 { // letters and digits: the common case
				i++
				continue
			}
			if cc >= ccSep {
				break
			}
			boundary = true
			switch cc {
			case ccDot:
				dots++
			case ccDash:
				// a PEM armour line: five dashes
				if i+5 <= len(s) && s[i:i+5] == "-----" {
					marks |= markPEM
				}
			case ccEq:
				if firstEq < 0 {
					firstEq = i - a
				}
				lastEq = i - a
			}
			i++
		}
		b := i
		if a == b {
			continue
		}
		count++
		if count > secMaxTokensPerValue {
			break
		}
		tok := value[a:b]
		// marks of structural secrets: a PEM armour line (-----), a JWT or
		// hooks.slack.com (two dots in a long token), a URL (://)
		if dots >= 2 && b-a >= 16 {
			marks |= markDots
		}
		if colon && b-a > 2 && (tok[0] == '/' && tok[1] == '/' || strings.HasPrefix(tok, `\/\/`)) {
			marks |= markURL
		}
		// (no provider key is shorter than 8 bytes: most words of prose
		// are, and skip the call)
		if b-a >= 8 {
			if d, ok := secPrefixAt(value, a, b); ok {
				return d, true, marks
			}
		}
		// a provider token after "=" (a query string, an assignment)
		if lastEq > 0 && lastEq < len(tok)-8 {
			if d, ok := secPrefixAt(value, a+lastEq+1, b); ok {
				return d, true, marks
			}
		}
		// a provider token inside an identifier or a pointer: it starts
		// after a byte that is neither a letter nor a digit
		if b-a > 8 && boundary {
			if d, ok := secPrefixInWordRef(value, a, b); ok {
				return d, true, marks
			}
		}
		// {{ expression }} and ${ expression }: template text, not a literal
		if a > lo && value[a-1] == '{' || a > lo+1 && value[a-1] == ' ' && value[a-2] == '{' {
			prevA, prevB = a, b
			continue
		}
		if class >= KeyNeutral {
			// "password: x" inside a value (YAML, a header line)
			if colon && prevA >= 0 && depth < 2 && !secIsAuthScheme(tok) {
				if c := ClassifyKey(value[prevA:prevB]); c >= KeySecret {
					if d, ok := secDetectRef(c, tok, depth+1); ok {
						d.Start += a
						d.End += a
						return d, true, marks
					}
				}
			}
			// "Bearer <literal>" inside prose
			if prevA >= 0 && (prevB-prevA == 5 || prevB-prevA == 6) && secIsAuthScheme(value[prevA:prevB]) && !secIsPlaceholderToken(tok) && secCredentialShaped(tok, false) {
				return secDet("bearer-token", value, a, b, false), true, marks
			}
			// name=value inside a value: a connection string, a query string
			if depth < 2 && firstEq > 0 && firstEq < len(tok)-1 {
				name := tok[:firstEq]
				if secIsIdentRun(name, false) {
					if c := ClassifyKey(name); c >= KeySecret {
						if d, ok := secDetectRef(c, tok[firstEq+1:], depth+1); ok {
							d.Start += a + firstEq + 1
							d.End += a + firstEq + 1
							return d, true, marks
						}
					}
				}
			}
			if b-a >= secretMinEntLen && secEntropyCandidate(tok) {
				if h, n := secShannon(tok); n >= secretMinEntLen && h >= secretMinEntropy && !secIsPlaceholderToken(tok) {
					return secDet("high-entropy-token", value, a, b, false), true, marks
				}
			}
		}
		// a path or a URL is no entropy candidate as a whole, and a
		// provider key inside it is no key inside a word when its body is
		// hex; each of its segments is judged as a token: /x/<token>/y, a
		// pointer /$referenced_components/<token>/id, https://h/a/<token>
		if b-a > 8 && strings.IndexByte(tok, '/') >= 0 {
			if d, ok := secPathSegment(class, value, a, b); ok {
				return d, true, marks
			}
		}
		prevA, prevB = a, b
	}
	return Detection{}, false, marks
}

func secPrefixInWordRef(value string, a, b int) (Detection, bool) {
	tries := 0
	for p := a + 1; p+8 <= b; p++ {
		// '+' is no boundary: base64 text is full of them
		if c := value[p-1]; secIsAlnum(c) || c == '+' || !secIsAlnum(value[p]) {
			continue
		}
		if secProviderSecond[value[p]][value[p+1]>>6]&(1<<(value[p+1]&63)) == 0 {
			continue
		}
		if tries++; tries > secMaxWordTries {
			break
		}
		if d, ok := secPrefix(value, p, b, true); ok {
			return d, true
		}
	}
	return Detection{}, false
}
