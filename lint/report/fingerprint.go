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

// FingerprintKey is the name of oastui's SARIF partial fingerprint. v2:
// rule + file + pointer + the finding's ValueHash (v1 hashed the whole
// value the pointer named, so an edit anywhere in a node moved the alerts
// of that node).
const FingerprintKey = "oastui/v2"

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
	h := sha256.New()
	for _, s := range []string{f.Code, RelFile(f.File, root), present.Text(f.Location), f.ValueHash} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RelFile is file (absolute, or relative to the working directory) relative
// to root with "/" separators when it lies below root; otherwise the
// absolute slash path. A pseudo file such as "<built-in registry>" is
// returned without its brackets. root "" is the working directory.
func RelFile(file, root string) string {
	if file == "" {
		return ""
	}
	if strings.HasPrefix(file, "<") {
		return strings.Trim(file, "<>")
	}
	if root == "" {
		root = "."
	}
	base, abs := absPath(root), absPath(file)
	if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// relFileURI is RelFile as a SARIF artifact URI and its uriBaseId.
func relFileURI(file, root string) (string, string) {
	if file == "" {
		return "unknown", "%SRCROOT%"
	}
	rel := RelFile(file, root)
	if strings.HasPrefix(file, "<") || !filepath.IsAbs(filepath.FromSlash(rel)) {
		return (&url.URL{Path: rel}).EscapedPath(), "%SRCROOT%"
	}
	return (&url.URL{Scheme: "file", Path: rel}).String(), ""
}

// FindRoot is the repository root of path: the nearest directory at or
// above it holding .git (a directory, or a file for a worktree or a
// submodule), or "" when there is none. No git command is run.
func FindRoot(path string) string {
	dir := absPath(path)
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
