package workspace

import (
	"path/filepath"
	"testing"
)

// TestAbsFromMatchesFilepath holds absFrom and pkgPath (compile's path
// helpers) to filepath.Clean and filepath.Join on clean and unclean
// working directories and paths.
func TestAbsFromMatchesFilepath(t *testing.T) {
	wds := []string{"", "/", "/work", "/work/", "/work//tree", "/a/./b", "/a/../b", "rel", "."}
	ps := []string{"", ".", "..", "/", "agents", "agents/x", "agents/x/", "./agents", "../up", "a//b", "/abs/p", "/abs/../p", "x/..", "a/.b/..c"}
	for _, wd := range wds {
		for _, p := range ps {
			want := filepath.Clean(p)
			if !filepath.IsAbs(p) && wd != "" {
				want = filepath.Join(wd, p)
			}
			if got := absFrom(wd, p); got != want {
				t.Errorf("absFrom(%q, %q) = %q, want %q", wd, p, got, want)
			}
			if got, want := pkgPath(wd, &Agent{Dir: p}), filepath.Join(want, "package.json"); got != want {
				t.Errorf("pkgPath(%q, %q) = %q, want %q", wd, p, got, want)
			}
		}
	}
}
