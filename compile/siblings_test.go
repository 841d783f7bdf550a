package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// TestLoadSiblings: loading lists and reads the package's other files
// with the scan's limits and skip rules (issue 10 item 2), so the review
// needs no file system.
func TestLoadSiblings(t *testing.T) {
	dir := writePkg(t, map[string]string{
		"package.json":              `{"name":"@acme/pkg","version":"1.0.0"}`,
		"cinatra/oas.json":          okFlow,
		"cinatra/agent.json":        `{}`,
		".env":                      "KEY=1\n",
		"README.md":                 "hello\n",
		"skills/x/SKILL.md":         "skill\n",
		"logo.PNG":                  "\x89PNG",
		"node_modules/dep/index.js": "x",
		"dist/out.js":               "x",
		"big.txt":                   strings.Repeat("a", SiblingMaxFileBytes+1),
		"yarn.lock":                 "lock\n",
	})
	if err := os.Symlink(filepath.Join(dir, "README.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	a, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Siblings == nil || a.Siblings.Truncated {
		t.Fatalf("siblings %+v", a.Siblings)
	}
	var got []string
	for _, f := range a.Siblings.Files {
		got = append(got, f.Rel+"|"+f.Skipped+"|"+string(f.Data[:min(len(f.Data), 5)]))
		if f.Path != filepath.Join(dir, filepath.FromSlash(f.Rel)) {
			t.Errorf("path %s", f.Path)
		}
		if f.Rel == "yarn.lock" && !f.Lockfile {
			t.Error("yarn.lock is a lockfile")
		}
	}
	want := []string{".env||KEY=1", "README.md||hello", "big.txt|too large|", "logo.PNG|binary extension|",
		`package.json||{"nam`, "skills/x/SKILL.md||skill", "yarn.lock||lock\n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("siblings\n got %q\nwant %q", got, want)
	}
	if &a.Siblings.Files[4].Data[0] != &a.Package.Src[0] {
		t.Error("package.json is read twice")
	}
	wantDirs := []string{dir, filepath.Join(dir, "cinatra"), filepath.Join(dir, "skills"), filepath.Join(dir, "skills", "x")}
	if !reflect.DeepEqual(a.Siblings.Dirs, wantDirs) {
		t.Errorf("dirs %q, want %q", a.Siblings.Dirs, wantDirs)
	}

	files := a.Files()
	for _, p := range []string{a.FlowPath, filepath.Join(dir, "package.json"), filepath.Join(dir, "cinatra.json"),
		filepath.Join(dir, ".env"), filepath.Join(dir, "skills", "x", "SKILL.md"), filepath.Join(dir, "skills"), dir} {
		if !contains(files, p) {
			t.Errorf("Files() lacks %s: %q", p, files)
		}
	}
	for _, p := range []string{filepath.Join(dir, "node_modules", "dep", "index.js"), filepath.Join(dir, "link.md")} {
		if contains(files, p) {
			t.Errorf("Files() has %s, which loading does not read", p)
		}
	}

	// a flow file given directly has no package siblings
	if a, err := Load(filepath.Join(t.TempDir()), LoadOptions{}); err == nil && a.Siblings != nil {
		t.Error("siblings without a package")
	}
	if a, err := Load(dir, LoadOptions{NoSiblings: true}); err != nil || a.Siblings != nil {
		t.Errorf("NoSiblings: %v %+v", err, a)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestLoadSiblingsLimits: over SiblingMaxFiles files the list stops and
// says so.
func TestLoadSiblingsLimits(t *testing.T) {
	// Under -race a tenth of the limit and of the files (2,001 files
	// written and read were 2 s there, file by file through the race
	// runtime); CI's run without -race (.ci/run) truncates at
	// SiblingMaxFiles itself.
	if SiblingMaxFiles != 2000 {
		t.Fatalf("SiblingMaxFiles = %d, want 2000", SiblingMaxFiles)
	}
	limit := SiblingMaxFiles
	if race.Enabled {
		limit /= 10
	}
	files := map[string]string{"package.json": `{"name":"@acme/pkg"}`, "cinatra/oas.json": okFlow}
	for i := 0; i <= limit; i++ {
		files[fmt.Sprintf("many/f%05d.txt", i)] = "x"
	}
	a, err := Load(writePkg(t, files), LoadOptions{siblingMaxFiles: limit})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Siblings.Truncated || len(a.Siblings.Files) != limit {
		t.Fatalf("truncated %v with %d files", a.Siblings.Truncated, len(a.Siblings.Files))
	}
}

// TestFilesIncludesLoadedChildren: the files of child agents looked up
// through FindAgent are watched too.
func TestFilesIncludesLoadedChildren(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	for p, body := range map[string]string{
		"acme/parent/package.json":     `{"name":"@acme/parent"}`,
		"acme/parent/cinatra/oas.json": okFlow,
		"acme/child/package.json":      `{"name":"@acme/child"}`,
		"acme/child/cinatra/oas.json":  okFlow,
	} {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Load(filepath.Join(root, "acme", "parent"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	childFlow := filepath.Join(root, "acme", "child", "cinatra", "oas.json")
	if contains(a.Files(), childFlow) {
		t.Fatal("child listed before it is loaded")
	}
	c, err := a.FindAgent("@acme/child")
	if err != nil {
		t.Fatal(err)
	}
	if c.Siblings != nil {
		t.Error("a child loaded for a look-up reads its siblings")
	}
	if !contains(a.Files(), childFlow) {
		t.Errorf("Files() lacks the loaded child's flow: %q", a.Files())
	}
}

// TestSiblingPlatformLists: the lockfiles and the binary extension the
// platform's sibling scan added since the pin (reference cinatra.md §17.3).
func TestSiblingPlatformLists(t *testing.T) {
	files := map[string]string{"package.json": `{"name":"@acme/pkg","version":"1.0.0"}`, "cinatra/oas.json": okFlow, "table.dat": "\x00\x01"}
	locks := []string{"composer.lock", "Gemfile.lock", "Cargo.lock", "poetry.lock", "uv.lock"}
	for _, l := range locks {
		files[l] = "lock\n"
	}
	a, err := Load(writePkg(t, files), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]SiblingFile{}
	for _, f := range a.Siblings.Files {
		seen[f.Rel] = f
	}
	for _, l := range locks {
		if !seen[l].Lockfile {
			t.Errorf("%s is a lockfile", l)
		}
	}
	if seen["table.dat"].Skipped != SiblingBinaryExt {
		t.Errorf("table.dat: skipped %q, want %q", seen["table.dat"].Skipped, SiblingBinaryExt)
	}
}
