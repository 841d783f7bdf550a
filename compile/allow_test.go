package compile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LoadOptions.Allow is asked before every file loading reads, with the
// real path: the flow file, package.json, the registry, the siblings and
// the files of a child agent whose package directory is a symlink out of
// the allowed directory are not read, and the child agents inherit it.
func TestAllow(t *testing.T) {
	root := writeTree(t, map[string]string{
		"in/agents/v/a/cinatra/oas.json": minimalFlow,
		"in/agents/v/a/package.json":     `{"name":"a"}`,
		"in/agents/v/a/README.md":        "readme",
		"out/b/cinatra/oas.json":         minimalFlow,
		"out/b/package.json":             `{"name":"b"}`,
		"out/components.json":            `{"components":{}}`,
		"out/notes.md":                   "outside",
	})
	root, _ = filepath.EvalSymlinks(root)
	in := filepath.Join(root, "in")
	for link, target := range map[string]string{
		"in/agents/b": "out/b",
		"in/agents/_shared/cinatra/components.json": "out/components.json",
		"in/agents/v/a/notes.md":                    "out/notes.md",
	} {
		p := filepath.Join(root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, filepath.FromSlash(target)), p); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	errOut := errors.New("outside")
	var asked, refused []string
	allow := func(p string) error {
		asked = append(asked, p)
		if !strings.HasPrefix(p, in+string(filepath.Separator)) {
			refused = append(refused, p)
			return errOut
		}
		return nil
	}
	a, err := Load(filepath.Join(in, "agents", "v", "a"), LoadOptions{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	if a.Flow.Src == nil || a.Package.Src == nil {
		t.Fatalf("the files inside were not read")
	}
	if a.Registry == nil || a.Registry.Src != nil {
		t.Errorf("the registry outside was read: %+v", a.Registry)
	}
	for _, f := range a.Siblings.Files {
		if f.Rel == "notes.md" && f.Data != nil {
			t.Errorf("the sibling outside was read")
		}
	}
	if c, err := a.FindAgent("b"); err == nil && c.Flow != nil && c.Flow.Src != nil {
		t.Errorf("the child agent outside was read: %s", c.FlowPath)
	}
	wantRefused := []string{filepath.Join(root, "out", "components.json"), filepath.Join(root, "out", "b", "cinatra", "oas.json")}
	for _, w := range wantRefused {
		found := false
		for _, r := range refused {
			found = found || r == w
		}
		if !found {
			t.Errorf("Allow was not asked about %s (asked %v)", w, asked)
		}
	}
}
