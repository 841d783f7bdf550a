package present

import "strings"

// A proof of nothing for the classes that only get strong detections.
//
// Under KeyDescriptive and KeyIdentifier the detector reports provider
// keys and structural secrets only (no bearer literal, no "name: x" pair,
// no entropy, no literal under the key: each of those is gated by
// class >= KeyNeutral). Every one of them needs something the prose of
// names, descriptions and ids seldom has:
//
//   - a provider key at p (secPrefix, from every place the detector looks:
//     a token's start, after '=' in a token, after a boundary inside a
//     word, a path segment, the token after "Bearer ", a placeholder's
//     name) starts at the value's start or after a byte that is neither a
//     letter nor a digit, begins with a pair of bytes some prefix begins
//     with, and is len(prefix)+m >= len(prefix)+minBody bytes of the
//     prefix and the body's charset from p on;
//   - a JWT (secFindJWT) starts with "eyJ" at the start or after a byte
//     that is not base64url, and is at least 18 bytes of base64url and
//     dots (10 + "." + 6 + ".");
//   - a Slack webhook (secFindSlackWebhook) holds "hooks.slack.com/" and
//     one of "/services/", "/triggers/", "/workflows/": the "slack" after
//     the dot starts a run of at least 19 such bytes ("slack.com/triggers/");
//   - a PEM block (secFindPEM) holds "-----BEGIN ": "BEGIN" after a dash,
//     5 bytes;
//   - credentials in a URL (secFindURLSecrets, the only caller of the
//     recursive secDetect) need "://" or ":\/\/": a ':' before a '/' or a
//     '\'.
//
// secMayHoldStrong looks at every byte after a boundary (and at the
// first) for the pairs of bytes those begin with, and, only for the pairs
// that pass, at the run of such bytes from there (each run read once);
// and at every ':' for the byte after it. False proves that secDetect finds
// nothing under a class below KeyNeutral, at any depth.

// secStrongSecond: for each first byte, the set of second bytes a strong
// detection (a provider prefix, "ey" of a JWT, "sl" of a Slack webhook)
// may begin with.
var secStrongSecond = func() (t [256][4]uint64) {
	t = secProviderSecond
	for _, p := range []string{"ey", "sl"} {
		t[p[0]][p[1]>>6] |= 1 << (p[1] & 63)
	}
	return
}()

// secStrongMinLen: for each first byte, the fewest bytes of secKeyByte a
// strong detection beginning with it spans (255 at most: fewer is only a
// weaker proof).
var secStrongMinLen = func() (t [256]uint8) {
	for c := range t {
		t[c] = 255
	}
	for i := range secProviders {
		p := &secProviders[i]
		t[p.prefix[0]] = uint8(min(int(t[p.prefix[0]]), len(p.prefix)+p.minBody))
	}
	// a JWT, a Slack webhook from the "slack" of its host
	t['e'] = min(t['e'], 18)
	t['s'] = min(t['s'], 19)
	return
}()

// secKeyByte: the bytes a strong detection's span is made of: letters,
// digits, "_-./+=~" (every provider body's charset, JWT, URL path), and
// every byte of a provider prefix.
var secKeyByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = secIsAlnum(byte(c)) || byte(c) == '_' || byte(c) == '-' || byte(c) == '.' ||
			byte(c) == '+' || byte(c) == '/' || byte(c) == '=' || byte(c) == '~'
	}
	for i := range secProviders {
		for j := 0; j < len(secProviders[i].prefix); j++ {
			t[secProviders[i].prefix[j]] = true
		}
	}
	return
}()

// secMayHoldStrong is false only when v holds no strong detection (see
// above). A provider key, a JWT and a webhook each span 15 bytes of
// secKeyByte at least (secStrongMinLen), and 15 bytes in a row hold one of
// v's aligned 8-byte words whole: the words are tested eight bytes at a
// time for a byte outside 0x21-0x7e (a space, a control, UTF-8: no key
// byte), and only the runs of key bytes around the words without one are
// read byte by byte. Linear: each run is read once.
func secMayHoldStrong(v string) bool {
	// "://" and ":\/\/" (a URL's credentials), "-----BEGIN " (a PEM block)
	for i := 0; ; {
		k := strings.IndexByte(v[i:], ':')
		if k < 0 {
			break
		}
		i += k + 1
		if i < len(v) && (v[i] == '/' || v[i] == '\\') {
			return true
		}
	}
	if secHasDashRun(v) {
		return true
	}
	for i := 0; i+8 <= len(v); i += 8 {
		s := v[i : i+8]
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		// a byte below 0x21 (its subtraction borrows) or from 0x80 up (the
		// top bit set): no key byte
		if (w|(w-0x2121212121212121))&0x8080808080808080 != 0 {
			continue
		}
		b := i
		for b < i+8 && secKeyByte[v[b]] {
			b++
		}
		if b < i+8 {
			continue // a byte such as ',' or '(' in the word
		}
		a := i
		for a > 0 && secKeyByte[v[a-1]] {
			a--
		}
		may, end := secStrongInRun(v, a)
		if may {
			return true
		}
		// the next word from the run's end on (the words before it are in
		// the run)
		i = (end+7)&^7 - 8
	}
	return false
}

// secStrongMinRun: no strong detection spans fewer bytes of secKeyByte
// (the PEM header aside, looked for by its dashes).
const secStrongMinRun = 15

// secStrongInRun reports whether a strong detection may start in the run
// of key bytes that starts at a, and where the run ends: a detection may
// start at a or after a byte that is neither a letter nor a digit, with a
// pair of bytes secStrongSecond lets through, when the run is long enough
// for the shortest span that pair begins.
func secStrongInRun(v string, a int) (bool, int) {
	need := len(v) + 1 // the least end of the run a detection needs
	cc := &secCharClass
	for p := a; ; {
		// p is a or the byte after a boundary
		if p+1 < len(v) {
			if c0, c1 := v[p], v[p+1]; secStrongSecond[c0][c1>>6]&(1<<(c1&63)) != 0 {
				need = min(need, p+int(secStrongMinLen[c0]))
			}
		}
		for uint(p) < uint(len(v)) && cc[v[p]] == 0 {
			p++
		}
		if uint(p) >= uint(len(v)) || !secKeyByte[v[p]] {
			return p >= need, p
		}
		p++
	}
}

// secHasDashRun reports whether v holds "-----" (five dashes, the marks of
// a PEM block). Five bytes in a row hold exactly one offset of the form
// 5j+4, so only those offsets are read until one holds a dash; the dashes
// around it are then counted, at most four on either side.
func secHasDashRun(v string) bool {
	for i := 4; i < len(v); i += 5 {
		if v[i] != '-' {
			continue
		}
		a := i
		for a > i-4 && v[a-1] == '-' {
			a--
		}
		b := i + 1
		for b < len(v) && b < a+5 && v[b] == '-' {
			b++
		}
		if b-a >= 5 {
			return true
		}
	}
	return false
}
