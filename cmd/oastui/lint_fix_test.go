package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copyTree copies the fixture directory src to a temporary directory.
func copyFixtureTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// copyFixtureFlow is copyFixtureTree with the copy's flow file
// (cinatra/oas.json) rewritten by edit.
func copyFixtureFlow(t *testing.T, src string, edit func(flow string) string) string {
	t.Helper()
	dir := copyFixtureTree(t, src)
	p := filepath.Join(dir, "cinatra", "oas.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			m[p] = string(b)
		}
		return nil
	})
	return m
}

func codesOf(t *testing.T, out string) map[string]int {
	t.Helper()
	var r lintJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	m := map[string]int{}
	for _, f := range r.Findings {
		m[f.Code]++
	}
	return m
}

const driftFixture = "../../lint/testdata/rules/err/package_version_oas_pkg_drift/package-drift-license-name"

// TestLintDiffWritesNothing: --diff and --fix --dry-run print the unified
// diff of the fixes on stdout, the summary on stderr, change no file, and
// exit by the findings (all still there).
func TestLintDiffWritesNothing(t *testing.T) {
	dir := copyFixtureTree(t, driftFixture)
	before := readAll(t, dir)
	for _, args := range [][]string{{"--diff", dir}, {"--fix", "--dry-run", dir}, {"--diff", "--unsafe-fixes", dir}} {
		code, out, errs := runLintCmd(t, args...)
		if code != exitFindings {
			t.Errorf("%v: exit %d (%s)", args, code, errs)
		}
		// The drift's safe fix is the authors' (packageVersion removed);
		// the license is unsafe: only with --unsafe-fixes.
		wants := []string{"--- a/", "+++ b/", `-      "packageVersion": "0.2.0"`, `+      "packageName": "@acme/package-agent"` + "\n"}
		summary := "oastui: would fix 2 findings in 1 file\noastui: held back 1 unsafe fix (they change what the platform compiles or shows); --unsafe-fixes applies it: "
		if slices.Contains(args, "--unsafe-fixes") {
			wants = append(wants, `+  "license": "UNLICENSED"`)
			summary = "oastui: would fix 3 findings in 2 files\n"
		} else if strings.Contains(out, `"license"`) {
			t.Errorf("%v: the unsafe license fix is in the safe diff:\n%s", args, out)
		}
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("%v: diff lacks %q:\n%s", args, want, out)
			}
		}
		if !strings.HasPrefix(errs, summary) {
			t.Errorf("%v: stderr %q, want it to start %q", args, errs, summary)
		}
		if after := readAll(t, dir); len(after) != len(before) {
			t.Fatalf("%v: files appeared or vanished", args)
		} else {
			for p, b := range before {
				if after[p] != b {
					t.Errorf("%v: %s was written", args, p)
				}
			}
		}
	}
}

// TestLintFix: --fix writes the fixes, reports what it did on stderr, and
// the report (and exit code) is that of the findings that remain.
func TestLintFix(t *testing.T) {
	dir := copyFixtureTree(t, driftFixture)
	_, out, _ := runLintCmd(t, "--format", "json", dir)
	before := codesOf(t, out)
	for _, c := range []string{"package_version_oas_pkg_drift", "package_name_mismatch", "agent_package_missing_license"} {
		if before[c] != 1 {
			t.Fatalf("fixture: %s reported %d times", c, before[c])
		}
	}
	code, out, errs := runLintCmd(t, "--fix", "--unsafe-fixes", "--format", "json", dir)
	if !strings.Contains(errs, "oastui: fixed 3 findings in 2 files") {
		t.Errorf("stderr %q", errs)
	}
	after := codesOf(t, out)
	for c, n := range after {
		if n > before[c] {
			t.Errorf("%s: %d after the fix, %d before", c, n, before[c])
		}
	}
	for _, c := range []string{"package_version_oas_pkg_drift", "package_name_mismatch", "agent_package_missing_license"} {
		if after[c] != 0 {
			t.Errorf("%s still reported", c)
		}
	}
	if code != exitClean { // the fixture's other findings are warnings (dataflow_empty_list)
		t.Errorf("exit %d, want %d (only warnings remain): %s", code, exitClean, errs)
	}
	pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	if !strings.HasSuffix(string(pkg), "  },\n  \"license\": \"UNLICENSED\"\n}\n") {
		t.Errorf("package.json:\n%s", pkg)
	}
	// A second run has nothing to fix.
	code, _, errs = runLintCmd(t, "--fix", dir)
	if code != exitClean || !strings.Contains(errs, "oastui: fixed 0 findings in 0 files") {
		t.Errorf("second run: exit %d, %q", code, errs)
	}
}

// TestLintFixDefaultLicense: the license fix writes .oastui.yaml's
// default_license.
func TestLintFixDefaultLicense(t *testing.T) {
	dir := copyFixtureTree(t, driftFixture)
	if err := os.WriteFile(filepath.Join(dir, ".oastui.yaml"), []byte("default_license: Apache-2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runLintCmd(t, "--fix", "--unsafe-fixes", dir); code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	if !strings.Contains(string(pkg), `"license": "Apache-2.0"`) {
		t.Errorf("package.json:\n%s", pkg)
	}
}

func TestLintFixFlags(t *testing.T) {
	if code, _, errs := runLintCmd(t, "--dry-run", driftFixture); code != exitUsage || !strings.Contains(errs, "--dry-run goes with --fix") {
		t.Errorf("--dry-run alone: exit %d %q", code, errs)
	}
	code, _, errs := runLintStdin(t, "{}", "--fix", "-")
	if code != exitUsage || !strings.Contains(errs, "stdin") {
		t.Errorf("--fix on stdin: exit %d %q", code, errs)
	}
}

// TestLintFixesInOutputs: the JSON and SARIF outputs carry the fixes
// (SARIF §3.55: byte-region replacements).
func TestLintFixesInOutputs(t *testing.T) {
	_, out, _ := runLintCmd(t, "--format", "json", driftFixture)
	if !strings.Contains(out, `"fixes": [`) || !strings.Contains(out, `"title": "set metadata.cinatra.packageName to \"@acme/package-agent\" (package.json's name)"`) {
		t.Errorf("json output without fixes:\n%s", out)
	}
	_, out, _ = runLintCmd(t, "--format", "sarif", driftFixture)
	for _, want := range []string{`"fixes": [`, `"artifactChanges": [`, `"byteOffset": `, `"insertedContent": {`} {
		if !strings.Contains(out, want) {
			t.Errorf("sarif output lacks %s", want)
		}
	}
}
