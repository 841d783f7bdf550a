package compile

import (
	"os"
	"path/filepath"
	"testing"
)

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The agents of one run share one read of the tree's registry, findings
// included; a loading with an overlay reads its own.
func TestRegistryCacheSharesTheRegistry(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "agents")
	writeTestFile(t, filepath.Join(tree, "_shared", "cinatra", "components.json"), `{"components": {}, "x": 1, "x": 2}`)
	var dirs []string
	for _, name := range []string{"one", "two"} {
		dir := filepath.Join(tree, "acme", name)
		writeTestFile(t, filepath.Join(dir, "package.json"), `{"name": "@acme/`+name+`", "version": "1.0.0"}`)
		writeTestFile(t, filepath.Join(dir, "cinatra", "oas.json"), `{"component_type": "Flow", "name": "`+name+`"}`)
		dirs = append(dirs, dir)
	}
	cache := NewRegistryCache()
	var agents []*Agent
	for _, d := range dirs {
		a, err := Load(d, LoadOptions{Registries: cache})
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	plain, err := Load(dirs[0], LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if agents[0].Registry == nil || agents[0].Registry != agents[1].Registry {
		t.Fatalf("registry not shared: %p %p", agents[0].Registry, agents[1].Registry)
	}
	if agents[0].Registry == plain.Registry || string(agents[0].Registry.Src) != string(plain.Registry.Src) {
		t.Fatal("the shared registry differs from a plain read")
	}
	if agents[0].RegistryPath != plain.RegistryPath {
		t.Fatalf("registry path %q, want %q", agents[0].RegistryPath, plain.RegistryPath)
	}
	for _, a := range agents {
		if len(a.Findings) != len(plain.Findings) {
			t.Fatalf("findings %v, want %v", a.Findings, plain.Findings)
		}
		for i := range a.Findings {
			if a.Findings[i].Code != plain.Findings[i].Code || a.Findings[i].Message != plain.Findings[i].Message {
				t.Fatalf("finding %d: %+v, want %+v", i, a.Findings[i], plain.Findings[i])
			}
		}
	}
	if n := len(agents[1].Findings); n == 0 {
		t.Fatal("the second agent lost the registry's duplicate-key finding")
	}
	ov, err := Load(dirs[1], LoadOptions{Registries: cache, Overlay: map[string][]byte{filepath.Join(dirs[1], "cinatra", "oas.json"): []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if ov.Registry == agents[0].Registry {
		t.Fatal("a loading with an overlay used the shared registry")
	}
}
