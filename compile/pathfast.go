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
	start := 0 // start of the current element
	if p[0] == '/' {
		start = 1
	}
	for i := start; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch e := p[start:i]; {
		case len(e) == 0: // "//" or a trailing slash
			return false
		case e[0] == '.' && (len(e) == 1 || len(e) == 2 && e[1] == '.'):
			return false
		}
		start = i + 1
	}
	return true
}

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
	if !isClean(p) || p == "." || p == "/" {
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
