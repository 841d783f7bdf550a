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
	if !strings.Contains(errOut, "held back 7 unsafe fixes") || !strings.Contains(errOut, "--unsafe-fixes applies them") {
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
