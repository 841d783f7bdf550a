package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// leafWithPrompt copies testdata/agents (registry and the leaf agent) and
// gives the leaf's flow a legacy metadata.cinatra.prompt; sp replaces the
// Agent's system_prompt member ("" drops it). It returns the package
// directory and the flow's path.
func leafWithPrompt(t *testing.T, sp string) (dir, flow string) {
	t.Helper()
	root := t.TempDir()
	for _, rel := range []string{"_shared", filepath.Join("oastui", "leaf-agent")} {
		cp := copyFixture(t, filepath.Join("..", "testdata", "agents", rel))
		dst := filepath.Join(root, "agents", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(cp, dst); err != nil {
			t.Fatal(err)
		}
	}
	dir = filepath.Join(root, "agents", "oastui", "leaf-agent")
	flow = filepath.Join(dir, "cinatra", "oas.json")
	b, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	const spLine = `      "system_prompt": "You write a concise, factual summary of {{ topic }} in at most five sentences. Cite the sources you used.",` + "\n"
	const meta = `      "type": "leaf",` + "\n"
	if !strings.Contains(s, spLine) || !strings.Contains(s, meta) {
		t.Fatal("leaf-agent fixture changed: update this test")
	}
	if sp != "" {
		sp = `      "system_prompt": ` + sp + ",\n"
	}
	s = strings.Replace(s, spLine, sp, 1)
	s = strings.Replace(s, meta, meta+`      "prompt": "You write a concise summary of {{ topic }}.",`+"\n", 1)
	if err := os.WriteFile(flow, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, flow
}

// TestLegacyPromptMoveFix: metadata.cinatra.prompt moves into the only
// Agent's system_prompt when that is absent or empty; the finding is gone,
// no other appears, and the compiled prompt is the moved text.
func TestLegacyPromptMoveFix(t *testing.T) {
	for name, sp := range map[string]string{"absent": "", "empty": `""`} {
		t.Run(name, func(t *testing.T) {
			dir, flow := leafWithPrompt(t, sp)
			a, before := reviewDir(t, dir)
			var fixes []edit.Fix
			for _, f := range before {
				if f.Code == RuleLegacyField.Code && f.Location == "/metadata/cinatra/prompt" {
					fixes = f.Fixes
				}
			}
			if len(fixes) != 1 || !strings.Contains(fixes[0].Title, "system_prompt") {
				t.Fatalf("fixes = %+v", fixes)
			}
			if _, err := edit.Plan([]edit.Candidate{{ID: "x", Fixes: fixes}}).Write(loadedSources(a)); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(flow)
			if strings.Contains(string(got), `"prompt"`) || !strings.Contains(string(got), `"system_prompt": "You write a concise summary of {{ topic }}."`) {
				t.Fatalf("fixed flow:\n%s", got)
			}
			a2, after := reviewDir(t, dir)
			cb, ca := codeCounts(before), codeCounts(after)
			if ca[RuleLegacyField.Code] != 0 {
				t.Errorf("still reported:\n%s", renderRuleFindings(after, RuleLegacyField.Code))
			}
			for code, n := range ca {
				if n > cb[code] {
					t.Errorf("new %s finding:\n%s", code, renderRuleFindings(after, code))
				}
			}
			out, err := compile.Compile(a2)
			if err != nil || out.Prompt == nil || *out.Prompt != "You write a concise summary of {{ topic }}." {
				t.Errorf("compiled prompt %v (%v)", out.Prompt, err)
			}
		})
	}
}

// TestLegacyPromptNoFix: no move when the Agent already has a prompt
// (merging two texts is the author's).
func TestLegacyPromptNoFix(t *testing.T) {
	dir, _ := leafWithPrompt(t, `"Already here."`)
	_, found := reviewDir(t, dir)
	seen := false
	for _, f := range found {
		if f.Code == RuleLegacyField.Code && f.Location == "/metadata/cinatra/prompt" {
			seen = true
			if len(f.Fixes) != 0 {
				t.Errorf("fix offered over an existing system_prompt: %+v", f.Fixes)
			}
		}
	}
	if !seen {
		t.Fatal("legacy_field not reported on prompt")
	}
}
