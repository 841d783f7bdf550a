package report

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

// FingerprintKey is the name of oastui's SARIF partial fingerprint. v3:
// rule + file + pointer + the finding's ValueHash, the pointer's array
// indexes left out when the ValueHash names the value (v2 kept them, so a
// dependency inserted earlier in an array made every finding after it new;
// v1 hashed the whole value the pointer named, so an edit anywhere in a
// node moved the alerts of that node).
const FingerprintKey = "oastui/v3"

// Fingerprint identifies a finding across runs, for SARIF
// partialFingerprints, baselines and the value-bound ignores: the hex
// SHA-256 of the rule code, the file relative to root (slash-separated;
// see RelFile), the JSON Pointer and the ValueHash. Line and column are not
// part of it, so reformatting and moving lines keep it; a changed secret,
// URL or scalar value (ValueHash) changes it, and so does renaming a key on
// the pointer's path. A finding without a pointer and without a value hash
// (a whole-file finding) is identified by rule and file alone. The pointer
// is hashed as it is shown (present.Text: a token in it masked), so a
// finding masked by Mask keeps its fingerprint.
func Fingerprint(f lint.Finding, root string) string {
	return fingerprint(workPaths(), f, root, StablePointer(f))
}

// FingerprintV2 is the fingerprint of v2 (the pointer as it is): what
// baselines written before v3 hold, still matched by them.
func FingerprintV2(f lint.Finding, root string) string {
	return fingerprint(workPaths(), f, root, f.Location)
}

// StablePointer is the finding's pointer as its fingerprint keys it: its
// array indexes replaced by "*" when the finding has a ValueHash (the value
// tells it apart from its neighbours), so that an element inserted earlier
// in the array leaves it the same. Without a ValueHash the index is what
// tells two findings apart, and stays.
func StablePointer(f lint.Finding) string {
	if f.ValueHash == "" || f.Location == "" {
		return f.Location
	}
	segs := strings.Split(f.Location, "/")
	for i, s := range segs {
		if i > 0 && s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

func fingerprint(ps paths, f lint.Finding, root, pointer string) string {
	h := sha256.New()
	for _, s := range []string{f.Code, ps.rel(f.File, root), present.Text(pointer), f.ValueHash} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RelFile is file (absolute, or relative to the working directory) relative
// to root with "/" separators when it lies below root; otherwise the
// absolute slash path. A pseudo file such as "<built-in registry>" is
// returned without its brackets. root "" is the working directory.
func RelFile(file, root string) string { return workPaths().rel(file, root) }

// paths makes paths absolute against the working directory read once
// (os.Getwd stats "." and $PWD on every call: a report of thousands of
// findings read it several times for each), "" when it cannot be read.
type paths struct{ wd string }

func workPaths() paths {
	wd, _ := os.Getwd()
	return paths{wd: wd}
}

// abs is filepath.Abs without its error: p cleaned when it is absolute
// or the working directory is unknown.
func (ps paths) abs(p string) string {
	if p == "" {
		return ""
	}
	if filepath.IsAbs(p) || ps.wd == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(ps.wd, p)
}

// rel is RelFile.
func (ps paths) rel(file, root string) string {
	if file == "" {
		return ""
	}
	if strings.HasPrefix(file, "<") {
		return strings.Trim(file, "<>")
	}
	if root == "" {
		root = "."
	}
	base, abs := ps.abs(root), ps.abs(file)
	if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// relFileURI is RelFile as a SARIF artifact URI and its uriBaseId.
func relFileURI(ps paths, file, root string) (string, string) {
	if file == "" {
		return "unknown", "%SRCROOT%"
	}
	rel := ps.rel(file, root)
	if strings.HasPrefix(file, "<") || !filepath.IsAbs(filepath.FromSlash(rel)) {
		return (&url.URL{Path: rel}).EscapedPath(), "%SRCROOT%"
	}
	return (&url.URL{Scheme: "file", Path: rel}).String(), ""
}

// FindRoot is the repository root of path: the nearest directory at or
// above it holding .git (a directory, or a file for a worktree or a
// submodule), or "" when there is none. No git command is run.
func FindRoot(path string) string {
	dir := workPaths().abs(path)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
