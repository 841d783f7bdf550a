package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// inlineMemberRe finds the component_type member of every component.
var inlineMemberRe = regexp.MustCompile(`"component_type": *"[A-Za-z]+",`)

func inlineFindings(t *testing.T, path string, profile compile.Profile) []string {
	t.Helper()
	a, err := compile.Load(path, compile.LoadOptions{Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range review(a, Options{}).Findings {
		out = append(out, fmt.Sprintf("%s %s %s", f.Code, f.Location, f.Message))
	}
	slices.Sort(out)
	return out
}

// TestInlineIgnoreMemberIsInvisible: an x-oastui-ignore member in every
// component of a flow trips no rule in either profile (the Agent Spec
// schema's unknown-field check, the validator, the scans): the findings
// are those of the flow without the members, plus one unused_ignore per
// entry (they ignore a rule that does not fire).
func TestInlineIgnoreMemberIsInvisible(t *testing.T) {
	for _, tc := range []struct {
		src     string
		profile compile.Profile
	}{
		{ruleCase("ok", "agentspec_schema", "triage_flow.json"), compile.ProfileAgentSpec},
		{ruleCase("ok", "agentspec_schema", "nested_subflow.json"), compile.ProfileAgentSpec},
		{filepath.Join(rulesFixtureDir, "ok", "unused_ignore", "cinatra", "oas.json"), compile.ProfileCinatra},
		{filepath.Join(rulesFixtureDir, "ok", "unused_ignore", "cinatra", "oas.json"), compile.ProfileAgentSpec},
	} {
		t.Run(filepath.Base(tc.src)+"/"+string(tc.profile), func(t *testing.T) {
			src, err := os.ReadFile(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			with := inlineMemberRe.ReplaceAllStringFunc(string(src), func(m string) string {
				n++
				return m + ` "x-oastui-ignore": [{"rule": "llm_bridge_missing_agent_id", "reason": "test"}],`
			})
			if n < 3 {
				t.Fatalf("only %d components", n)
			}
			dir := t.TempDir()
			plain, marked := filepath.Join(dir, "plain.json"), filepath.Join(dir, "marked.json")
			if err := os.WriteFile(plain, src, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(marked, []byte(with), 0o644); err != nil {
				t.Fatal(err)
			}
			want := inlineFindings(t, plain, tc.profile)
			var got []string
			unused := 0
			for _, f := range inlineFindings(t, marked, tc.profile) {
				if strings.HasPrefix(f, "unused_ignore ") && strings.Contains(f, "/x-oastui-ignore/0 ") {
					unused++
					continue
				}
				got = append(got, f)
			}
			if unused != n {
				t.Errorf("%d unused_ignore findings for %d entries", unused, n)
			}
			// positions differ (the members add text); codes, pointers and
			// messages must not
			if !slices.Equal(got, want) {
				t.Errorf("the members changed the findings:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// TestInlineIgnoreSilences: an entry silences its rule in its object and
// below (kept as Suppressed, with the reason, InSource), not elsewhere.
func TestInlineIgnoreSilences(t *testing.T) {
	a, err := compile.Load(filepath.Join(rulesFixtureDir, "ok", "inline_ignore_invalid"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := review(a, Options{})
	if len(r.Findings) != 0 {
		t.Errorf("findings %v", r.Findings)
	}
	if len(r.Suppressed) != 1 || r.Suppressed[0].Code != "untrusted_external_url" || r.Suppressed[0].Reason != "the partner API is vetted" || !r.Suppressed[0].InSource {
		t.Errorf("suppressed %+v", r.Suppressed)
	}
	// The same entry on a sibling component silences nothing.
	src, _ := os.ReadFile(filepath.Join(rulesFixtureDir, "ok", "inline_ignore_invalid", "cinatra", "oas.json"))
	moved := strings.Replace(string(src), `"http_method": "POST",`+"\n"+`      "x-oastui-ignore"`, `"http_method": "POST"`+"\n"+`    }, "other": {"x-oastui-ignore"`, 1)
	if moved == string(src) {
		t.Fatal("fixture changed")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "oas.json")
	if err := os.WriteFile(p, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err = compile.Load(p, compile.LoadOptions{Profile: compile.ProfileCinatra})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range review(a, Options{}).Findings {
		codes = append(codes, f.Code)
	}
	if !slices.Contains(codes, "untrusted_external_url") || !slices.Contains(codes, "unused_ignore") {
		t.Errorf("an entry on a sibling must not silence: %v", codes)
	}
}
