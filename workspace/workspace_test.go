package workspace

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/lint"
)

func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		rng, v string
		ok     bool
	}{
		{"^0.1.0", "0.1.2", true}, {"^0.1.0", "0.2.0", false}, {"^0.1.1", "0.1.0", false},
		{"^1.2.3", "1.9.0", true}, {"^1.2.3", "2.0.0", false}, {"^0.0.3", "0.0.4", false},
		{"~1.2.3", "1.2.9", true}, {"~1.2.3", "1.3.0", false},
		{"*", "3.4.5", true}, {"", "0.0.1", true}, {"1.x", "1.7.0", true}, {"1.2.*", "1.3.0", false},
		{"0.1.2", "0.1.2", true}, {"=0.1.2", "0.1.3", false}, {"v0.1.2", "0.1.2", true},
		{">=1.0.0 <2.0.0", "1.5.0", true}, {">=1.0.0 <2.0.0", "2.0.0", false},
		{"1.0.0 - 1.2", "1.2.9", true}, {"1.0.0 - 1.2", "1.3.0", false},
		{"^0.1.0 || ^1.0.0", "1.4.0", true}, {"^0.1.0 || ^1.0.0", "0.5.0", false},
		{"^1.0.0", "1.1.0-beta.1", false}, {"^1.1.0-beta.0", "1.1.0-beta.1", true},
		{">1.2", "1.2.9", false}, {">1.2", "1.3.0", true}, {"<=1.2", "1.2.9", true},
	} {
		r, ok := ParseRange(tc.rng)
		v, vok := ParseVersion(tc.v)
		if !ok || !vok {
			t.Errorf("%q / %q: does not parse", tc.rng, tc.v)
			continue
		}
		if got := r.Allows(v); got != tc.ok {
			t.Errorf("%q allows %s = %v, want %v", tc.rng, tc.v, got, tc.ok)
		}
	}
	for _, bad := range []string{"latest", "file:../x", "^x.1", "1.x.3", ">>1"} {
		if _, ok := ParseRange(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// writeAgent writes a minimal agent package: a flow with one FlowNode per
// child in calls, and package.json declaring deps (name → range).
func writeAgent(t *testing.T, root, slug, version string, calls []string, deps map[string]string) string {
	t.Helper()
	dir := filepath.Join(root, "acme", slug)
	os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755)
	refs := `"start": {"component_type": "StartNode", "id": "start", "name": "start"}, "end": {"component_type": "EndNode", "id": "end", "name": "end"}`
	nodes := `{"$component_ref": "start"}`
	for i, c := range calls {
		id := "call" + string(rune('a'+i))
		refs += `, "` + id + `": {"component_type": "FlowNode", "id": "` + id + `", "name": "` + id + `", "metadata": {"cinatra": {"packageName": "` + c + `"}}, "subflow": {"$component_ref": "sub"}}`
		nodes += `, {"$component_ref": "` + id + `"}`
	}
	flow := `{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "` + slug + `", "name": "` + slug + ` title",
  "metadata": {"cinatra": {"type": "flow"}},
  "start_node": {"$component_ref": "start"}, "nodes": [` + nodes + `, {"$component_ref": "end"}],
  "control_flow_connections": [], "$referenced_components": {` + refs + `}}`
	os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(flow), 0o644)
	d := ""
	keys := make([]string, 0, len(deps))
	for k := range deps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			d += ", "
		}
		d += `"` + k + `": "` + deps[k] + `"`
	}
	pkg := `{"name": "@acme/` + slug + `", "version": "` + version + `", "license": "MIT", "cinatra": {"agentDependencies": {` + d + `}}}`
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644)
	return dir
}

func review(t *testing.T, root string) *Index {
	t.Helper()
	dirs, err := compile.FindAgents(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	return Build(root, ReviewAll(root, dirs, analysis.Options{}, 2, nil), nil)
}

func codes(fs []compile.Finding) map[string]int {
	out := map[string]int{}
	for _, f := range fs {
		out[f.Code]++
	}
	return out
}

// TestTreeFindings: a missing child, a version the dependent does not
// accept and a cycle, each at the place that names the child.
func TestTreeFindings(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	writeAgent(t, root, "boss", "1.0.0", []string{"@acme/worker", "@acme/ghost"}, map[string]string{"@acme/worker": "^2.0.0"})
	writeAgent(t, root, "worker", "1.4.0", nil, nil)
	writeAgent(t, root, "ping", "0.1.0", []string{"@acme/pong"}, nil)
	writeAgent(t, root, "pong", "0.1.0", []string{"@acme/ping"}, nil)
	ix := review(t, root)
	got := codes(ix.Findings)
	want := map[string]int{"workspace_child_missing": 1, "workspace_child_version_mismatch": 1, "workspace_dependency_cycle": 2}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d findings, want %d (all: %v)", k, got[k], v, ix.Findings)
		}
	}
	for _, f := range ix.Findings {
		if f.Line < 1 || f.Location == "" || !strings.HasPrefix(f.File, root) {
			t.Errorf("finding without a place: %+v", f)
		}
		if f.Code == "workspace_dependency_cycle" && !strings.Contains(f.Message, "acme/ping → acme/pong → acme/ping") && !strings.Contains(f.Message, "acme/pong → acme/ping → acme/pong") {
			t.Errorf("cycle message: %s", f.Message)
		}
	}
	rows := ix.Rows()
	Sort(rows, ColStatus, false)
	for i := 1; i < len(rows); i++ {
		if rows[i].Worse(&rows[i-1]) {
			t.Errorf("not worst first: %s before %s", rows[i-1].ID(), rows[i].ID())
		}
	}
	if f := Filter(rows, "is:orchestrator boss"); len(f) != 1 || f[0].Kind() != "orchestrator" {
		t.Errorf("filter: %v", f)
	}
	// .oastui.yaml rules: apply (off, another severity).
	cfg := &lint.Config{Rules: map[string]string{"workspace_child_missing": "off", "workspace_dependency_cycle": "suggestion"}}
	adj := codes(Build(root, ix.Agents, cfg).Findings)
	if adj["workspace_child_missing"] != 0 || adj["workspace_dependency_cycle"] != 2 {
		t.Errorf("config: %v", adj)
	}
	for _, f := range Build(root, ix.Agents, cfg).Findings {
		if f.Code == "workspace_dependency_cycle" && f.Severity != compile.Suggestion {
			t.Errorf("cycle severity %s", f.Severity)
		}
	}
	text := ix.Text(flowgraph.Options{ASCII: true})
	for _, w := range []string{"boss", "worker", "ghost", "missing", "needs ^2.0.0"} {
		if !strings.Contains(text, w) {
			t.Errorf("graph lacks %q:\n%s", w, text)
		}
	}
}

// TestChildChangeReviewsOrchestrator: a save in a child agent re-reviews
// the child and every orchestrator above it, not the others; the registry
// and a config re-review everything; a new directory asks for a rescan.
func TestChildChangeReviewsOrchestrator(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	top := writeAgent(t, root, "top", "1.0.0", []string{"@acme/mid"}, nil)
	mid := writeAgent(t, root, "mid", "1.0.0", []string{"@acme/leaf"}, nil)
	leaf := writeAgent(t, root, "leaf", "1.0.0", nil, nil)
	other := writeAgent(t, root, "other", "1.0.0", nil, nil)
	ix := review(t, root)
	ch := ix.Affected([]string{filepath.Join(leaf, "cinatra", "oas.json")})
	if want := []string{leaf, mid, top}; !slices.Equal(ch.Agents, sorted(want)) || ch.All || ch.Rescan {
		t.Errorf("leaf save: %+v, want %v", ch, sorted(want))
	}
	if ch := ix.Affected([]string{filepath.Join(other, "package.json")}); !slices.Equal(ch.Agents, []string{other}) {
		t.Errorf("other: %+v", ch)
	}
	if ch := ix.Affected([]string{filepath.Join(root, "_shared", "cinatra", "components.json")}); !ch.All || len(ch.Agents) != 4 {
		t.Errorf("registry: %+v", ch)
	}
	if ch := ix.Affected([]string{filepath.Join(filepath.Dir(root), ".oastui.yaml")}); !ch.All {
		t.Errorf("config: %+v", ch)
	}
	if ch := ix.Affected([]string{filepath.Join(root, "acme", "new", "package.json")}); !ch.Rescan {
		t.Errorf("new package: %+v", ch)
	}
	// Breaking the leaf's flow keeps its last good columns (Carry) and
	// re-reviewing the orchestrators that Affected names works.
	os.WriteFile(filepath.Join(leaf, "cinatra", "oas.json"), []byte(`{"nodes": [,`), 0o644)
	before := ix.Agents
	var next []Agent
	for _, a := range before {
		if slices.Contains(ch.Agents, a.Dir) {
			a = Carry(ReviewAgent(root, a.Dir, analysis.Options{}), a)
		}
		next = append(next, a)
	}
	ix2 := Build(root, next, nil)
	i, _ := ix2.Lookup(leaf)
	if a := ix2.Agents[i]; a.Problem != NotParsed || !a.Stale || a.Title != "leaf title" {
		t.Errorf("broken leaf: %+v", a)
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// TestCorpusGolden: the rows and the call graph of the corpus tree.
func TestCorpusGolden(t *testing.T) {
	dir := testshared.Corpus(t)
	root := filepath.Join(dir, "agents")
	ix := review(t, root)
	rows := ix.Rows()
	Sort(rows, ColStatus, false)
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join([]string{r.ID(), r.Kind(), r.Version, r.Status(), itoa(r.Steps), itoa(r.Slots), itoa(r.Children)}, " | ") + "\n")
	}
	b.WriteString("\n")
	ix.Root = "agents" // the golden does not name the checkout
	out := ix.Text(flowgraph.Options{})
	out = strings.ReplaceAll(out, filepath.ToSlash(root)+"/", "agents/")
	b.WriteString(out)
	golden.RequireEqual(t, b.String())
}

func itoa(n int) string { return fmtInt(n) }

func fmtInt(n int) string {
	if n < 0 {
		return "-" + fmtInt(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return fmtInt(n/10) + string(rune('0'+n%10))
}

// TestTreeIgnores: the .oastui.yaml ignores apply to the workspace
// findings as to every other finding (one matcher: lint.Config's), in the
// findings, the rows and the call graph; an ignore of a workspace rule
// that matches nothing is an unused_ignore of the workspace (of the agent
// whose file it names), never of that agent's own review.
func TestTreeIgnores(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "agents")
	writeAgent(t, root, "boss", "1.0.0", []string{"@acme/worker", "@acme/ghost"}, map[string]string{"@acme/worker": "^2.0.0"})
	writeAgent(t, root, "worker", "1.4.0", nil, nil)
	writeAgent(t, root, "ping", "0.1.0", []string{"@acme/pong"}, nil)
	writeAgent(t, root, "pong", "0.1.0", []string{"@acme/ping"}, nil)
	dirs, err := compile.FindAgents(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	agents := ReviewAll(root, dirs, analysis.Options{}, 2, nil)
	const (
		missing  = "workspace_child_missing"
		mismatch = "workspace_child_version_mismatch"
		cycle    = "workspace_dependency_cycle"
		unused   = "unused_ignore"
	)
	ghost := "/$referenced_components/callb/metadata/cinatra/packageName"
	for _, tc := range []struct {
		name, ignores, rules string
		want                 map[string]int // codes of ix.Findings
		suppressed           int
		unusedAt             string // the agent whose findings hold the unused_ignore
		graphLacks           []string
	}{
		{name: "none", want: map[string]int{missing: 1, mismatch: 1, cycle: 2}},
		{name: "pointer",
			ignores: `{rule: ` + missing + `, file: agents/acme/boss/cinatra/oas.json, pointer: "` + ghost + `", reason: installed from the registry}`,
			want:    map[string]int{mismatch: 1, cycle: 2}, suppressed: 1, graphLacks: []string{"missing ⚠"}},
		{name: "below a pointer",
			ignores: `{rule: ` + missing + `, file: agents/acme/boss/cinatra/oas.json, pointer: "/$referenced_components/callb", reason: r}`,
			want:    map[string]int{mismatch: 1, cycle: 2}, suppressed: 1},
		{name: "whole file",
			ignores: `{rule: ` + mismatch + `, file: agents/acme/boss/package.json, reason: pinned on purpose}`,
			want:    map[string]int{missing: 1, cycle: 2}, suppressed: 1, graphLacks: []string{"needs ^2.0.0"}},
		{name: "glob",
			ignores: `{rule: ` + cycle + `, file: "agents/**/oas.json", reason: they stop each other}`,
			want:    map[string]int{missing: 1, mismatch: 1}, suppressed: 2},
		{name: "glob used nowhere: reported once",
			ignores: `{rule: ` + cycle + `, file: "agents/**/package.json", reason: r}`,
			want:    map[string]int{missing: 1, mismatch: 1, cycle: 2, unused: 1}, unusedAt: "acme/boss"},
		{name: "value hash of another value",
			ignores: `{rule: ` + missing + `, file: agents/acme/boss/cinatra/oas.json, value_hash: 0123456789abcdef0123456789abcdef, reason: r}`,
			want:    map[string]int{missing: 1, mismatch: 1, cycle: 2, unused: 1}, unusedAt: "acme/boss"},
		{name: "value hash",
			ignores: `{rule: ` + missing + `, file: agents/acme/boss/cinatra/oas.json, value_hash: ` + compile.HashValue("@acme/ghost") + `, reason: r}`,
			want:    map[string]int{mismatch: 1, cycle: 2}, suppressed: 1},
		{name: "unused",
			ignores: `{rule: ` + missing + `, file: agents/acme/worker/cinatra/oas.json, reason: r}`,
			want:    map[string]int{missing: 1, mismatch: 1, cycle: 2, unused: 1}, unusedAt: "acme/worker"},
		{name: "another rule's ignore is the review's",
			ignores: `{rule: agent_package_missing_license, file: agents/acme/boss/cinatra/oas.json, reason: r}`,
			want:    map[string]int{missing: 1, mismatch: 1, cycle: 2}},
		{name: "ignored and off",
			ignores: `{rule: ` + cycle + `, file: agents/acme/ping/cinatra/oas.json, reason: r}`, rules: missing + `: "off"`,
			want: map[string]int{mismatch: 1, cycle: 1}, suppressed: 1, graphLacks: []string{"missing ⚠"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cfg *lint.Config
			if tc.ignores != "" {
				var err error
				cfg, err = lint.ParseConfig(filepath.Join(base, ".oastui.yaml"), []byte("ignores: ["+tc.ignores+"]\nrules: {"+tc.rules+"}\n"))
				if err != nil {
					t.Fatal(err)
				}
			}
			ix := Build(root, agents, cfg)
			got := codes(ix.Findings)
			if !maps.Equal(got, tc.want) {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
			if len(ix.Suppressed) != tc.suppressed {
				t.Errorf("%d suppressed, want %d: %v", len(ix.Suppressed), tc.suppressed, ix.Suppressed)
			}
			rows, total := ix.Rows(), 0
			for i, r := range rows {
				total += r.Warnings + r.Blockers + r.Suggestions - (r.Agent.Warnings + r.Agent.Blockers + r.Agent.Suggestions)
				for _, f := range ix.AgentFindings(i) {
					if f.Code == unused && ix.Agents[i].ID() != tc.unusedAt {
						t.Errorf("unused_ignore in %s's findings, want %s's", ix.Agents[i].ID(), tc.unusedAt)
					}
				}
			}
			if total != len(ix.Findings) {
				t.Errorf("rows count %d workspace findings, the index has %d", total, len(ix.Findings))
			}
			text := ix.Text(flowgraph.Options{})
			for _, s := range tc.graphLacks {
				if strings.Contains(text, s) {
					t.Errorf("graph still shows %q:\n%s", s, text)
				}
			}
			if tc.name == "none" && !strings.Contains(text, "missing ⚠1") {
				t.Errorf("graph without the missing child's mark:\n%s", text)
			}
		})
	}
	// An agent's own review does not judge an ignore of a workspace rule
	// (it cannot raise one): no unused_ignore there.
	cfg, err := lint.ParseConfig(filepath.Join(base, ".oastui.yaml"), []byte("ignores: [{rule: "+missing+", file: agents/acme/worker/cinatra/oas.json, reason: r}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := analysis.Run(filepath.Join(root, "acme", "worker"), analysis.Options{Stages: analysis.ReviewOnly, Config: &analysis.ConfigResult{Path: cfg.Path, Config: cfg}})
	for _, f := range s.Review.Findings {
		if f.Code == unused {
			t.Errorf("the agent's review judged a workspace ignore: %v", f)
		}
	}
}

// TestDuplicatePackages: packages of the tree sharing a package.json name
// are each a workspace_duplicate_package at their name, naming the others
// and the one a child look-up resolves to: the first package.json in path
// order, as compile's own look-up (acme/worker-old/package.json sorts
// before acme/worker/package.json).
func TestDuplicatePackages(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	writeAgent(t, root, "boss", "1.0.0", []string{"@acme/worker"}, map[string]string{"@acme/worker": "^1.4.0"})
	worker := writeAgent(t, root, "worker", "1.4.0", nil, nil)
	old := writeAgent(t, root, "worker-old", "1.0.0", nil, nil)
	third := writeAgent(t, root, "zz-worker", "1.0.0", []string{"@acme/boss"}, nil)
	rename := func(dir, name string) {
		p := filepath.Join(dir, "package.json")
		src, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.Replace(string(src), `"name": "@acme/`+filepath.Base(dir)+`"`, `"name": "`+name+`"`, 1)), 0o644)
	}
	rename(old, "@acme/worker")
	ix := review(t, root)
	if got := codes(ix.Findings); got["workspace_duplicate_package"] != 2 || got["workspace_child_version_mismatch"] != 1 {
		t.Errorf("two packages named @acme/worker: %v", got)
	}
	want := compile.ScanPackages(root).ByName["@acme/worker"]
	if i, _ := ix.ByName("@acme/worker"); absPath(ix.Agents[i].Dir) != want || want != absPath(old) {
		t.Errorf("@acme/worker resolves to %s, compile's look-up to %s (want %s)", ix.Agents[i].Dir, want, old)
	}
	for _, f := range ix.Findings {
		if f.Code != "workspace_duplicate_package" {
			continue
		}
		if f.Location != "/name" || f.Line != 1 || f.Column != 10 || f.Severity != compile.Warning {
			t.Errorf("not at the name value: %+v", f)
		}
		switch filepath.Dir(f.File) {
		case worker:
			if !strings.Contains(f.Message, "acme/worker-old is named so too") || !strings.Contains(f.Message, "resolve to acme/worker-old, never to this one") {
				t.Errorf("worker: %s", f.Message)
			}
		case old:
			if !strings.Contains(f.Message, "the package in acme/worker is") || !strings.Contains(f.Message, "resolve to this one") {
				t.Errorf("worker-old: %s", f.Message)
			}
		default:
			t.Errorf("at %s", f.File)
		}
	}
	// One node for the name: the copy no look-up resolves to, which calls
	// nothing, is not drawn as a second "worker" node.
	if text := ix.Text(flowgraph.Options{ASCII: true}); strings.Count(text, "| worker  ") != 1 {
		t.Errorf("graph:\n%s", text)
	}
	// Three of a name: each names the two others.
	rename(third, "@acme/worker")
	ix = review(t, root)
	n := 0
	for _, f := range ix.Findings {
		if f.Code == "workspace_duplicate_package" {
			n++
			if !strings.Contains(f.Message, "the packages in ") {
				t.Errorf("three: %s", f.Message)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d duplicate findings for three packages", n)
	}
	// A copy no look-up resolves to that calls an agent is drawn as its own node.
	if text := ix.Text(flowgraph.Options{ASCII: true}); !strings.Contains(text, "| worker (acme/zz-worker)  orchestrator") || strings.Count(text, "| worker  ") != 1 {
		t.Errorf("graph with three:\n%s", text)
	}
	// The config applies as to the other workspace rules.
	cfg := &lint.Config{Rules: map[string]string{"workspace_duplicate_package": "off"}}
	if got := codes(Build(root, ix.Agents, cfg).Findings); got["workspace_duplicate_package"] != 0 {
		t.Errorf("off: %v", got)
	}
}

// TestTreeInlineIgnores: an x-oastui-ignore member of the flow silences a
// workspace finding in its object (suppressed, in source), as it does the
// review's; one that silences nothing is an unused_ignore of the
// workspace, not of the agent's review; building again gives the same.
func TestTreeInlineIgnores(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	boss := writeAgent(t, root, "boss", "1.0.0", []string{"@acme/ghost"}, nil)
	writeAgent(t, root, "ping", "0.1.0", []string{"@acme/pong"}, nil)
	pong := writeAgent(t, root, "pong", "0.1.0", []string{"@acme/ping"}, nil)
	inline := func(dir, rule string) {
		p := filepath.Join(dir, "cinatra", "oas.json")
		src, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.Replace(string(src), `"id": "calla", `, `"id": "calla", "x-oastui-ignore": [{"rule": "`+rule+`", "reason": "r"}], `, 1)), 0o644)
	}
	inline(boss, "workspace_child_missing")
	inline(pong, "workspace_child_missing") // pong's child is there: silences nothing
	ix := review(t, root)
	for range 2 {
		if got := codes(ix.Findings); !maps.Equal(got, map[string]int{"workspace_dependency_cycle": 2, "unused_ignore": 1}) {
			t.Errorf("findings %v", got)
		}
		if len(ix.Suppressed) != 1 || !ix.Suppressed[0].InSource || ix.Suppressed[0].Code != "workspace_child_missing" {
			t.Errorf("suppressed: %+v", ix.Suppressed)
		}
		i, _ := ix.Lookup(pong)
		if fs := ix.AgentFindings(i); !slices.ContainsFunc(fs, func(f compile.Finding) bool {
			return f.Code == "unused_ignore" && strings.HasSuffix(f.File, "oas.json") && strings.HasSuffix(f.Location, "/x-oastui-ignore/0")
		}) {
			t.Errorf("pong's unused inline ignore: %v", fs)
		}
		ix = Build(root, ix.Agents, nil) // the summaries are not changed by a build
	}
	for _, dir := range []string{boss, pong} {
		s := analysis.Run(dir, analysis.Options{Stages: analysis.ReviewOnly})
		for _, f := range s.Review.Findings {
			if f.Code == "unused_ignore" || f.Code == "inline_ignore_invalid" {
				t.Errorf("%s's review: %v", filepath.Base(dir), f)
			}
		}
	}
}

// TestDuplicatesNamedBounded: a finding names at most duplicatesNamed of
// the other copies of a name, then how many more (n copies naming all the
// others made n² paths: 250 MB of JSON report for 400 copies).
func TestDuplicatesNamedBounded(t *testing.T) {
	others := []string{"a", "b", "c", "d"}
	if got := namedSome(others, 5); got != "a, b, c and 2 more" {
		t.Errorf("five: %q", got)
	}
	if got := namedSome(others[:3], 3); got != "a, b, c" {
		t.Errorf("three: %q", got)
	}
}

// TestDuplicateMessageBounded: a name given to many packages (a tree
// copied many times) names at most three others in each finding, and
// counts the rest: the messages grow linearly, not as the square.
func TestDuplicateMessageBounded(t *testing.T) {
	var agents []Agent
	for k := range 50 {
		d := fmt.Sprintf("agents/v%02d/worker", k)
		agents = append(agents, Agent{Dir: d, Rel: d[len("agents/"):], Package: "@acme/worker", Version: "1.0.0", Parsed: true,
			PackageFile: d + "/package.json", NameLine: 2, NameColumn: 3})
	}
	ix := Build("agents", agents, nil)
	n := 0
	for _, f := range ix.Findings {
		if f.Code != "workspace_duplicate_package" {
			continue
		}
		n++
		if strings.Count(f.Message, "/worker") > 6 || !strings.Contains(f.Message, "and 46 more") {
			t.Fatalf("message: %s", f.Message)
		}
	}
	if n != 50 {
		t.Errorf("%d duplicate findings for 50 packages", n)
	}
}

// TestProblemStatus: why an agent could not be read is a typed status the
// faces switch on; the status text, the broken filter and the order of
// rows read it, and its texts are the ones the outputs always printed.
func TestProblemStatus(t *testing.T) {
	root := t.TempDir()
	leaf := writeAgent(t, root, "leaf", "1.0.0", nil, nil)
	empty := filepath.Join(root, "acme", "empty")
	os.MkdirAll(empty, 0o755)
	if a := ReviewAgent(root, empty, analysis.Options{}); a.Problem != NotLoaded || a.Problem.String() != "does not load" || a.Problem.Short() != "not loaded" {
		t.Errorf("no flow file: problem %d %q", a.Problem, a.Problem)
	}
	os.WriteFile(filepath.Join(leaf, "cinatra", "oas.json"), []byte(`{"nodes": [,`), 0o644)
	a := ReviewAgent(root, leaf, analysis.Options{})
	if a.Problem != NotParsed || a.Problem.String() != "does not parse" || a.Problem.Short() != "not parsed" {
		t.Errorf("broken flow: problem %d %q", a.Problem, a.Problem)
	}
	if Readable.String() != "" || Readable.Short() != "" {
		t.Error("Readable prints nothing")
	}
	broken, clean := Row{Agent: &a}, Row{Agent: &Agent{Parsed: true}}
	if broken.Status() != "does not parse" || clean.Status() != "clean" || !broken.Worse(&clean) || clean.Worse(&broken) {
		t.Errorf("rows: %q %q", broken.Status(), clean.Status())
	}
	if !broken.matches([]string{"is:broken"}) || clean.matches([]string{"is:broken"}) {
		t.Error("is:broken filter")
	}
}

// TestCallTreeFits: a call graph whose drawing is wider than the width
// given is printed as a tree of calls, every line within the width; a
// version the caller does not accept and a missing child are marked, and
// a cycle ends at the agent met again. At any width the boxes are drawn.
func TestCallTreeFits(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	writeAgent(t, root, "boss", "1.0.0", []string{"@acme/worker", "@acme/ghost"}, map[string]string{"@acme/worker": "^2.0.0"})
	writeAgent(t, root, "worker", "1.4.0", nil, nil)
	writeAgent(t, root, "ping", "0.1.0", []string{"@acme/pong"}, nil)
	writeAgent(t, root, "pong", "0.1.0", []string{"@acme/ping"}, nil)
	ix := review(t, root)
	for _, ascii := range []bool{false, true} {
		full, drawn := ix.TextFit(flowgraph.Options{ASCII: ascii}, 0)
		if full != ix.Text(flowgraph.Options{ASCII: ascii}) || drawn <= 40 {
			t.Fatalf("at any width the drawing (%d wide) is Text's", drawn)
		}
		text, _ := ix.TextFit(flowgraph.Options{ASCII: ascii}, 40)
		calls, _, _ := strings.Cut(text, "\n"+root) // the findings start with the tree's path
		for _, l := range strings.Split(calls, "\n") {
			if w := displaywidth.String(l); w > 40 && !strings.HasPrefix(l, "workspace ") {
				t.Errorf("line %d columns wide: %q", w, l)
			}
		}
		for _, w := range []string{"boss  orchestrator", "worker  flow", "(needs ^2.0.0", "ghost  missing", "ping (see above)"} {
			if !strings.Contains(calls, w) {
				t.Errorf("ascii=%v: the tree lacks %q:\n%s", ascii, w, calls)
			}
		}
		if strings.Contains(calls, "╭") || strings.Contains(calls, "+--") {
			t.Errorf("boxes drawn at 40 columns:\n%s", calls)
		}
	}
}

// TestDuplicateFindingsAsFormatted: each workspace_duplicate_package
// finding has the message fmt formatted and the hash of its name, however
// many copies (one other, a few, more than duplicatesNamed) and names
// (each with its own hash, computed once per name); a package at rel ""
// is named by its Dir.
func TestDuplicateFindingsAsFormatted(t *testing.T) {
	var agents []Agent
	for _, g := range []struct {
		name string
		n    int
	}{{"@acme/two", 2}, {"@acme/four", 4}, {"@acme/seven", 7}} {
		for k := range g.n {
			d := fmt.Sprintf("agents/%s-v%d/pkg", g.name[len("@acme/"):], k)
			rel := d[len("agents/"):]
			if k == 1 {
				rel = "" // outside the root: named by its Dir
			}
			agents = append(agents, Agent{Dir: d, Rel: rel, Package: g.name, Version: "1.0.0", Parsed: true,
				PackageFile: d + "/package.json", NameLine: 2, NameColumn: 3})
		}
	}
	ix := Build("agents", agents, nil)
	byName := map[string][]int{}
	for i := range ix.Agents {
		byName[ix.Agents[i].Package] = append(byName[ix.Agents[i].Package], i)
	}
	where := func(i int) string {
		if r := ix.Agents[i].Rel; r != "" {
			return r
		}
		return ix.Agents[i].Dir
	}
	want := map[string]compile.Finding{} // by file
	for name, is := range byName {
		slices.SortStableFunc(is, func(x, y int) int { return strings.Compare(pkgPath("", &ix.Agents[x]), pkgPath("", &ix.Agents[y])) })
		for _, i := range is {
			var others []string
			for _, j := range is {
				if j != i && len(others) < duplicatesNamed {
					others = append(others, where(j))
				}
			}
			n := len(is) - 1
			also := "the package in " + others[0] + " is"
			if n > 1 {
				named := strings.Join(others, ", ")
				if n > duplicatesNamed {
					named = fmt.Sprintf("%s and %d more", strings.Join(others[:duplicatesNamed], ", "), n-duplicatesNamed)
				}
				also = "the packages in " + named + " are"
			}
			res := "child look-ups resolve to this one"
			if is[0] != i {
				res = "child look-ups resolve to " + where(is[0]) + ", never to this one"
			}
			want[ix.Agents[i].PackageFile] = compile.Finding{Message: fmt.Sprintf("%s is named %s, and %s named so too: %s", where(i), name, also, res),
				ValueHash: compile.HashValue(name)}
		}
	}
	n := 0
	for _, f := range ix.Findings {
		if f.Code != "workspace_duplicate_package" {
			continue
		}
		n++
		w, ok := want[f.File]
		if !ok || f.Message != w.Message || f.ValueHash != w.ValueHash {
			t.Errorf("%s: %q %s\nwant %q %s", f.File, f.Message, f.ValueHash, w.Message, w.ValueHash)
		}
	}
	if n != 13 {
		t.Errorf("%d duplicate findings for 13 packages", n)
	}
}
