package compile

import "path/filepath"

// Path helpers for loading and discovery, which clean, join and split
// the same few paths many times per agent (a listing's look-ups, the
// package's files): filepath.Clean rebuilds its argument byte by byte
// even when there is nothing to change, about 20 instructions a byte.
// These give filepath's results, checking with one look at the bytes
// that a path is already clean and taking filepath's own function
// otherwise (and always on a system whose separator is not '/').

// isClean reports that p is what filepath.Clean returns for it, on a
// system with '/' as separator: not empty, no empty, "." or ".."
// element, no trailing slash (except the root itself). "." alone is
// clean; a path with a "." or ".." element anywhere else is left to
// filepath.Clean (some are clean, "../x", but few are asked).
func isClean(p string) bool {
	if filepath.Separator != '/' || p == "" {
		return false
	}
	if p == "." || p == "/" {
		return true
	}
	if p[len(p)-1] == '/' || dotElem(p, 0) {
		return false
	}
	// Every other empty, "." or ".." element follows a '/' with a '/' or
	// a '.' after it: look for those pairs eight bytes at a time (a word
	// that may hold one, the zero-byte test can flag a byte too many, is
	// checked a byte at a time).
	i := 0
	for ; i+9 <= len(p); i += 8 {
		if pairMask(load64(p, i), load64(p, i+1)) != 0 && !cleanFrom(p, i, i+8) {
			return false
		}
	}
	return cleanFrom(p, i, len(p)-1)
}

// cleanFrom reports that no '/' at an offset in [i, end) starts an
// empty, "." or ".." element (end < len(p)).
func cleanFrom(p string, i, end int) bool {
	for ; i < end; i++ {
		if p[i] == '/' {
			if c := p[i+1]; c == '/' || c == '.' && dotElem(p, i+1) {
				return false
			}
		}
	}
	return true
}

// dotElem reports that the element of p starting at i is "." or "..".
func dotElem(p string, i int) bool {
	if i >= len(p) || p[i] != '.' {
		return false
	}
	if i+1 == len(p) || p[i+1] == '/' {
		return true
	}
	return p[i+1] == '.' && (i+2 == len(p) || p[i+2] == '/')
}

const (
	loBytes = 0x0101010101010101
	hiBytes = 0x8080808080808080
)

// pairMask has the high bit of byte j set when byte j of w may be a '/'
// and byte j of next (the byte after it) a '/' or a '.'; never unset
// where they are.
func pairMask(w, next uint64) uint64 {
	return zeroBytes(w^('/'*loBytes)) & (zeroBytes(next^('/'*loBytes)) | zeroBytes(next^('.'*loBytes)))
}

// zeroBytes has the high bit set of every zero byte of x (and maybe of a
// byte above one).
func zeroBytes(x uint64) uint64 { return (x - loBytes) &^ x & hiBytes }

// load64 is the eight bytes of s from i, little-endian.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// CleanPath is filepath.Clean(p), without filepath's rebuild of a path
// that is already clean (for the workspace summaries, which make every
// agent's paths absolute).
func CleanPath(p string) string { return cleanPath(p) }

// JoinPath is filepath.Join(dir, rel), without filepath's rebuild when
// both are clean.
func JoinPath(dir, rel string) string { return joinPath(dir, rel) }

// cleanPath is filepath.Clean(p).
func cleanPath(p string) string {
	if isClean(p) {
		return p
	}
	return filepath.Clean(p)
}

// joinPath is filepath.Join(dir, rel).
func joinPath(dir, rel string) string {
	if isClean(dir) && isClean(rel) && rel[0] != '/' && rel != "." {
		switch dir {
		case ".":
			return rel
		case "/":
			return "/" + rel
		}
		return dir + "/" + rel
	}
	return filepath.Join(dir, rel)
}

// dirPath is filepath.Dir(p).
func dirPath(p string) string {
	if !isClean(p) {
		return filepath.Dir(p)
	}
	return dirOfClean(p)
}

// dirOfClean is filepath.Dir(p) for a p that filepath.Clean leaves as
// it is.
func dirOfClean(p string) string {
	if p == "." || p == "/" || filepath.Separator != '/' {
		return filepath.Dir(p)
	}
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			if i == 0 {
				return "/"
			}
			return p[:i]
		}
	}
	return "."
}
