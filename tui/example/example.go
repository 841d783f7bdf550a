// Package example embeds the bundled example agent that `oastui` opens when
// it is started without a PATH in a directory that holds no agent. A user's
// `go install`ed binary has no testdata directory, so the files travel in
// the binary, with the demo context catalog (testdata/.oastui/catalog.json)
// so that the Slots tab's picker has candidates. TestEmbeddedMatchesTestdata
// keeps these copies identical to testdata (run `go generate ./tui/example`
// after changing them).
package example

//go:generate sh -c "rm -rf agent && cp -r ../../testdata/agents/oastui/example-agent agent && cp ../../testdata/.oastui/catalog.json catalog.json"

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed all:agent
var files embed.FS

//go:embed catalog.json
var catalog []byte

// FS is the example agent package (package.json, cinatra/oas.json, …).
func FS() fs.FS {
	sub, err := fs.Sub(files, "agent")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}

// Materialize writes the example into a fresh temporary directory laid out
// as agents/oastui/example-agent (so that the loader finds an agents/ tree),
// with the demo catalog at .oastui/catalog.json of that workspace, and returns the package directory and a function removing it all.
func Materialize() (dir string, cleanup func(), err error) {
	root, err := os.MkdirTemp("", "oastui-example-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(root) }
	dir = filepath.Join(root, "agents", "oastui", "example-agent")
	err = fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err == nil {
		cat := filepath.Join(root, ".oastui", "catalog.json")
		if err = os.MkdirAll(filepath.Dir(cat), 0o755); err == nil {
			err = os.WriteFile(cat, catalog, 0o644)
		}
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}
