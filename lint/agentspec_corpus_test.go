package lint

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// agentspecCorpus returns ../shared/corpus/agentspec, or skips the test
// when the shared corpus is not beside the checkout.
func agentspecCorpus(t testing.TB) string { return testshared.Dir(t, "corpus", "agentspec") }

// ownCodes: the codes this part of lint registers (Agent Spec profile and
// the flow-graph rules); other groups are other rule sets.
func ownCode(code string) bool {
	r := LookupRule(code)
	return r != nil && (r.Group == "flowgraph" || r.Group == "agentspec")
}

func lintFile(t testing.TB, path string, profile compile.Profile) Review {
	t.Helper()
	a, err := compile.Load(path, compile.LoadOptions{Profile: profile})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return review(a, Options{})
}

func ownFindings(r Review) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if ownCode(f.Code) || f.Code == "internal_unregistered_rule" {
			out = append(out, f)
		}
	}
	return out
}

// readTSV reads a tab-separated file with a header row.
func readTSV(t testing.TB, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var head []string
	var rows []map[string]string
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = cols
			continue
		}
		row := map[string]string{}
		for i, h := range head {
			if i < len(cols) {
				row[h] = cols[i]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// derivedExpected maps each derived negative case (EXPECTED.tsv, by its
// B/T number) to the code of the rule that must report it. The rule text
// of EXPECTED.tsv is in the comment.
var derivedExpected = map[string]string{
	"B01": "branch_unknown",                  // from_branch must be one of from_node.branches (F12)
	"B02": "start_node_outgoing_edges",       // StartNode exactly one outgoing control edge (F3)
	"B03": "branch_multiple_edges",           // at most one control edge per (node, branch) (F13)
	"B04": "flow_unreachable_node",           // every node reachable (F15)
	"B05": "edge_unknown_node",               // edge endpoints are nodes of the flow (F8)
	"B06": "dataflow_unknown_output",         // source_output names an output (E1)
	"B07": "dataflow_unknown_input",          // destination_input names an input (E2)
	"B08": "agentspec_unknown_field",         // unknown attributes, schema additionalProperties:false (D6)
	"B09": "node_branches_mismatch",          // declared branches = inferred (F18)
	"B10": "property_title_invalid",          // titles without . , { } space newline ' " (P3)
	"B11": "flow_inputs_mismatch",            // Flow.inputs = StartNode inputs (F9)
	"B12": "flow_output_missing_in_end_node", // flow output in every EndNode or default (F11)
	"B13": "agentspec_version_unknown",       // agentspec_version must be known (D9)
	"B14": "agentspec_version_legacy",        // legacy air_version 25.3.x (D9)
	"B15": "flow_start_node_mismatch",        // start_node is the StartNode in nodes (F2)
	"B16": "component_type_unknown",          // component_type must be known or a plugin (D3)
	"B17": "component_ref_unresolved",        // $component_ref must resolve (D11)
	"B18": "component_id_duplicate",          // two components must not share an id (D16)
	"B19": "branching_node_inputs",           // BranchingNode has exactly one input (I5)
	"B20": "dataflow_type_incompatible",      // source type castable to destination (E3)
	"B21": "property_default_invalid",        // default matches the property type (P5)
	"T01": "component_type_missing",          // missing component_type (D2)
	"T02": "component_type_missing",          // component_type must be a string (D2)
	"T03": "component_ref_unresolved",        // unresolved $component_ref (D11)
	"T04": "agentspec_not_a_component",       // top-level component required; this is a library (D1)
	"T05": "component_ref_circular",          // circular $component_ref (D13)
}

// officialExpected: the official negative fixtures (no EXPECTED.tsv; the
// rule is the one the upstream test names, reference/agentspec.md §6).
var officialExpected = map[string]string{
	"self_referencing_flow.yaml":                                                  "component_ref_circular",      // circular reference (D13)
	"flow_with_multiple_levels_of_references_with_repeated_key.yaml":              "component_ref_key_repeated",  // key at two levels (D12/D16)
	"example_serialized_llm_node_as_nested_reference_with_incorrect_version.yaml": "agentspec_version_unknown",   // version 20.99.99 (D9)
	"example_serialized_llm_node_with_misplaced_agentspec_version.yaml":           "agentspec_version_misplaced", // nested agentspec_version (D7)
}

func hasCode(fs []Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

func TestAgentSpecDerivedCases(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	dir := filepath.Join(agentspecCorpus(t), "invalid", "derived")
	rows := readTSV(t, filepath.Join(dir, "EXPECTED.tsv"))
	passed := 0
	for i, row := range rows {
		if i%race.Stride(3) != 0 {
			continue
		}
		file := row["file"]
		code := derivedExpected[file[:3]]
		t.Run(file[:3], func(t *testing.T) {
			if code == "" {
				t.Fatalf("%s: no code mapped for rule %q", file, row["rule"])
			}
			fs := ownFindings(lintFile(t, filepath.Join(dir, file), compile.ProfileAgentSpec))
			if !hasCode(fs, code) {
				t.Errorf("%s (%s): want %s, got %v", file, row["rule"], code, codesOf(fs))
				return
			}
			passed++
		})
	}
	t.Logf("derived: %d of %d cases produce their rule", passed, len(rows))
}

func TestAgentSpecOfficialNegatives(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	dir := filepath.Join(agentspecCorpus(t), "invalid", "official", "pyagentspec", "tests", "agentspec_configs", "invalid")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, e := range ents {
		code := officialExpected[e.Name()]
		if code == "" {
			t.Errorf("%s: no expected code", e.Name())
			continue
		}
		fs := ownFindings(lintFile(t, filepath.Join(dir, e.Name()), compile.ProfileAgentSpec))
		if !hasCode(fs, code) {
			t.Errorf("%s: want %s, got %v", e.Name(), code, codesOf(fs))
			continue
		}
		passed++
	}
	t.Logf("official: %d of %d cases produce their rule", passed, len(ents))
}

// baselineCodes maps the rule numbers of LINT-BASELINE.tsv to our codes.
var baselineCodes = map[string][]string{
	"F12":  {"branch_unknown"},
	"F13":  {"branch_multiple_edges"},
	"F14":  {"branch_unconnected"},
	"F16":  {"flow_dead_end"},
	"F19":  {"flow_duplicate_node_name"},
	"F20":  {"flow_node_listed_twice"},
	"E5":   {"dataflow_empty_list"},
	"D7":   {"agentspec_version_misplaced"},
	"D16":  {"component_ref_key_repeated", "component_id_duplicate"},
	"D17":  nil, // key ≠ id: not a finding here
	"INFO": nil,
}

// TestAgentSpecCorpusBaseline: every corpus file the SDK loads (MANIFEST
// `OK`) gets no blocker beyond what LINT-BASELINE.tsv lists for it.
func TestAgentSpecCorpusBaseline(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	dir := agentspecCorpus(t)
	allowed := map[string]map[string]int{}
	for _, row := range readTSV(t, filepath.Join(dir, "LINT-BASELINE.tsv")) {
		p := row["corpus_path"]
		if allowed[p] == nil {
			allowed[p] = map[string]int{}
		}
		for _, c := range baselineCodes[row["rule"]] {
			allowed[p][c]++
		}
	}
	checked, loadable := 0, 0
	for _, row := range readTSV(t, filepath.Join(dir, "MANIFEST.tsv")) {
		if row["pyagentspec_snapshot_load"] != "OK" {
			continue
		}
		loadable++
		if loadable%race.Stride(8) != 0 {
			continue
		}
		p := row["corpus_path"]
		checked++
		rev := lintFile(t, filepath.Join(dir, filepath.FromSlash(p)), compile.ProfileAgentSpec)
		for _, f := range rev.Findings {
			if f.Code == "invalid_json" || f.Code == "agent_read_failed" {
				t.Errorf("%s: does not load: %s", p, f.Message) // the YAML loader must read every file the SDK reads
			}
		}
		fs := ownFindings(rev)
		got := map[string]int{}
		for _, f := range fs {
			if f.Severity == compile.Blocker {
				got[f.Code]++
			}
		}
		for code, n := range got {
			if n > allowed[p][code] {
				for _, f := range fs {
					if f.Code == code {
						t.Errorf("%s: unexpected blocker %s at %s (%d:%d): %s", p, f.Code, f.Location, f.Line, f.Column, f.Message)
					}
				}
			}
		}
	}
	if loadable < 100 || checked < loadable/race.Stride(8) {
		t.Errorf("only %d of %d OK files checked", checked, loadable)
	}
	t.Logf("%d SDK-loadable corpus files checked", checked)
}

// TestCinatraCorpusFlowGraph: the 25 Cinatra agents keep zero blockers from
// these rules; their warnings are listed with -v.
func TestCinatraCorpusFlowGraph(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "cinatra", "agents", "cinatra-ai")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("cinatra corpus not found: %v", err)
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		n++
		fs := ownFindings(lintFile(t, filepath.Join(root, e.Name()), ""))
		for _, f := range fs {
			if f.Severity == compile.Blocker {
				t.Errorf("%s: blocker %s at %s: %s", e.Name(), f.Code, f.Location, f.Message)
			} else {
				t.Logf("%s: %s %s at %s: %s", e.Name(), f.Severity, f.Code, f.Location, f.Message)
			}
		}
	}
	if n != 25 {
		t.Errorf("%d Cinatra agents, want 25", n)
	}
}

func codesOf(fs []Finding) []string {
	set := map[string]bool{}
	for _, f := range fs {
		set[fmt.Sprintf("%s(%s)", f.Code, f.Severity)] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestDumpAgentSpecCorpus prints every finding on the corpus; run with
// OASTUI_DUMP=1 when tuning the rules.
func TestDumpAgentSpecCorpus(t *testing.T) {
	if os.Getenv("OASTUI_DUMP") == "" {
		t.Skip("set OASTUI_DUMP=1")
	}
	dir := agentspecCorpus(t)
	for _, row := range readTSV(t, filepath.Join(dir, "MANIFEST.tsv")) {
		p := row["corpus_path"]
		if !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") {
			continue
		}
		if os.Getenv("OASTUI_DUMP") == "ok" && row["pyagentspec_snapshot_load"] != "OK" {
			continue
		}
		fs := ownFindings(lintFile(t, filepath.Join(dir, filepath.FromSlash(p)), compile.ProfileAgentSpec))
		for _, f := range fs {
			fmt.Printf("%s\t%s\t%s\t%s\t%s\n", row["pyagentspec_snapshot_load"][:min(2, len(row["pyagentspec_snapshot_load"]))], p, f.Severity, f.Code, f.Message)
		}
	}
}
