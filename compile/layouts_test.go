package compile

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// TestCorpusBothLayouts: every corpus agent compiles to the same bytes in
// the agents/ layout of the pin and in today's extensions/ layout (beside
// packages that are not agents), with the same load findings and the
// tree's registry read by path in both; the tree walk finds exactly the 25
// agents and passes the other packs over.
func TestCorpusBothLayouts(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	ext := testshared.ExtensionsTree(t)

	found, err := FindAgents(ext, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != len(slugs) {
		t.Fatalf("FindAgents(extensions) found %d packages, want the %d agents: %v", len(found), len(slugs), found)
	}
	for i, slug := range slugs {
		if found[i] != filepath.Join(ext, "cinatra-ai", slug) {
			t.Errorf("found[%d] = %s, want %s", i, found[i], slug)
		}
	}

	for _, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			old, err := Load(filepath.Join(dir, "agents", "cinatra-ai", slug), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			now, err := Load(filepath.Join(ext, "cinatra-ai", slug), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(ext, "_shared", "cinatra", "components.json"); now.RegistryPath != want {
				t.Errorf("registry %q, want %q", now.RegistryPath, want)
			}
			if now.TreeRoot != ext {
				t.Errorf("tree root %q, want %q", now.TreeRoot, ext)
			}
			if g, w := compiledBytes(t, now), compiledBytes(t, old); !bytes.Equal(g, w) {
				t.Errorf("compiled output differs between the layouts:\nextensions/: %s\nagents/:     %s", g, w)
			}
			if len(now.Findings) != len(old.Findings) {
				t.Errorf("%d load findings in extensions/, %d in agents/", len(now.Findings), len(old.Findings))
			}
		})
	}
}

// TestExtensionsBrokenRegistry: a broken extensions/_shared registry is the
// registry (its invalid_json finding, named by path), never replaced by
// the built-in one in the compile.
func TestExtensionsBrokenRegistry(t *testing.T) {
	root := writeTree(t, map[string]string{
		"extensions/_shared/cinatra/components.json": `{"components": {`,
		"extensions/acme/a/package.json":             `{"name":"@acme/a","version":"1.0.0"}`,
		"extensions/acme/a/cinatra/oas.json":         minimalFlow,
	})
	a, err := Load(filepath.Join(root, "extensions", "acme", "a"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(root, "extensions", "_shared", "cinatra", "components.json")
	if a.RegistryPath != reg {
		t.Fatalf("registry %q, want %q", a.RegistryPath, reg)
	}
	named := false
	for _, f := range a.Findings {
		named = named || f.File == reg && f.Code == "invalid_json"
	}
	if !named {
		t.Errorf("no invalid_json finding on %s: %+v", reg, a.Findings)
	}
	c := &compiler{a: a}
	c.root = a.Flow.Root
	if err := c.registries(); err != nil {
		t.Fatal(err)
	}
	if c.reg != nil {
		t.Errorf("the compile resolves against %v, want the empty registry of a broken file", c.reg)
	}
}

// TestFindAgentLegacySlug: the compiler's legacy slug map resolves a child
// whose older package directory has another name (drupal-agent at
// <tree>/drupal-content-editor), in both tree layouts, when no package.json
// carries the name.
func TestFindAgentLegacySlug(t *testing.T) {
	for _, tree := range TreeDirNames {
		t.Run(tree, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				tree + "/acme/parent/package.json":                  `{"name":"@acme/parent","version":"1.0.0"}`,
				tree + "/acme/parent/cinatra/oas.json":              `{"component_type":"Flow"}`,
				tree + "/drupal-content-editor/cinatra/agent.json":  `{"component_type":"Flow","id":"legacy-drupal"}`,
				tree + "/wordpress-content-editor/agent.json":       `{"component_type":"Flow","id":"legacy-wordpress"}`,
				tree + "/cinatra-ai/wordpress-agent/cinatra/x.json": `{}`,
			})
			a, err := Load(filepath.Join(root, tree, "acme", "parent"), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string]string{"@cinatra-ai/drupal-agent": "drupal-content-editor", "@cinatra-ai/wordpress-agent": "wordpress-content-editor"} {
				c, err := a.FindAgent(name)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if filepath.Base(c.Dir) != want {
					t.Errorf("%s resolved to %s, want %s", name, c.Dir, want)
				}
			}
			if _, err := a.FindAgent("@cinatra-ai/joomla-agent"); err == nil {
				t.Errorf("a slug outside the map resolved")
			}
		})
	}
}
