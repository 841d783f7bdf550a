package compile

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNotGitWorkTree is the error (wrapped) of GitLog for a directory that
// is not in a git work tree (or when git is not installed).
var ErrNotGitWorkTree = errors.New("not in a git work tree")

// GitCommit is one commit of a GitLog.
type GitCommit struct {
	Hash    string    // full hash
	Short   string    // abbreviated hash
	Parent  string    // first parent's full hash ("" for a root commit)
	Author  string    // author name, as git has it (not sanitised)
	When    time.Time // author date
	Subject string    // first line of the message (not sanitised)
}

// GitLog lists the commits of the git repository around dir that touch
// any of files (absolute or relative to dir; files outside the work tree
// are ignored), newest first, at most limit of them (0: no limit): `git
// log -- files`, hardened as every git call is (gitproc.go). A dir outside a git work tree is an error wrapping
// ErrNotGitWorkTree; a repository without commits has an empty log.
func GitLog(dir string, files []string, limit int) ([]GitCommit, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotGitWorkTree, err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w: git is not installed (%v)", ErrNotGitWorkTree, err)
	}
	if err := checkGitDir(absDir); err != nil {
		return nil, err
	}
	topOut, err := gitCmd(absDir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%w: %s (%v)", ErrNotGitWorkTree, dir, err)
	}
	top := strings.TrimSpace(string(topOut))
	realTop, _ := filepath.EvalSymlinks(top)
	var specs []string
	for _, f := range files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(absDir, f)
		}
		rel, ok := relUnder(top, f)
		if !ok && realTop != "" {
			if rf, err := evalParent(f); err == nil {
				rel, ok = relUnder(realTop, rf)
			}
		}
		if ok {
			specs = append(specs, ":(top,literal)"+filepath.ToSlash(rel))
		}
	}
	if len(specs) == 0 {
		return nil, nil
	}
	if _, err := gitCmd(top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return nil, nil // no commits yet
	}
	// --no-show-signature: whatever log.showSignature says, no gpg runs;
	// no diff is asked for, so no textconv or external diff either.
	args := []string{"log", "--no-show-signature", "--no-textconv", "--no-ext-diff", "--no-color", "--no-mailmap",
		"--format=%H%x1f%h%x1f%P%x1f%an%x1f%at%x1f%s%x1e"}
	if limit > 0 {
		args = append(args, "-n", strconv.Itoa(limit))
	}
	args = append(args, "HEAD", "--")
	out, err := gitCmd(top, append(args, specs...)...)
	if err != nil {
		return nil, fmt.Errorf("git log: %v", err)
	}
	var list []GitCommit
	for _, rec := range strings.Split(string(out), "\x1e") {
		rec = strings.TrimLeft(rec, "\n")
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, "\x1f", 6)
		if len(f) < 6 {
			continue
		}
		c := GitCommit{Hash: f[0], Short: f[1], Author: f[3], Subject: strings.TrimRight(f[5], "\n")}
		if ps := strings.Fields(f[2]); len(ps) > 0 {
			c.Parent = ps[0]
		}
		if sec, err := strconv.ParseInt(f[4], 10, 64); err == nil {
			c.When = time.Unix(sec, 0).UTC()
		}
		list = append(list, c)
	}
	return list, nil
}

// relUnder is p relative to root when p is inside it.
func relUnder(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// evalParent resolves the symlinks of p's directory (p itself may be gone).
func evalParent(p string) (string, error) {
	d, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	return filepath.Join(d, filepath.Base(p)), nil
}
