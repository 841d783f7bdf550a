package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// overlayTree writes agents/acme/a (package.json, cinatra/oas.json,
// notes.txt), agents/acme/b (a child agent) and the tree's registry.
func overlayTree(t *testing.T) (root, pkg string) {
	t.Helper()
	root = t.TempDir()
	pkg = filepath.Join(root, "agents", "acme", "a")
	files := map[string]string{
		"agents/acme/a/package.json":             `{"name":"@acme/a","version":"1.0.0"}`,
		"agents/acme/a/cinatra/oas.json":         `{"disk":"flow"}`,
		"agents/acme/a/notes.txt":                "disk notes\n",
		"agents/acme/b/package.json":             `{"name":"@acme/b","version":"1.0.0"}`,
		"agents/acme/b/cinatra/oas.json":         `{"disk":"child"}`,
		"agents/_shared/cinatra/components.json": `{"disk":"registry"}`,
		"elsewhere/package.json":                 `{"name":"elsewhere"}`,
	}
	for rel, data := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, pkg
}

func hasFinding(a *Agent, code string) bool {
	for _, f := range a.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

func siblingData(a *Agent, rel string) string {
	if a.Siblings == nil {
		return "<no siblings>"
	}
	for _, f := range a.Siblings.Files {
		if f.Rel == rel {
			return string(f.Data)
		}
	}
	return "<absent>"
}

func TestLoadOverlay(t *testing.T) {
	root, pkg := overlayTree(t)
	flow := filepath.Join(pkg, "cinatra", "oas.json")
	newFlow := filepath.Join(pkg, "cinatra", "draft.json") // not on disk
	big := bytes.Repeat([]byte(" "), MaxFileBytes+1)
	relFlow, err := filepath.Rel(mustGetwd(t), flow)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		path    string
		opts    LoadOptions
		wantErr bool
		check   func(t *testing.T, a *Agent)
	}{
		{name: "no overlay reads the disk", path: flow, check: func(t *testing.T, a *Agent) {
			if string(a.Flow.Src) != `{"disk":"flow"}` || a.Dir != pkg {
				t.Errorf("flow %q, dir %q", a.Flow.Src, a.Dir)
			}
		}},
		{name: "overlaid flow file replaces the disk, package context kept", path: flow,
			opts: LoadOptions{Overlay: map[string][]byte{flow: []byte(`{"mem":"flow"}`)}},
			check: func(t *testing.T, a *Agent) {
				if string(a.Flow.Src) != `{"mem":"flow"}` {
					t.Errorf("flow %q", a.Flow.Src)
				}
				if a.Dir != pkg || a.Package == nil || a.Profile != ProfileCinatra || string(a.Registry.Src) != `{"disk":"registry"}` {
					t.Errorf("dir %q, package %v, profile %q, registry %v", a.Dir, a.Package != nil, a.Profile, a.Registry)
				}
			}},
		{name: "relative overlay key matches the absolute path", path: flow,
			opts: LoadOptions{Overlay: map[string][]byte{relFlow: []byte(`{"rel":1}`)}},
			check: func(t *testing.T, a *Agent) {
				if string(a.Flow.Src) != `{"rel":1}` {
					t.Errorf("flow %q", a.Flow.Src)
				}
			}},
		{name: "overlaid file not on disk gets its package context", path: newFlow,
			opts: LoadOptions{Overlay: map[string][]byte{newFlow: []byte(`{"new":1}`)}},
			check: func(t *testing.T, a *Agent) {
				if string(a.Flow.Src) != `{"new":1}` || a.Dir != pkg || a.Package == nil || a.TreeRoot == "" {
					t.Errorf("flow %q, dir %q, package %v, tree %q", a.Flow.Src, a.Dir, a.Package != nil, a.TreeRoot)
				}
			}},
		{name: "missing path without overlay is an error", path: newFlow, wantErr: true},
		{name: "package directory whose flow file is only overlaid", path: filepath.Join(root, "agents", "acme", "c"),
			opts: LoadOptions{Overlay: map[string][]byte{
				filepath.Join(root, "agents", "acme", "c", "cinatra", "oas.json"): []byte(`{"c":1}`),
				filepath.Join(root, "agents", "acme", "c", "package.json"):        []byte(`{"name":"@acme/c"}`),
			}},
			check: func(t *testing.T, a *Agent) {
				if string(a.Flow.Src) != `{"c":1}` || a.Package == nil || string(a.Package.Src) != `{"name":"@acme/c"}` {
					t.Errorf("flow %q, package %v", a.Flow.Src, a.Package)
				}
			}}, // needs the directory on disk: created below
		{name: "overlaid package.json, registry and sibling", path: flow,
			opts: LoadOptions{Overlay: map[string][]byte{
				filepath.Join(pkg, "package.json"):                                     []byte(`{"name":7}`),
				filepath.Join(root, "agents", "_shared", "cinatra", "components.json"): []byte(`{"mem":"registry"}`),
				filepath.Join(pkg, "notes.txt"):                                        []byte("mem notes\n"),
			}},
			check: func(t *testing.T, a *Agent) {
				if !hasFinding(a, "package_json_invalid") {
					t.Errorf("overlaid package.json not used: %v", a.Findings)
				}
				if string(a.Registry.Src) != `{"mem":"registry"}` {
					t.Errorf("registry %q", a.Registry.Src)
				}
				if got := siblingData(a, "notes.txt"); got != "mem notes\n" {
					t.Errorf("sibling %q", got)
				}
				if got := siblingData(a, "package.json"); got != `{"name":7}` {
					t.Errorf("sibling package.json %q", got)
				}
			}},
		{name: "overlaid file over the limit is refused unread", path: flow,
			opts: LoadOptions{Overlay: map[string][]byte{flow: big}},
			check: func(t *testing.T, a *Agent) {
				if a.Flow.Src != nil || !hasFinding(a, "invalid_json") || !strings.Contains(a.Findings[len(a.Findings)-1].Message, "beyond") {
					t.Errorf("over-limit overlay: %v", a.Findings)
				}
			}},
		{name: "bare flow file: no package context", path: filepath.Join(root, "elsewhere", "<stdin>"),
			opts: LoadOptions{Bare: true, Overlay: map[string][]byte{filepath.Join(root, "elsewhere", "<stdin>"): []byte(`{}`)}},
			check: func(t *testing.T, a *Agent) {
				if a.Dir != "" || a.Package != nil || a.Registry != nil || a.Profile != ProfileAgentSpec {
					t.Errorf("dir %q, package %v, registry %v, profile %q", a.Dir, a.Package != nil, a.Registry != nil, a.Profile)
				}
			}},
		{name: "without Bare the same place has a package", path: filepath.Join(root, "elsewhere", "<stdin>"),
			opts: LoadOptions{Overlay: map[string][]byte{filepath.Join(root, "elsewhere", "<stdin>"): []byte(`{}`)}},
			check: func(t *testing.T, a *Agent) {
				if a.Dir == "" || a.Package == nil {
					t.Errorf("dir %q, package %v", a.Dir, a.Package != nil)
				}
			}},
	}
	if err := os.MkdirAll(filepath.Join(root, "agents", "acme", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Load(tc.path, tc.opts)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if tc.check != nil {
				tc.check(t, a)
			}
		})
	}
}

// A child agent found through the tree is loaded with the same overlay.
func TestLoadOverlayChildAgents(t *testing.T) {
	root, pkg := overlayTree(t)
	childFlow := filepath.Join(root, "agents", "acme", "b", "cinatra", "oas.json")
	a, err := Load(pkg, LoadOptions{Overlay: map[string][]byte{
		childFlow: []byte(`{"mem":"child"}`),
		filepath.Join(root, "agents", "acme", "b", "package.json"): []byte(`{"name":"@acme/renamed"}`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.FindAgent("@acme/b"); err == nil {
		t.Errorf("@acme/b found under the name the overlay replaced")
	}
	c, err := a.FindAgent("@acme/renamed")
	if err != nil {
		t.Fatal(err)
	}
	if string(c.Flow.Src) != `{"mem":"child"}` {
		t.Errorf("child flow %q", c.Flow.Src)
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
