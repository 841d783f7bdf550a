package compile

import (
	"errors"
	"github.com/oastui/oastui/internal/testgit"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGitLog: the commits touching the given files, newest first, with
// their first parent; other commits are left out; outside a work tree it
// is ErrNotGitWorkTree.
func TestGitLog(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	testgit.Git(t, repo, "", "init", "-q")
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", "1")
	testgit.Git(t, repo, "", "add", ".")
	testgit.Git(t, repo, "", "commit", "-qm", "first a")
	write("other.txt", "x")
	testgit.Git(t, repo, "", "add", ".")
	testgit.Git(t, repo, "", "commit", "-qm", "unrelated")
	write("a.json", "2")
	write("b.json", "1")
	testgit.Git(t, repo, "", "add", ".")
	testgit.Git(t, repo, "", "commit", "-qm", "second a, first b")

	list, err := GitLog(repo, []string{filepath.Join(repo, "a.json"), "b.json", "/elsewhere/c.json"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Subject != "second a, first b" || list[1].Subject != "first a" {
		t.Fatalf("log = %+v", list)
	}
	if list[0].Parent == "" || list[0].Parent == list[1].Hash || list[1].Parent != "" {
		t.Fatalf("parents: %+v", list) // the parent of the newest is the unrelated commit
	}
	if list[0].Short == "" || list[0].Author != "Ada" || list[0].When.IsZero() {
		t.Fatalf("fields: %+v", list[0])
	}
	if one, _ := GitLog(repo, []string{"a.json"}, 1); len(one) != 1 {
		t.Fatalf("limit 1: %+v", one)
	}
	if _, err := GitLog(t.TempDir(), []string{"a.json"}, 0); !errors.Is(err, ErrNotGitWorkTree) {
		t.Fatalf("outside git: %v", err)
	}
	empty := t.TempDir()
	testgit.Git(t, empty, "", "init", "-q")
	if l, err := GitLog(empty, []string{"a.json"}, 0); err != nil || len(l) != 0 {
		t.Fatalf("no commits: %v %v", l, err)
	}
}
