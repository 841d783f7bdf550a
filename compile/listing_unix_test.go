//go:build unix

package compile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// listingTree writes a tree of every layout discovery and loading tell
// apart: packages at the flow's three places, links (to a package's
// cinatra/, to a flow file, dangling, to a vendor directory), a FIFO and
// a directory at the flow's place, the skipped directories, and a
// package with sibling files of every kind.
func listingTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "agents")
	pkg := `{"name":"@acme/%s","version":"1.0.0"}`
	files := map[string]string{
		"_shared/cinatra/components.json":    `{}`,
		"acme/pkg/package.json":              fmt.Sprintf(pkg, "pkg"),
		"acme/pkg/cinatra/oas.json":          okFlow,
		"acme/pkg/cinatra.json":              `{"x":1}`,
		"acme/pkg/README.md":                 "hello\n",
		"acme/pkg/big.txt":                   strings.Repeat("a", SiblingMaxFileBytes+1),
		"acme/pkg/logo.png":                  "\x89PNG",
		"acme/pkg/skills/x/SKILL.md":         "skill\n",
		"acme/pkg/.env":                      "KEY=1\n",
		"acme/pkg/node_modules/dep/index.js": "x",
		"acme/legacy/package.json":           fmt.Sprintf(pkg, "legacy"),
		"acme/legacy/agent.json":             okFlow,
		"acme/legacy2/package.json":          fmt.Sprintf(pkg, "legacy2"),
		"acme/legacy2/cinatra/agent.json":    okFlow,
		"acme/linkcin/package.json":          fmt.Sprintf(pkg, "linkcin"),
		"acme/linkflow/package.json":         fmt.Sprintf(pkg, "linkflow"),
		"acme/dangling/package.json":         fmt.Sprintf(pkg, "dangling"),
		"acme/fifo/package.json":             fmt.Sprintf(pkg, "fifo"),
		"acme/cindir/cinatra/oas.json/x":     "x",
		"acme/nopkg/cinatra/oas.json":        okFlow,
		"vendor/notagent/cinatra/readme.md":  "x",
		"vendor/emptyvendor/.keep":           "",
		".hidden/pkg/cinatra/oas.json":       okFlow,
		"node_modules/pkg/cinatra/oas.json":  okFlow,
		"_shared/pkg/cinatra/oas.json":       okFlow,
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, lt := range [][2]string{
		{"acme/linkcin/cinatra", "../pkg/cinatra"},
		{"acme/linkflow/cinatra", ""}, // a directory holding a link
		{"acme/linkflow/cinatra/oas.json", "../../pkg/cinatra/oas.json"},
		{"acme/dangling/cinatra", ""},
		{"acme/dangling/cinatra/oas.json", "nowhere.json"},
		{"acme/pkg/link.md", "README.md"},
		{"linked", "acme"},
	} {
		link, to := lt[0], lt[1]
		p := filepath.Join(root, filepath.FromSlash(link))
		if to == "" {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(root, "acme", "fifo", "cinatra", "oas.json")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return root
}

// TestListingFindAgents: the discovery that keeps its listings finds what
// the walk with a stat per flow place finds, from every root and limit.
func TestListingFindAgents(t *testing.T) {
	root := listingTree(t)
	for _, r := range []string{root, root + "/", filepath.Join(root, "acme"), filepath.Join(root, "acme", "pkg"),
		filepath.Join(root, "vendor"), filepath.Join(root, "linked"), filepath.Join(root, "missing"),
		filepath.Join(root, "acme", "pkg", "README.md")} {
		for _, limit := range []int{0, 1, 3} {
			want, werr := FindAgents(r, limit)
			var each []string // the packages as the walk found them
			got, gerr := NewListing().FindAgents(r, limit, func(dir string) { each = append(each, dir) })
			if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) {
				t.Errorf("FindAgents(%s, %d): listing %q (%v), walk %q (%v)", r, limit, got, gerr, want, werr)
			}
			sort.Strings(each)
			if len(each) != len(got) || (len(got) > 0 && !reflect.DeepEqual(each, got)) {
				t.Errorf("FindAgents(%s, %d): each saw %q, returned %q", r, limit, each, got)
			}
		}
	}
	got, _ := NewListing().FindAgents(root, 0, nil)
	var rels []string
	for _, p := range got {
		rel, _ := filepath.Rel(root, p)
		rels = append(rels, filepath.ToSlash(rel))
	}
	want := []string{"acme/fifo", "acme/legacy", "acme/legacy2", "acme/linkcin", "acme/linkflow", "acme/nopkg", "acme/pkg"}
	if !reflect.DeepEqual(rels, want) {
		t.Errorf("agents %q, want %q", rels, want)
	}
}

// TestLoadWithListing: every agent of the tree loads the same with the
// listings of its discovery (and the working directory given) as without.
func TestLoadWithListing(t *testing.T) {
	root := listingTree(t)
	l := NewListing()
	dirs, err := l.FindAgents(root, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		want, werr := Load(dir, LoadOptions{})
		got, gerr := Load(dir, LoadOptions{Listing: l, WorkDir: wd})
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: error %v with the listing, %v without", dir, gerr, werr)
		}
		if werr != nil {
			continue
		}
		if g, w := loadedView(got), loadedView(want); g != w {
			t.Errorf("%s: with the listing\n%s\nwithout\n%s", dir, g, w)
		}
	}
	if rel, _ := filepath.Rel(root, dirs[len(dirs)-1]); rel != filepath.Join("acme", "pkg") {
		t.Fatalf("last agent %s", rel)
	}
}

// loadedView prints what a load found: its paths, findings, documents
// and sibling files.
func loadedView(a *Agent) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dir %s flow %s tree %s registry %s profile %s\n", a.Dir, a.FlowPath, a.TreeRoot, a.RegistryPath, a.Profile)
	for _, d := range []*Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
		if d == nil {
			b.WriteString("doc nil\n")
			continue
		}
		fmt.Fprintf(&b, "doc %s %q root %v\n", d.Path, d.Src, d.Root != nil)
	}
	for _, f := range a.Findings {
		fmt.Fprintf(&b, "finding %s %s %s %d:%d %d fixes\n", f.Code, f.File, f.Message, f.Line, f.Column, len(f.Fixes))
	}
	if s := a.Siblings; s != nil {
		fmt.Fprintf(&b, "siblings truncated %v dirs %q\n", s.Truncated, s.Dirs)
		for _, f := range s.Files {
			fmt.Fprintf(&b, "sibling %s %s size %d skipped %q lock %v data %q\n", f.Rel, f.Path, f.Size, f.Skipped, f.Lockfile, f.Data[:min(len(f.Data), 12)])
		}
	}
	return b.String()
}

// TestLoadTakesTheListing: loading asks the listing, not the disk, whether
// a package's file is there: a cinatra.json written after the listing is
// not seen with it (a run that changes files loads without one).
func TestLoadTakesTheListing(t *testing.T) {
	dir, _ := hostilePkg(t)
	l := NewListing()
	if got, err := l.FindAgents(filepath.Dir(filepath.Dir(dir)), 0, nil); err != nil || len(got) != 1 {
		t.Fatalf("found %q, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cinatra.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	with, err := Load(dir, LoadOptions{Listing: l})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if with.CinatraJSON != nil || without.CinatraJSON == nil {
		t.Fatalf("cinatra.json with the listing %v, without %v", with.CinatraJSON, without.CinatraJSON)
	}
	if n := len(with.Siblings.Files); n != 1 || with.Siblings.Files[0].Rel != "package.json" {
		t.Fatalf("siblings with the listing: %+v", with.Siblings.Files)
	}
	l.Forget(dir) // a package forgotten is asked of the disk again
	again, err := Load(dir, LoadOptions{Listing: l})
	if err != nil {
		t.Fatal(err)
	}
	if again.CinatraJSON == nil || len(again.Siblings.Files) != 2 {
		t.Fatalf("after Forget: cinatra.json %v, siblings %+v", again.CinatraJSON, again.Siblings.Files)
	}
}

// TestReadListedRegular: a file the listing showed regular is opened
// without a stat first; the fstat of the opened file still refuses a
// FIFO (without blocking) and a file over the limit, and a file is read
// whole.
func TestReadListedRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	withTimeout(t, "a FIFO listed as a regular file", func() {
		if _, err := readFileInto(fifo, 100, nil, true); !errors.Is(err, ErrNotRegular) {
			t.Errorf("FIFO: %v, want ErrNotRegular", err)
		}
	})
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	var tl *TooLargeError
	if _, err := readFileInto(big, 100, nil, true); !errors.As(err, &tl) || tl.Size != 101 {
		t.Errorf("over the limit: %v, want a TooLargeError of 101 bytes", err)
	}
	for _, n := range []int{0, 1, 100, 4096, 70000} {
		p := filepath.Join(dir, fmt.Sprint("f", n))
		want := bytes.Repeat([]byte("xyz"), n)[:n]
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, listed := range []bool{false, true} {
			got, err := readFileInto(p, 1<<20, &Blocks{}, listed)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%d bytes (listed %v): %d bytes, %v", n, listed, len(got), err)
			}
		}
	}
}
