package report

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPathsOnce: the working directory read once gives the paths
// filepath.Abs gives, and RelFile's answers, for every kind of path.
func TestPathsOnce(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ps := paths{wd: wd}
	files := []string{"", "a.json", "./x/../b/oas.json", "/abs/c.json", "/abs/../d.json", "<built-in registry>", "..", "../up/e.json"}
	for _, f := range files {
		want := ""
		if f != "" {
			want, _ = filepath.Abs(f)
		}
		if got := ps.abs(f); got != want {
			t.Errorf("abs(%q) = %q, filepath.Abs %q", f, got, want)
		}
		for _, root := range []string{"", ".", "x", "/abs", wd, filepath.Dir(wd)} {
			old := relFileAbs(f, root)
			if got := ps.rel(f, root); got != old {
				t.Errorf("rel(%q, %q) = %q, with filepath.Abs %q", f, root, got, old)
			}
		}
	}
	if got := (paths{}).abs("a/../b.json"); got != "b.json" {
		t.Errorf("without a working directory: %q", got)
	}
}

// relFileAbs is RelFile as it was with filepath.Abs on every call.
func relFileAbs(file, root string) string {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			return filepath.Clean(p)
		}
		return a
	}
	if file == "" {
		return ""
	}
	if len(file) > 0 && file[0] == '<' {
		return file[1 : len(file)-1]
	}
	if root == "" {
		root = "."
	}
	rel, err := filepath.Rel(abs(root), abs(file))
	if err == nil && rel != ".." && !(len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs(file))
}
