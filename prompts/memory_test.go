package prompts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/compile"
)

// manyPlaceholders is the fixture agent with n distinct unresolved
// placeholders in both its system and user prompts (issue 26 item 14's
// hostile template, scaled down).
func manyPlaceholders(t *testing.T, n int) *compile.Agent {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "acme", "prompt-agent")
	for _, rel := range []string{"package.json", filepath.Join("cinatra", "oas.json")} {
		b, err := os.ReadFile(filepath.Join(fixture, rel))
		if err != nil {
			t.Fatal(err)
		}
		if rel != "package.json" {
			var ph strings.Builder
			for i := range n {
				fmt.Fprintf(&ph, "{{ p%d }} ", i)
			}
			s := strings.Replace(string(b), `"system": "You are a {{ tone }} writer.`, `"system": "`+ph.String()+`You are a {{ tone }} writer.`, 1)
			s = strings.Replace(s, `"user": "Topic: {{ topic }}`, `"user": "`+ph.String()+`Topic: {{ topic }}`, 1)
			if s == string(b) {
				t.Fatal("the fixture's prompts moved")
			}
			b = []byte(s)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return load(t, dir, compile.LoadOptions{})
}

// TestManyPlaceholdersShared: what each of many placeholders holds is
// its own only where it differs — the role list and an unresolved
// placeholder's detail are shared — and a report that cleaning leaves as
// it is shares its segments and placeholders with the clean copy the
// faces print, instead of doubling them.
func TestManyPlaceholdersShared(t *testing.T) {
	r := Build(Input{Agent: manyPlaceholders(t, 2000)})
	var n *NodePrompt
	for _, x := range r.Nodes {
		if len(x.Placeholders) > 2000 {
			n = x
		}
	}
	if n == nil {
		t.Fatal("no node with the placeholders")
	}
	a, b := n.Placeholders[0], n.Placeholders[1]
	if a.Name != "p0" || len(a.Roles) != 2 || a.Provenance.Kind != FromUnresolved || b.Provenance.Kind != FromUnresolved {
		t.Fatalf("placeholders %+v %+v", a, b)
	}
	if &a.Roles[0] != &b.Roles[0] {
		t.Error("each placeholder holds its own role list")
	}
	if unsafe.StringData(a.Provenance.Detail) != unsafe.StringData(b.Provenance.Detail) {
		t.Error("each unresolved placeholder holds its own detail")
	}
	c := r.Presented(func(s string) string { return s })
	for i, cn := range c.Nodes {
		rn := r.Nodes[i]
		if len(rn.Placeholders) > 0 && &cn.Placeholders[0] != &rn.Placeholders[0] {
			t.Errorf("node %s: the clean copy copies placeholders cleaning did not change", rn.ID)
		}
		for j, tp := range cn.Templates {
			if len(tp.Segments) > 0 && &tp.Segments[0] != &rn.Templates[j].Segments[0] {
				t.Errorf("node %s: the clean copy copies segments cleaning did not change", rn.ID)
			}
		}
	}
	// a change is still copied, not written into the report
	up := r.Presented(strings.ToUpper)
	if n.Placeholders[0].Name != "p0" || up.Nodes[indexOf(r.Nodes, n)].Placeholders[0].Name != "P0" {
		t.Error("Clean with a change")
	}
}

func indexOf(ns []*NodePrompt, n *NodePrompt) int {
	for i, x := range ns {
		if x == n {
			return i
		}
	}
	return -1
}
