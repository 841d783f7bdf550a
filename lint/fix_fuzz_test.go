package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// FuzzFixesKeepJSON reviews a mutated agent (flow file and package.json),
// applies the batch of first fixes and each fix alone, and checks that
// every file that parsed still parses. The seeds are the err fixtures of
// the fixable rules; they run in the normal test run.
func FuzzFixesKeepJSON(f *testing.F) {
	for _, c := range [][2]string{{"package_version_oas_pkg_drift", "package-drift-license-name"}, {"agent_package_missing_license", "package-license-empty"},
		{"llm_bridge_missing_agent_id", "bridge-nested"}, {"start_node_inputs_without_required", "startnode-nested-inline"}} {
		dir, base := c[1], ruleCase("err", c[0], c[1])
		flow, err1 := os.ReadFile(filepath.Join(base, "cinatra", "oas.json"))
		pkg, err2 := os.ReadFile(filepath.Join(base, "package.json"))
		if err1 != nil || err2 != nil {
			f.Fatalf("seed %s: %v %v", dir, err1, err2)
		}
		f.Add(flow, pkg)
	}
	slot := ruleCase("err", "context_slot_not_wired", "context-resolve-url-not-exact") // the slot wiring fix
	slotFlow, err1 := os.ReadFile(filepath.Join(slot, "cinatra", "oas.json"))
	slotPkg, err2 := os.ReadFile(filepath.Join(slot, "package.json"))
	if err1 != nil || err2 != nil {
		f.Fatalf("seed %s: %v %v", slot, err1, err2)
	}
	f.Add(slotFlow, slotPkg)
	legacy, err := os.ReadFile(ruleCase("err", "legacy_field", "oas.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(legacy, []byte(`{"name": "@a/b", "version": "1.0.0"}`))
	f.Fuzz(func(t *testing.T, flow, pkg []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), flow, 0o644)
		os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644)
		a, err := compile.Load(dir, compile.LoadOptions{NoSiblings: true})
		if err != nil {
			return
		}
		src := loadedSources(a)
		var cands []edit.Candidate
		for _, fd := range review(a, Options{Config: &Config{}}).Findings {
			for _, x := range fd.Fixes {
				for _, p := range x.Files() {
					out, err := edit.Apply(src[p], edit.EditsOf(x.Edits, p))
					if err != nil {
						t.Fatalf("%s %q: %v", fd.Code, x.Title, err)
					}
					if _, err := compile.Parse(out); err != nil {
						t.Fatalf("%s %q: %s no longer parses: %v\n%s", fd.Code, x.Title, p, err, out)
					}
				}
			}
			cands = append(cands, edit.Candidate{ID: fd.Code, Fixes: fd.Fixes})
		}
		res, err := edit.Plan(cands).Result(src)
		if err != nil {
			t.Fatal(err)
		}
		for p, out := range res {
			if _, err := compile.Parse(out); err != nil {
				t.Fatalf("batch: %s no longer parses: %v\n%s", p, err, out)
			}
		}
	})
}
