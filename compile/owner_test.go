package compile

import (
	"path/filepath"
	"testing"
)

// OwnerOf: a package.json or cinatra.json belongs to its package's agent;
// the flow file a package's loading finds is loaded as the package (its
// legacy place included), one shadowed by an earlier place as itself; an
// Agent Spec document anywhere is its own agent; anything else has none.
// An open buffer (the overlay) counts as the file.
func TestOwnerOf(t *testing.T) {
	legacy := writePkg(t, map[string]string{"package.json": `{"name":"@acme/legacy"}`, "agent.json": `{"component_type": "Flow"}`})
	both := writePkg(t, map[string]string{"package.json": `{"name":"@acme/both"}`, "cinatra/oas.json": `{}`, "agent.json": `{"component_type": "Flow"}`})
	other := t.TempDir()
	j := func(p ...string) string { return filepath.Join(p...) }
	buffer := j(other, "pkg", "cinatra", "oas.json") // open, not on disk
	overlay := map[string][]byte{buffer: []byte(`{}`), j(other, "pkg", "package.json"): []byte(`{}`), j(other, "doc.yaml"): []byte("component_type: Flow\n")}
	for _, c := range []struct {
		path       string
		flow, load string // "" flow: no owner
	}{
		{j(legacy, "package.json"), j(legacy, "agent.json"), legacy},
		{j(legacy, "cinatra.json"), j(legacy, "agent.json"), legacy},
		{j(legacy, "agent.json"), j(legacy, "agent.json"), legacy},
		{j(both, "cinatra", "oas.json"), j(both, "cinatra", "oas.json"), both},
		{j(both, "agent.json"), j(both, "agent.json"), j(both, "agent.json")}, // shadowed by cinatra/oas.json
		{buffer, buffer, j(other, "pkg")},
		{j(other, "pkg", "package.json"), buffer, j(other, "pkg")},
		{j(other, "doc.yaml"), j(other, "doc.yaml"), j(other, "doc.yaml")},
		{j(other, "tsconfig.json"), "", ""},
		{j(legacy, "README.md"), "", ""},
		{j(other, "nothing", "package.json"), "", ""},
	} {
		o, ok := OwnerOf(c.path, overlay)
		if ok != (c.flow != "") || o.Flow != c.flow || o.Load != c.load {
			t.Errorf("%s: %+v %v, want flow %q load %q", c.path, o, ok, c.flow, c.load)
		}
	}
}
