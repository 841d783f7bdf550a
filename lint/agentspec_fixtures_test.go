package lint

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// TestAgentSpecRulesDocumented: every rule of these groups names its
// F/E/D/I/P/C number in its doc line (SPEC §3.2), except the schema rule,
// which has no number upstream.
func TestAgentSpecRulesDocumented(t *testing.T) {
	for _, r := range Rules() {
		if r.Group != "flowgraph" && r.Group != "agentspec" {
			continue
		}
		if r.Code == "agentspec_schema" {
			continue
		}
		if !strings.ContainsAny(r.Doc[:3], "FEDIPC") || !strings.ContainsAny(r.Doc[:3], "0123456789") {
			t.Errorf("%s: doc %q does not start with its rule number", r.Code, r.Doc)
		}
	}
}

// TestAgentSpecProfiles: the graph rules run in the cinatra profile too,
// without the checks the Cinatra validator owns; the agentspec-only rules
// do not.
func TestAgentSpecProfiles(t *testing.T) {
	for _, tc := range []struct {
		file    string
		profile compile.Profile
		want    bool
	}{
		{"branch_unknown.json", compile.ProfileCinatra, true},
		{"data_edge_duplicate.json", compile.ProfileCinatra, true},
		{"flow_node_listed_twice.json", compile.ProfileCinatra, false},       // duplicate_node's job
		{"flow_start_node_count.json", compile.ProfileCinatra, false},        // start_node_count's job (root Flow)
		{"flow_start_node_count__nested.json", compile.ProfileCinatra, true}, // nested Flows are ours
		{"component_ref_unresolved.json", compile.ProfileCinatra, false},
		{"agentspec_version_unknown.json", compile.ProfileCinatra, false},
		{"component_ref_key_repeated.json", compile.ProfileCinatra, true},
		{"agentspec_version_misplaced.json", compile.ProfileCinatra, false}, // the platform accepts a nested version
	} {
		code := strings.TrimSuffix(tc.file, ".json")
		if i := strings.Index(code, "__"); i >= 0 {
			code = code[:i]
		}
		fs := ownFindings(lintFile(t, ruleCase("err", code, tc.file), tc.profile))
		if hasCode(fs, code) != tc.want {
			t.Errorf("%s in %s profile: %s reported %v, want %v", tc.file, tc.profile, code, hasCode(fs, code), tc.want)
		}
	}
}

// TestNestedVersionPerProfile (issue 12 item 6): a nested
// agentspec_version is a blocker in the agentspec profile (the official
// JSON Schema rejects the file) and nothing in the cinatra profile (the
// platform accepts it).
func TestNestedVersionPerProfile(t *testing.T) {
	file := ruleCase("err", "agentspec_version_misplaced", "agentspec_version_misplaced.json")
	for _, tc := range []struct {
		profile compile.Profile
		want    []string
	}{
		{compile.ProfileAgentSpec, []string{"blocker agentspec_version_misplaced /$referenced_components/llm/agentspec_version"}},
		{compile.ProfileCinatra, nil},
	} {
		var got []string
		for _, f := range lintFile(t, file, tc.profile).Findings {
			if strings.HasPrefix(f.Code, "agentspec_version_") {
				got = append(got, fmt.Sprintf("%s %s %s", f.Severity, f.Code, f.Location))
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s profile: got %q, want %q", tc.profile, got, tc.want)
		}
	}
}

// FuzzAgentSpec runs every rule, in both profiles, over an arbitrary
// document (JSON, or YAML when isYAML): no rule may panic or report a code
// missing from the rule list. The seeds are the flow files of the rule
// fixtures (testdata/rules, each distinct file once); when fuzzing, every file of the shared Agent Spec
// corpus too (the normal run leaves them to TestAgentSpecCorpusBaseline
// and TestAgentSpecOfficialNegatives, which lint each of them already):
//
//	go test ./lint -run '^$' -fuzz FuzzAgentSpec -fuzztime 20s
func FuzzAgentSpec(f *testing.F) {
	for i, p := range agentSpecSeedFiles(fuzzing()) {
		// The seeds are TestRuleFixtures' files, which it reviews
		// already: under -race (no fuzzing) every third one.
		if !fuzzing() && i%race.Stride(3) != 0 {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml"))
	}
	f.Fuzz(func(t *testing.T, src []byte, isYAML bool) {
		name := "agent.json"
		if isYAML {
			name = "agent.yaml"
		}
		lintNeverPanics(t, compile.ParseDocFile(name, src))
	})
}

// fuzzing reports whether the test binary runs with -fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// agentSpecSeedFiles: the fixtures, and with corpus the shared corpus files.
func agentSpecSeedFiles(corpus bool) []string {
	var files []string
	walk := func(dir string) {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				files = append(files, p)
			}
			return nil
		})
	}
	// The rule fixtures that are flow files reviewed alone, each distinct
	// file once (the ok folders hold copies of the same agents).
	seen := map[[sha256.Size]byte]bool{}
	folders, _ := filepath.Glob(filepath.Join(rulesFixtureDir, "*", "*"))
	for _, folder := range folders {
		for _, p := range fixtureCases(folder) {
			if b, err := os.ReadFile(p); err == nil && !seen[sha256.Sum256(b)] {
				seen[sha256.Sum256(b)] = true
				files = append(files, p)
			}
		}
	}
	if dir := filepath.Join("..", "..", "shared", "corpus", "agentspec"); corpus && dirExists(dir) {
		walk(dir)
	}
	return files
}

// lintNeverPanics reviews doc in both profiles; a panic fails the test
// by itself, an unlisted rule is reported.
func lintNeverPanics(t *testing.T, doc *compile.Doc) {
	t.Helper()
	for _, prof := range []compile.Profile{compile.ProfileAgentSpec, compile.ProfileCinatra} {
		a := &compile.Agent{FlowPath: doc.Path, Flow: doc, Profile: prof}
		for _, f := range review(a, Options{}).Findings {
			if LookupRule(f.Code) == nil || f.Code == RuleInternalUnregisteredRule.Code {
				t.Errorf("%s profile: unlisted rule %q: %s", prof, f.Code, f.Message)
			}
		}
	}
}

// TestAgentSpecNeverPanicsSmoke is the short run of what the fuzzer
// explores: in the ok fixtures, some values are replaced, one at a time,
// by a value of each other kind (no rule may assume a shape the schema
// promises), and the document reviewed in both profiles. FuzzAgentSpec's
// seeds (every fixture as it is) run in the normal test run too.
func TestAgentSpecNeverPanicsSmoke(t *testing.T) {
	fixtures, _ := filepath.Glob(ruleCase("ok", "agentspec_schema", "*.json"))
	if len(fixtures) == 0 {
		t.Fatal("no ok fixtures")
	}
	swaps := []compile.Node{{Kind: compile.Null}, {Kind: compile.String, Text: "x"}, {Kind: compile.Array},
		{Kind: compile.Object}, {Kind: compile.Number, Text: "1"}}
	const stride = 151 // a prime, so that the picks fall on values of every depth and kind across the fixtures
	runs := 0
	for fi, p := range fixtures {
		if fi%race.Stride(3) != 0 {
			continue // under -race every third fixture; all in CI's run without it
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc := compile.ParseDoc(p, src)
		var nodes []*compile.Node
		compile.Walk(doc.Root, "", func(_ string, n *compile.Node) bool { nodes = append(nodes, n); return true })
		for i := 0; i < len(nodes); i += stride {
			n := nodes[i]
			saved := *n
			for _, sw := range swaps {
				*n = sw
				n.Offset = saved.Offset
				lintNeverPanics(t, doc)
				runs++
			}
			*n = saved
		}
	}
	if runs < 15/race.Stride(3) {
		t.Errorf("only %d mutated documents", runs)
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// BenchmarkAgentSpecLint: the whole agentspec profile (schema, versions,
// graph, data flow, references) on the biggest official docs example.
func BenchmarkAgentSpecLint(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "corpus", "agentspec", "docs", "pyagentspec", "source", "agentspec_config_examples", "howto_parallelflownode.json")
	if _, err := os.Stat(p); err != nil {
		p = ruleCase("ok", "agentspec_schema", "nested_subflow.json")
	}
	a, err := compile.Load(p, compile.LoadOptions{Profile: compile.ProfileAgentSpec})
	if err != nil {
		b.Fatal(err)
	}
	review(a, Options{}) // compile the schema once
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		review(a, Options{})
	}
}
