package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// corpusBreak is a scripted breakage of a corpus agent that one fix
// repairs: break edits the bytes of file (relative to the package) and
// says whether it applies; restores says the fix gives the original bytes
// back exactly.
type corpusBreak struct {
	name, file, code string
	brk              func(src []byte) ([]byte, bool)
	restores         bool
}

var (
	reCinatraOpen = regexp.MustCompile(`"cinatra": \{\n( *)`)
	rePackageName = regexp.MustCompile(`("packageName": ")[^"]*(")`)
	reLicenseLine = regexp.MustCompile(`\n *"license": "[^"]*",`)
	reBridgeAgent = regexp.MustCompile(`("agent_id": ")[^"{]+(")`)
	reAgentDeps   = regexp.MustCompile(`("agentDependencies": \{)\s*"@cinatra-ai/context-selection-agent": "[^"]*"\s*(\})`)
	reDepsLast    = regexp.MustCompile(`,\s*\{\s*"packageName": "@cinatra-ai/context-selection-agent",[^}]*\{[^}]*\}[^}]*\}`)
	reDepsEntry   = regexp.MustCompile(`\{\s*"packageName": "@cinatra-ai/context-selection-agent",[^}]*\{[^}]*\}[^}]*\},\s*`)
)

var corpusBreaks = []corpusBreak{
	{name: "context-selection agentDependencies emptied", file: "package.json", code: "context_slot_dependency_missing",
		brk: func(src []byte) ([]byte, bool) {
			loc := reAgentDeps.FindSubmatchIndex(src)
			if loc == nil {
				return nil, false
			}
			out := append(append([]byte{}, src[:loc[3]]...), src[loc[4]:]...)
			if bytes.Count(out, []byte("@cinatra-ai/context-selection-agent")) > 0 { // also in dependencies[]
				e := reDepsEntry.FindIndex(out)
				if e == nil {
					e = reDepsLast.FindIndex(out)
				}
				if e == nil {
					return nil, false
				}
				out = append(append([]byte{}, out[:e[0]]...), out[e[1]:]...)
			}
			return out, true
		}},
	{name: "context-selection dependencies entry removed", file: "package.json", code: "context_slot_dependency_missing",
		brk: func(src []byte) ([]byte, bool) {
			loc := reDepsEntry.FindIndex(src)
			if loc == nil {
				return nil, false
			}
			return append(append([]byte{}, src[:loc[0]]...), src[loc[1]:]...), true
		}},
	{name: "legacy field added", file: "cinatra/oas.json", code: "legacy_field", restores: true,
		brk: func(src []byte) ([]byte, bool) {
			loc := reCinatraOpen.FindSubmatchIndex(src)
			if loc == nil {
				return nil, false
			}
			ind := string(src[loc[2]:loc[3]])
			out := append([]byte{}, src[:loc[1]]...)
			out = append(out, `"formatVersion": 1,`+"\n"+ind...)
			return append(out, src[loc[1]:]...), true
		}},
	{name: "packageName changed", file: "cinatra/oas.json", code: "package_name_mismatch", restores: true,
		brk: func(src []byte) ([]byte, bool) {
			loc := rePackageName.FindSubmatchIndex(src)
			if loc == nil {
				return nil, false
			}
			return append(append(append([]byte{}, src[:loc[3]]...), "@someone/else"...), src[loc[4]:]...), true
		}},
	{name: "license removed", file: "package.json", code: "agent_package_missing_license",
		brk: func(src []byte) ([]byte, bool) {
			loc := reLicenseLine.FindIndex(src)
			if loc == nil {
				return nil, false
			}
			return append(append([]byte{}, src[:loc[0]]...), src[loc[1]:]...), true
		}},
	{name: "bridge agent_id emptied", file: "cinatra/oas.json", code: "llm_bridge_missing_agent_id",
		brk: func(src []byte) ([]byte, bool) {
			loc := reBridgeAgent.FindSubmatchIndex(src)
			if loc == nil || !bytes.Contains(src, []byte("/api/llm-bridge")) {
				return nil, false
			}
			return append(append([]byte{}, src[:loc[3]]...), src[loc[4]:]...), true
		}},
}

// copyCorpusAgent copies agents/_shared and the agent to a temporary tree
// laid out as the corpus (so the registry is found the same way).
func copyCorpusAgent(t *testing.T, corpus, slug string) string {
	t.Helper()
	root := t.TempDir()
	for _, rel := range []string{filepath.Join("agents", "_shared"), filepath.Join("agents", "cinatra-ai", slug)} {
		src := filepath.Join(corpus, rel)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		cp := copyFixture(t, src)
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(cp, dst); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, "agents", "cinatra-ai", slug)
}

func reviewDir(t *testing.T, dir string) (*compile.Agent, []Finding) {
	t.Helper()
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a, review(a, Options{Config: &Config{}}).Findings
}

// TestFixesOnBrokenCorpus breaks a copy of each corpus agent in every
// scripted way that applies, applies the first fix of the finding the
// breakage causes, and re-lints: the finding is gone, no code is reported
// more often than on the unbroken agent, the bytes outside the edited
// spans are those of the broken copy, and where the fix is the exact
// inverse of the breakage the file is the original again.
func TestFixesOnBrokenCorpus(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	corpus, slugs := testshared.CorpusAgents(t)
	applied := map[string]int{}
	// The unbroken copy of an agent gives the same findings for every
	// breakage: reviewed once per agent (the subtests run one at a time).
	baseOf := map[string][]Finding{}
	for si, slug := range slugs {
		for bi, cb := range corpusBreaks {
			if (si+bi)%race.Stride(3) != 0 {
				continue
			}
			t.Run(slug+"/"+cb.name, func(t *testing.T) {
				// Whether the breakage applies is decided on the corpus
				// file itself, before the copy and its review.
				orig, err := os.ReadFile(filepath.Join(corpus, "agents", "cinatra-ai", slug, cb.file))
				if err != nil {
					t.Skip(err)
				}
				broken, ok := cb.brk(orig)
				if !ok {
					t.Skip("breakage does not apply")
				}
				dir := copyCorpusAgent(t, corpus, slug)
				base, ok := baseOf[slug]
				if !ok {
					_, base = reviewDir(t, dir)
					baseOf[slug] = base
				}
				path := filepath.Join(dir, cb.file)
				if copied, err := os.ReadFile(path); err != nil || !bytes.Equal(copied, orig) {
					t.Fatalf("the copy of %s differs from the corpus file (%v)", cb.file, err)
				}
				if err := os.WriteFile(path, broken, 0o644); err != nil {
					t.Fatal(err)
				}
				a, found := reviewDir(t, dir)
				var target *Finding
				for i := range found {
					if found[i].Code == cb.code && len(found[i].Fixes) > 0 && codeCounts(base)[cb.code] == 0 {
						target = &found[i]
						break
					}
				}
				if target == nil {
					t.Fatalf("the breakage raises no fixable %s:\n%s", cb.code, renderRuleFindings(found, cb.code))
				}
				b := edit.Plan([]edit.Candidate{{ID: "x", Fixes: target.Fixes[:1]}})
				src := loadedSources(a)
				if _, err := b.Write(src); err != nil {
					t.Fatal(err)
				}
				for _, p := range b.Files() {
					got, _ := os.ReadFile(p)
					assertOutsideSpans(t, p, src[p], got, edit.EditsOf(b.Edits(), p))
				}
				fixed, _ := os.ReadFile(path)
				if cb.restores && !bytes.Equal(fixed, orig) {
					t.Errorf("the fix does not restore the original bytes:\n%s", unifiedDiff(cb.file, orig, fixed))
				}
				_, after := reviewDir(t, dir)
				cb0, ca := codeCounts(base), codeCounts(after)
				for code, n := range ca {
					if n > cb0[code] {
						t.Errorf("after the fix %s is reported %d times, %d on the unbroken agent:\n%s", code, n, cb0[code], renderRuleFindings(after, code))
					}
				}
				applied[cb.name]++
			})
		}
	}
	for _, cb := range corpusBreaks {
		if applied[cb.name] == 0 && race.Stride(3) == 1 { // under -race only a sample of the pairs runs
			t.Errorf("breakage %q applied to no corpus agent", cb.name)
		}
	}
	t.Logf("fixes applied per breakage: %v", applied)
}
