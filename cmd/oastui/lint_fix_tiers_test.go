package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// corpusCompiled is, per agent of the tree's cinatra-ai/ folder, the
// compiler's output (its JSON, or its error), the names of the flow's
// components, and the versions the agent states (package.json's, and
// metadata.cinatra.packageVersion when there is one).
func corpusCompiled(t *testing.T, agents string) (out, names, versions map[string]string) {
	t.Helper()
	out, names, versions = map[string]string{}, map[string]string{}, map[string]string{}
	ents, err := os.ReadDir(filepath.Join(agents, "cinatra-ai"))
	if err != nil {
		t.Fatal(err)
	}
	reName := regexp.MustCompile(`"name":\s*"[^"]*"`)
	for _, e := range ents {
		dir := filepath.Join(agents, "cinatra-ai", e.Name())
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := compile.Compile(a)
		if err != nil {
			out[e.Name()] = "error: " + err.Error()
		} else {
			b, _ := json.Marshal(c)
			out[e.Name()] = string(b)
		}
		names[e.Name()] = strings.Join(reName.FindAllString(string(a.Flow.Src), -1), "\n")
		pv, _ := a.Package.Root.Get("version").Str()
		mv, _ := a.Flow.Root.Path("metadata", "cinatra", "packageVersion").Str()
		versions[e.Name()] = pv + " " + mv
	}
	return out, names, versions
}

// TestLintFixCorpusSafe is issue 38's measurement: `oastui lint --fix`
// over a copy of the corpus changes no agent's compiled output, renames
// no step and lowers no version (it once changed four agents' compiled
// output, renamed "Campaign setup" and lowered lint-policy-agent's
// packageVersion); it applies the fix the authors shipped for the version
// drift (metadata.cinatra.packageVersion removed), says how many unsafe
// fixes it held back and the flag; and --unsafe-fixes then applies them.
func TestLintFixCorpusSafe(t *testing.T) {
	src := testshared.Dir(t, "corpus", "cinatra", "agents")
	agents := copyFixtureTree(t, src)
	before, names, versions := corpusCompiled(t, agents)
	code, _, errOut := runLintCmd(t, "--fix", "--fail-on", "none", "--format", "json", filepath.Join(agents, "cinatra-ai"))
	if code != exitClean {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	after, names2, versions2 := corpusCompiled(t, agents)
	for slug := range before {
		if before[slug] != after[slug] {
			t.Errorf("%s: lint --fix changed the compiled output", slug)
		}
		if names[slug] != names2[slug] {
			t.Errorf("%s: lint --fix renamed a component:\n%s\n---\n%s", slug, names[slug], names2[slug])
		}
		if v, v2 := strings.Fields(versions[slug]), strings.Fields(versions2[slug]); len(v) == 0 || len(v2) == 0 || v[0] != v2[0] || (len(v2) > 1 && (len(v) < 2 || v2[1] != v[1])) {
			t.Errorf("%s: versions %q became %q: a safe fix only removes the redundant packageVersion", slug, versions[slug], versions2[slug])
		}
	}
	for _, slug := range []string{"lint-policy-agent", "blog-linkedin-publish-agent"} {
		if !strings.HasSuffix(versions[slug], " ") && strings.HasSuffix(versions2[slug], " ") {
			continue // metadata.cinatra.packageVersion was there and is gone
		}
		t.Errorf("%s: the drifting metadata.cinatra.packageVersion was not removed: %q → %q", slug, versions[slug], versions2[slug])
	}
	if !strings.Contains(errOut, "held back 8 unsafe fixes") || !strings.Contains(errOut, "--unsafe-fixes applies them") {
		t.Errorf("--fix does not say what it held back:\n%s", errOut)
	}
	code, _, errOut = runLintCmd(t, "--fix", "--unsafe-fixes", "--fail-on", "none", "--format", "json", filepath.Join(agents, "cinatra-ai"))
	if code != exitClean || strings.Contains(errOut, "held back") {
		t.Fatalf("exit %d; --unsafe-fixes still holds fixes back:\n%s", code, errOut)
	}
	after2, _, _ := corpusCompiled(t, agents)
	changed := 0
	for slug := range before {
		if before[slug] != after2[slug] {
			changed++
		}
	}
	if changed == 0 {
		t.Error("--unsafe-fixes applied nothing that changes a compiled output")
	}
}

func TestLintFixTierFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--unsafe-fixes", legacyFixture},
		{"--fix", "--fix-dangerous", "x:1:1 legacy_field", legacyFixture},
		{"--fix-dangerous", "nothing:1:1 legacy_field", copyFixtureTree(t, "../../lint/testdata/rules/err/legacy_field")},
	} {
		if code, _, errOut := runLintCmd(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitUsage, errOut)
		}
	}
}

// TestLintFixDangerous: a dangerous fix (removing the legacy
// metadata.cinatra.approvalPolicy) is never in a batch, not even with
// --unsafe-fixes: --fix says so and names the flag; --fix-dangerous with
// the finding's id applies that one fix and nothing else.
func TestLintFixDangerous(t *testing.T) {
	dir := t.TempDir()
	flow := filepath.Join(dir, "approval_policy.json")
	src, err := os.ReadFile("../../lint/testdata/rules/err/legacy_field/approval_policy.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flow, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--fix"}, {"--fix", "--unsafe-fixes"}} {
		_, _, errOut := runLintCmd(t, append(args, "--fail-on", "none", flow)...)
		if !strings.Contains(errOut, "held back 1 dangerous fix") || !strings.Contains(errOut, `--fix-dangerous "ID" applies one: `+flow+":10:25 legacy_field") {
			t.Errorf("%v: stderr %q", args, errOut)
		}
		if b, _ := os.ReadFile(flow); !strings.Contains(string(b), `"approvalPolicy"`) {
			t.Fatalf("%v removed approvalPolicy", args)
		}
	}
	// A fresh copy: --unsafe-fixes above renamed the bridge's prompt.
	if err := os.WriteFile(flow, src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runLintCmd(t, "--fix-dangerous", flow+":10:25 legacy_field", "--fail-on", "none", flow)
	b, _ := os.ReadFile(flow)
	if code != exitClean || strings.Contains(string(b), `"approvalPolicy"`) || !strings.Contains(errOut, "fixed 1 finding in 1 file") {
		t.Errorf("--fix-dangerous: exit %d, stderr %q\n%s", code, errOut, b)
	}
	if !strings.Contains(string(b), `"prompt"`) { // the unsafe llm_bridge_user_missing fix was not applied with it
		t.Error("--fix-dangerous applied another finding's fix")
	}
}
