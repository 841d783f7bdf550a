package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Move renames the file at From to To (a fix's file move, e.g. a flow
// file at a legacy path to cinatra/oas.json). The bytes are kept exactly;
// the move is refused when To exists, when From changed since the analysis
// read it, and when either path passes through a symlink (MoveFile).
type Move struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// ErrExists is returned (wrapped) by MoveFile when the target exists.
var ErrExists = errors.New("the target already exists")

// touches reports whether a move and an edit concern the same file: a move
// conflicts with any edit of its source or of its target.
func (m Move) touches(e Edit) bool { return e.Path == m.From || e.Path == m.To }

// clashes reports whether two moves name a common file.
func (m Move) clashes(o Move) bool {
	return m.From == o.From || m.From == o.To || m.To == o.From || m.To == o.To
}

// RenameDiff is the preview of a move, as git shows a pure rename:
//
//	diff --git a/FROM b/TO
//	similarity index 100%
//	rename from FROM
//	rename to TO
func RenameDiff(from, to string) string {
	f, t := strings.TrimPrefix(from, "/"), strings.TrimPrefix(to, "/")
	return fmt.Sprintf("diff --git a/%s b/%s\nsimilarity index 100%%\nrename from %s\nrename to %s\n", f, t, f, t)
}

// checkMove checks, without writing, that MoveFile(from, to, read) may
// proceed: from is a regular file holding read, to does not exist, and no
// directory between the two paths' common parent and them is a symlink
// (or something else than a directory). It returns the directories of to
// that do not exist yet, outermost first.
func checkMove(from, to string, read []byte) (missing []string, err error) {
	if filepath.Clean(from) == filepath.Clean(to) {
		return nil, fmt.Errorf("%s: a move onto itself", from)
	}
	st, err := os.Lstat(from)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s); refusing to move it", from, ErrNotRegular, FileKind(st.Mode()))
	}
	disk, err := os.ReadFile(from)
	if err != nil {
		return nil, err
	}
	if Hash(disk) != Hash(read) {
		return nil, fmt.Errorf("%s: %w; not moved (run the analysis again)", from, ErrChanged)
	}
	if _, err := os.Lstat(to); err == nil {
		return nil, fmt.Errorf("%s: %w; not moving %s over it", to, ErrExists, from)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	common := commonDir(filepath.Dir(from), filepath.Dir(to))
	if err := realDirs(common, filepath.Dir(from), nil); err != nil {
		return nil, err
	}
	if err := realDirs(common, filepath.Dir(to), &missing); err != nil {
		return nil, err
	}
	return missing, nil
}

// commonDir is the longest common directory of a and b (cleaned).
func commonDir(a, b string) string {
	a, b = filepath.Clean(a), filepath.Clean(b)
	for a != b {
		if len(a) >= len(b) {
			if p := filepath.Dir(a); p != a {
				a = p
				continue
			}
		}
		p := filepath.Dir(b)
		if p == b {
			return a
		}
		b = p
	}
	return a
}

// realDirs checks every directory below top down to dir (top excluded):
// each must be a real directory, not a symlink. With missing non-nil, an
// absent directory (and those below it) is listed instead, outermost first.
func realDirs(top, dir string, missing *[]string) error {
	var chain []string
	for d := filepath.Clean(dir); d != top; {
		chain = append(chain, d)
		p := filepath.Dir(d)
		if p == d {
			break
		}
		d = p
	}
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		st, err := os.Lstat(d)
		switch {
		case err == nil && st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s: is a symlink; refusing to move a file across it: %w", d, ErrNotRegular)
		case err == nil && !st.IsDir():
			return fmt.Errorf("%s: is %s, not a directory; refusing to move a file there", d, FileKind(st.Mode()))
		case err == nil:
			continue
		case errors.Is(err, fs.ErrNotExist) && missing != nil:
			for j := i; j >= 0; j-- { // chain is innermost first
				*missing = append(*missing, chain[j])
			}
			return nil
		default:
			return err
		}
	}
	return nil
}

// removeFile is os.Remove; the rollback test makes it fail (as root, a
// read-only directory does not).
var removeFile = os.Remove

// CheckMove checks, writing nothing, what MoveFile(from, to, read) checks
// first: from is a regular file holding read, to does not exist, no
// symlink on the way. A caller applying several changes checks them all
// before the first write.
func CheckMove(from, to string, read []byte) error {
	_, err := checkMove(from, to, read)
	return err
}

// MoveFile moves the file from to to, keeping its bytes and mode: read is
// what the analysis read from from. It refuses, moving nothing, when to
// exists (ErrExists), when from no longer holds read (ErrChanged), when
// from is not a regular file, and when a directory on the way is a symlink
// (never across one). Missing directories of to are created (0755). The
// move is a copy then a removal: to is written with WriteFileAtomic, then
// from is removed; when the removal fails, to (and the directories made
// for it) are removed again, so either both steps happen or neither. It
// returns the directories it created, outermost first (an undo removes
// them again).
func MoveFile(from, to string, read []byte) (created []string, err error) {
	missing, err := checkMove(from, to, read)
	if err != nil {
		return nil, err
	}
	st, err := os.Lstat(from)
	if err != nil {
		return nil, err
	}
	undoDirs := func() {
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i])
		}
	}
	for _, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil {
			undoDirs()
			return nil, err
		}
		created = append(created, d)
	}
	// The target may have appeared since the check: look again just
	// before the write (WriteFileAtomic itself refuses non-regular files).
	if _, err := os.Lstat(to); err == nil {
		undoDirs()
		return nil, fmt.Errorf("%s: %w (appeared while moving); not moving %s over it", to, ErrExists, from)
	}
	if err := WriteFileAtomic(to, read); err != nil {
		undoDirs()
		return nil, err
	}
	_ = os.Chmod(to, st.Mode().Perm())
	rollback := func(cause error) ([]string, error) {
		if rerr := os.Remove(to); rerr != nil {
			return nil, fmt.Errorf("%w; and %s could not be removed again: %v", cause, to, rerr)
		}
		undoDirs()
		return nil, cause
	}
	// from may have changed while to was written: the last look.
	if disk, err := os.ReadFile(from); err != nil || Hash(disk) != Hash(read) {
		return rollback(fmt.Errorf("%s: %w while moving; not moved", from, ErrChanged))
	}
	if err := removeFile(from); err != nil {
		return rollback(fmt.Errorf("%s: not removed after the copy to %s: %w", from, to, err))
	}
	if d, err := os.Open(filepath.Dir(from)); err == nil { // make the removal durable
		_ = d.Sync()
		d.Close()
	}
	return created, nil
}
