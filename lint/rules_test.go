package lint

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// TestRuleList: All is well formed — unique codes, every rule with a doc,
// a group and (unless loading or review) a Check; the Checks the review
// runs are exactly those of the list; LookupRule finds every rule and
// Rules() is the non-loading part sorted by code.
func TestRuleList(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All {
		if seen[r.Code] {
			t.Errorf("%s listed twice", r.Code)
		}
		seen[r.Code] = true
		if r.Doc == "" || r.Group == "" || r.Severity == "" {
			t.Errorf("%s: doc, group or severity missing", r.Code)
		}
		if (r.Check == nil) != (r.Group == groupLoading || r.Group == groupReview || r.Group == groupWorkspace || r.Group == GroupDryRun) {
			t.Errorf("%s (group %s): check %v", r.Code, r.Group, r.Check)
		}
		if LookupRule(r.Code) != r {
			t.Errorf("LookupRule(%s) is not the listed rule", r.Code)
		}
	}
	var want []string
	for _, r := range All {
		if r.Group != groupLoading {
			want = append(want, r.Code)
		}
	}
	slices.Sort(want)
	var got []string
	for _, r := range Rules() {
		got = append(got, r.Code)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Rules() = %v\nwant %v", got, want)
	}
	names := map[string]bool{}
	for _, c := range checks {
		if c.Name == "" || c.Run == nil || names[c.Name] {
			t.Errorf("check %q: no name, no Run, or a name used twice", c.Name)
		}
		names[c.Name] = true
	}
	if len(checks) < 13 {
		t.Errorf("%d checks; the review has at least 13 passes", len(checks))
	}
}

// TestReportUnlistedRule: a rule missing from All is reported as the
// internal_unregistered_rule warning, not silently.
func TestReportUnlistedRule(t *testing.T) {
	doc := compile.ParseDocFile("x.json", []byte(`{"a":1}`))
	p := &Pass{}
	p.Report(doc, "/a", &Rule{Code: "made_up", Severity: compile.Blocker}, "boom")
	p.Report(doc, "/a", RuleOASStructural, "listed")
	fs := p.Findings()
	if len(fs) != 2 || fs[0].Code != RuleInternalUnregisteredRule.Code || fs[0].Severity != compile.Warning ||
		!strings.Contains(fs[0].Message, `"made_up"`) || fs[1].Code != "oas_structural" {
		t.Errorf("got %+v", fs)
	}
}

// Every rule has an ok and an err fixture, in one layout (as in
// actionlint):
//
//	testdata/rules/err/<code>/        input that gives a finding of <code>
//	testdata/rules/err/<code>.golden  every finding of it (-update rewrites)
//	testdata/rules/ok/<code>/         input that gives no finding of <code>
//
// A fixture folder is an agent package (it holds cinatra/oas.json, or a
// legacy flow file), or else a folder of cases: each flow file
// (*.json, *.yaml, *.yml) in it is reviewed alone, each agent package in
// it as a package. A case is reviewed as `oastui lint` does, in the
// deterministic mode (--mode advisory for the review's own rules, so the
// advisory markers show; --mode full for the dry run's), with the
// .oastui.yaml of its folder when it has one. A new rule is its
// check, one line in rules.go and these two folders; TestRuleFixtures
// fails for a rule that lacks either.
//
// The workspace_* rules are raised across the agents of a tree, by
// package workspace: their fixture folder holds an agents/ tree, reviewed
// as the TUI's home screen and `oastui lint DIR` do (reviewTree).
const rulesFixtureDir = "testdata/rules"

// noFixture: the rules that no reviewed input can raise, and why; each
// has its own test. Nothing else may be listed.
var noFixture = map[string]string{
	"internal_error":             "raised only when the analysis panics (analysis recovers and reports it; analysis's tests)",
	"internal_unregistered_rule": "raised only for a rule missing from All, which no input can cause (TestReportUnlistedRule)",
}

type ruleFixture struct {
	path    string
	profile compile.Profile // always auto for the fixtures; the fix tests' copies keep it
	mode    Mode
	tree    bool // path is a folder holding an agents/ tree (the workspace_* rules)
}

// reviewTree returns the workspace findings of the agents/ tree under
// dir. Package workspace imports lint, so an external test file sets it
// (workspace_fixtures_test.go).
var reviewTree func(t *testing.T, dir string) []Finding

// fixtureCases lists the cases of the fixture folder dir (see
// rulesFixtureDir), sorted; none when dir is missing.
func fixtureCases(dir string) []string {
	if isAgentPackage(dir) {
		return []string{dir}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch ext := filepath.Ext(e.Name()); {
		case e.IsDir() && isAgentPackage(p):
			out = append(out, p)
		case !e.IsDir() && (ext == ".json" || ext == ".yaml" || ext == ".yml"):
			out = append(out, p)
		}
	}
	return out
}

func isAgentPackage(dir string) bool {
	for _, rel := range compile.FlowCandidates {
		if rvFileExists(filepath.Join(dir, rel)) {
			return true
		}
	}
	return false
}

// fixturesOf finds the ok and err cases of rule r.
func fixturesOf(t *testing.T, r *Rule) (oks, errs []ruleFixture) {
	mode := ModeDeterministic
	switch r.Group {
	case groupReview:
		mode = ModeAdvisory // the advisory markers are the advisory review's
	case GroupDryRun:
		mode = ModeFull // the dry run's rules are the full review's
	}
	cases := fixtureCases
	if r.Group == groupWorkspace {
		cases = func(dir string) []string {
			if rvIsDir(filepath.Join(dir, "agents")) {
				return []string{dir}
			}
			return nil
		}
	}
	tree := r.Group == groupWorkspace
	for _, p := range cases(filepath.Join(rulesFixtureDir, "ok", r.Code)) {
		oks = append(oks, ruleFixture{path: p, mode: mode, tree: tree})
	}
	for _, p := range cases(filepath.Join(rulesFixtureDir, "err", r.Code)) {
		errs = append(errs, ruleFixture{path: p, mode: mode, tree: tree})
	}
	return oks, errs
}

// reviewFixtureCached is reviewFixture for the fixtures in the repository,
// which never change during a run: TestRuleFixtures and TestRulesDoc
// review the same ones, so each is reviewed once per test binary (the
// findings are only read).
func reviewFixtureCached(t *testing.T, fx ruleFixture) []Finding {
	t.Helper()
	key := fx.path + "\x00" + string(fx.profile) + "\x00" + string(fx.mode)
	if fs, ok := fixtureReviews.Load(key); ok {
		return fs.([]Finding)
	}
	fs := reviewFixture(t, fx)
	fixtureReviews.Store(key, fs)
	return fs
}

var fixtureReviews sync.Map // fixture path + profile + mode → its findings

// fixtureCodes is the set of codes a fixture case gives. Many ok folders
// hold copies of the same valid agents, so the review is keyed by the
// case's bytes (its files' names and contents) and the mode: a copy is
// reviewed once.
func fixtureCodes(t *testing.T, fx ruleFixture) map[string]bool {
	t.Helper()
	pathKey := fmt.Sprintf("%s\x00%s\x00%s\x00%v", fx.path, fx.profile, fx.mode, fx.tree)
	if m, ok := fixtureCodesByPath.Load(pathKey); ok {
		return m.(map[string]bool) // the group check asks again for the same case
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v\x00", filepath.Base(fx.path), fx.profile, fx.mode, fx.tree)
	err := filepath.WalkDir(fx.path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(fx.path, p)
		fmt.Fprintf(h, "%s\x00%d\x00%s", rel, len(b), b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if dir := filepath.Dir(fx.path); !rvIsDir(fx.path) {
		if b, err := os.ReadFile(filepath.Join(dir, ".oastui.yaml")); err == nil {
			fmt.Fprintf(h, "config\x00%s", b)
		}
	}
	key := string(h.Sum(nil))
	if m, ok := fixtureCodeSets.Load(key); ok {
		fixtureCodesByPath.Store(pathKey, m)
		return m.(map[string]bool)
	}
	m := map[string]bool{}
	for _, f := range reviewFixture(t, fx) {
		m[f.Code] = true
	}
	fixtureCodeSets.Store(key, m)
	fixtureCodesByPath.Store(pathKey, m)
	return m
}

var (
	fixtureCodeSets    sync.Map // hash of a case's bytes → the codes it gives
	fixtureCodesByPath sync.Map // a case's path, profile, mode, tree → the same
)

// reviewFixture reviews one fixture case as `oastui lint --mode
// fx.mode` does, with the .oastui.yaml of its folder when there is one.
func reviewFixture(t *testing.T, fx ruleFixture) []Finding {
	t.Helper()
	if fx.tree {
		return reviewTree(t, fx.path)
	}
	a, err := compile.Load(fx.path, compile.LoadOptions{Profile: fx.profile})
	if err != nil {
		t.Fatalf("%s: %v", fx.path, err)
	}
	cfg := &Config{}
	dir := fx.path
	if !rvIsDir(dir) {
		dir = filepath.Dir(dir)
	}
	if p := filepath.Join(dir, ".oastui.yaml"); rvFileExists(p) {
		if cfg, err = LoadConfig(p); err != nil {
			t.Fatal(err)
		}
	}
	return review(a, Options{Mode: fx.mode, Config: cfg}).Findings
}

func rvIsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func rvFileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// renderRuleFindings prints the findings of code (every finding when code
// is ""), one a line: file:line:col: severity [code] pointer (source …):
// message, file relative to testdata/rules; the pointer when there is
// one, the source when it is not the deterministic review.
func renderRuleFindings(fs []Finding, code string) string {
	var b strings.Builder
	for _, f := range fs {
		if code != "" && f.Code != code {
			continue
		}
		file := filepath.ToSlash(f.File)
		if i := strings.Index(file, rulesFixtureDir+"/"); i >= 0 {
			file = file[i+len(rulesFixtureDir)+1:]
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s [%s]", file, f.Line, f.Column, f.Severity, f.Code)
		if f.Location != "" {
			b.WriteString(" " + f.Location)
		}
		if f.Source != compile.SourceDeterministic {
			b.WriteString(" (source " + f.Source + ")")
		}
		b.WriteString(": " + f.Message + "\n")
	}
	return b.String()
}

// checkRuleFixtures asserts the ok and err fixtures of r: no ok case
// gives a finding of r, every err case gives one, every finding of an err
// case has a position, and the err cases' findings, all of them, are the
// expected output beside them.
func checkRuleFixtures(t *testing.T, r *Rule) {
	oks, errs := fixturesOf(t, r)
	if len(oks) == 0 {
		t.Errorf("%s: no ok fixture (add %s/ok/%s)", r.Code, rulesFixtureDir, r.Code)
	}
	if len(errs) == 0 {
		t.Errorf("%s: no err fixture (add %s/err/%s and its .golden)", r.Code, rulesFixtureDir, r.Code)
		return
	}
	for _, fx := range oks {
		if fixtureCodes(t, fx)[r.Code] {
			t.Errorf("%s: ok fixture %s reports it:\n%s", r.Code, fx.path, renderRuleFindings(reviewFixture(t, fx), r.Code))
		}
	}
	// For a check's rules, the ok fixtures of the other rules of the
	// group are ok for r too (so a valid agent need not be copied into
	// every rule's folder). Not for the loading, review, workspace and dry
	// run rules: an agent ok for one of them may rightly raise another (an
	// advisory marker, say).
	for j, o := range All {
		if r.Check == nil || o == r || o.Group != r.Group {
			continue
		}
		// Under -race the ok fixtures of every third rule of the group
		// (as TestRuleFixtures takes every third rule: the ok fixtures of
		// the others would be reviewed for these checks alone); all of
		// them in CI's run without it.
		if j%race.Stride(3) != 0 {
			continue
		}
		others, _ := fixturesOf(t, o)
		for _, fx := range others {
			if fixtureCodes(t, fx)[r.Code] {
				t.Errorf("%s: the ok fixture %s of %s (same group) reports it:\n%s", r.Code, fx.path, o.Code, renderRuleFindings(reviewFixture(t, fx), r.Code))
			}
		}
	}
	var all strings.Builder
	for _, fx := range errs {
		fs := reviewFixtureCached(t, fx)
		got := renderRuleFindings(fs, r.Code)
		if got == "" {
			t.Errorf("%s: err fixture %s does not report it", r.Code, fx.path)
		}
		for _, f := range fs {
			if f.Line < 1 || f.Column < 1 {
				t.Errorf("%s: %s: a finding without a position: %+v", r.Code, fx.path, f)
			}
		}
		all.WriteString(renderRuleFindings(fs, ""))
	}
	golden := filepath.Join(rulesFixtureDir, "err", r.Code+".golden")
	if updateGoldens() {
		if err := os.WriteFile(golden, []byte(all.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Errorf("%s: %v (go test ./lint -run TestRuleFixtures -update writes it)", r.Code, err)
		return
	}
	if got := all.String(); got != string(want) {
		t.Errorf("%s: findings differ from %s (go test ./lint -run TestRuleFixtures -update rewrites it; review the diff):\n%s", r.Code, golden, firstDiff(string(want), got))
	}
}

// TestRuleFixtures walks the rule list: every rule has an ok and an err
// fixture, and they behave.
func TestRuleFixtures(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	for i, r := range All {
		if why, ok := noFixture[r.Code]; ok {
			if why == "" {
				t.Errorf("%s: no reason for having no fixture", r.Code)
			}
			continue
		}
		// Under -race every third rule (TestRulesDoc still reviews every
		// err fixture there); all of them in CI's run without it.
		if i%race.Stride(3) != 0 {
			continue
		}
		t.Run(r.Code, func(t *testing.T) { checkRuleFixtures(t, r) })
	}
	for code := range noFixture {
		if LookupRule(code) == nil {
			t.Errorf("noFixture names %s, which is not a rule", code)
		}
	}
	// Every fixture folder belongs to a rule.
	for _, kind := range []string{"ok", "err"} {
		ents, err := os.ReadDir(filepath.Join(rulesFixtureDir, kind))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			code := strings.TrimSuffix(e.Name(), ".golden")
			if LookupRule(code) == nil || (e.IsDir() != (code == e.Name())) {
				t.Errorf("%s/%s/%s: not a rule's fixture", rulesFixtureDir, kind, e.Name())
			}
		}
	}
}
