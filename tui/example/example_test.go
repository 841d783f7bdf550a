package example

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestMaterialize(t *testing.T) {
	dir, cleanup, err := Materialize()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	for _, f := range []string{"package.json", "cinatra/oas.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "..", "..", "..", ".oastui", "catalog.json")); err != nil {
		t.Error(err)
	}
	if filepath.Base(filepath.Dir(filepath.Dir(dir))) != "agents" {
		t.Errorf("not under an agents/ tree: %s", dir)
	}
}

// TestEmbeddedMatchesTestdata keeps the embedded copy in step with the
// example in testdata.
func TestEmbeddedMatchesTestdata(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "agents", "oastui", "example-agent")
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("the bundled example is missing from testdata: %v", err)
	}
	seen := map[string]bool{}
	fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		seen[p] = true
		want, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("%s embedded but not in testdata: run go generate ./tui/example", p)
			return nil
		}
		got, _ := fs.ReadFile(FS(), p)
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata: run go generate ./tui/example", p)
		}
		return nil
	})
	if want, err := os.ReadFile(filepath.Join("..", "..", "testdata", ".oastui", "catalog.json")); err == nil && !bytes.Equal(want, catalog) {
		t.Error("catalog.json differs from testdata/.oastui/catalog.json: run go generate ./tui/example")
	}
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if !seen[filepath.ToSlash(rel)] {
			t.Errorf("%s in testdata but not embedded: run go generate ./tui/example", rel)
		}
		return nil
	})
}
