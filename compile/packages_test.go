package compile

import (
	"path/filepath"
	"testing"
)

// TestSharedPackageIndex: child look-ups through a shared index
// (LoadOptions.Packages, built once by ScanPackages) find what the
// per-agent scan finds; an index of another tree is not used.
func TestSharedPackageIndex(t *testing.T) {
	root := writeTree(t, map[string]string{
		"agents/v/parent/cinatra/oas.json": minimalFlow,
		"agents/v/parent/package.json":     `{"name":"@v/parent"}`,
		"agents/w/kid/cinatra/oas.json":    minimalFlow,
		"agents/w/kid/package.json":        `{"name":"@v/kid"}`,
	})
	tree := filepath.Join(root, "agents")
	if got := TreeRoot(filepath.Join(tree, "v", "parent")); got != tree {
		t.Fatalf("TreeRoot = %s, want %s", got, tree)
	}
	idx := ScanPackages(tree)
	if idx.ByName["@v/kid"] != filepath.Join(tree, "w", "kid") {
		t.Fatalf("index: %v", idx.ByName)
	}
	a, err := Load(filepath.Join(tree, "v", "parent"), LoadOptions{Packages: idx})
	if err != nil {
		t.Fatal(err)
	}
	if kid, err := a.FindAgent("@v/kid"); err != nil || kid.Dir != filepath.Join(tree, "w", "kid") {
		t.Errorf("FindAgent through the shared index: %v %v", kid, err)
	}
	// An index of another tree is ignored: the agent scans its own.
	other := &PackageIndex{Root: "/elsewhere/agents", ByName: map[string]string{}}
	b, _ := Load(filepath.Join(tree, "v", "parent"), LoadOptions{Packages: other})
	if _, err := b.FindAgent("@v/kid"); err != nil {
		t.Errorf("an index of another tree was used: %v", err)
	}
}
