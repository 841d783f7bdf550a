package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/oastui/oastui/compile"
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

// Every rule has an ok and an err fixture. New rules put them here, as in
// actionlint: testdata/rules/err/<code> (an agent package or a flow file)
// with the expected findings of <code> in testdata/rules/err/<code>.golden,
// and testdata/rules/ok/<code>, which gives no finding of <code>. Rules
// older than this layout keep their fixtures where their suites pin them
// in full (fixturesOf). Each fixture is reviewed as the CLI does in
// advisory mode (so advisory markers show), with the .oastui.yaml of its
// directory when it has one.
const rulesFixtureDir = "testdata/rules"

// noFixture: rules that no input can raise; their own tests cover them.
var noFixture = map[string]string{
	"internal_error":                   "raised only when the analysis panics (tui/analysis.go recovers and reports it)",
	"internal_unregistered_rule":       "raised only for a rule missing from All (TestReportUnlistedRule)",
	"workspace_child_missing":          "raised across a tree by package workspace, not by one agent's review (workspace/testdata)",
	"workspace_child_version_mismatch": "raised across a tree by package workspace, not by one agent's review (workspace/testdata)",
	"workspace_dependency_cycle":       "raised across a tree by package workspace, not by one agent's review (workspace/testdata)",
	"workspace_duplicate_package":      "raised across a tree by package workspace, not by one agent's review (workspace/testdata)",
}

// pendingLoading: loading rules the compile package does not raise yet;
// TestLoadingRuleFixtures checks their fixtures.
var pendingLoading = map[string]bool{"duplicate_key": true, "package_json_invalid": true}

type ruleFixture struct {
	path    string
	profile compile.Profile
}

// fixturesOf finds the ok and err fixtures of rule r.
func fixturesOf(t *testing.T, r *Rule) (oks, errs []ruleFixture) {
	add := func(list *[]ruleFixture, profile compile.Profile, paths ...string) {
		for _, p := range paths {
			*list = append(*list, ruleFixture{p, profile})
		}
	}
	glob := func(pattern string) []string {
		m, _ := filepath.Glob(pattern)
		slices.Sort(m)
		return m
	}
	// goldenCases: the case directories of base whose golden names code.
	goldenCases := func(base, code string) []string {
		var out []string
		for _, g := range glob(filepath.Join(base, "*.golden")) {
			dir := strings.TrimSuffix(g, ".golden")
			if strings.HasPrefix(filepath.Base(dir), "ok-") {
				continue
			}
			if b, err := os.ReadFile(g); err == nil && strings.Contains(string(b), "["+code+"]") {
				out = append(out, dir)
			}
		}
		return out
	}
	if _, err := os.Stat(filepath.Join(rulesFixtureDir, "err", r.Code)); err == nil {
		add(&errs, "", filepath.Join(rulesFixtureDir, "err", r.Code))
	}
	if _, err := os.Stat(filepath.Join(rulesFixtureDir, "ok", r.Code)); err == nil {
		add(&oks, "", filepath.Join(rulesFixtureDir, "ok", r.Code))
	}
	switch r.Group {
	case "agentspec", "flowgraph":
		add(&errs, "", glob(filepath.Join(asFixtureDir, "err", r.Code+".*"))...)
		add(&errs, "", glob(filepath.Join(asFixtureDir, "err", r.Code+"__*"))...)
		add(&oks, "", glob(filepath.Join(asFixtureDir, "ok", "*"))...)
	case validatorGroup:
		if p := filepath.Join(valFixtureDir, r.Code, "oas.json"); rvFileExists(p) {
			add(&errs, compile.ProfileCinatra, p)
		}
		add(&oks, "", glob(filepath.Join("..", "testdata", "invalid", "scans", "ok-*"))...)
	case "scan", "package", "slots":
		for _, base := range []string{filepath.Join("..", "testdata", "invalid", "scans"), filepath.Join("..", "testdata", "invalid", "slots"), filepath.Join("testdata", "secrets")} {
			add(&errs, "", goldenCases(base, r.Code)...)
			for _, d := range glob(filepath.Join(base, "ok-*")) {
				if st, err := os.Stat(d); err == nil && st.IsDir() {
					add(&oks, "", d)
				}
			}
		}
	}
	return oks, errs
}

// reviewFixtureCached is reviewFixture for the fixtures in the repository,
// which never change during a run: TestEveryRuleHasFixtures and
// TestRulesDoc review the same ones, so each is reviewed once per test
// binary (the findings are only read).
func reviewFixtureCached(t *testing.T, fx ruleFixture) []Finding {
	t.Helper()
	key := fx.path + "\x00" + string(fx.profile)
	if fs, ok := fixtureReviews.Load(key); ok {
		return fs.([]Finding)
	}
	fs := reviewFixture(t, fx)
	fixtureReviews.Store(key, fs)
	return fs
}

var fixtureReviews sync.Map // fixture path + profile → its findings

// reviewFixture reviews one fixture as `oastui lint --mode advisory` does
// (--mode full for the dry run's fixtures).
func reviewFixture(t *testing.T, fx ruleFixture) []Finding {
	t.Helper()
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
	mode := ModeAdvisory
	if strings.HasPrefix(filepath.Base(fx.path), "dryrun_") {
		mode = ModeFull // the dry run's rules are the full review's
	}
	return Run(a, Options{Mode: mode, Config: cfg}).Findings
}

func rvIsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// renderRuleFindings prints the findings of one rule, one a line:
// file:line:col: severity [code] pointer (source …), file relative to
// testdata/rules; the pointer when there is one, the source when it is
// not the deterministic review.
// Messages are pinned by the suites of each group, not here.
func renderRuleFindings(fs []Finding, code string) string {
	var b strings.Builder
	for _, f := range fs {
		if f.Code != code {
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
		b.WriteString("\n")
	}
	return b.String()
}

// checkRuleFixtures asserts the ok and err fixtures of r and, for the
// fixtures under testdata/rules, the expected output beside them.
func checkRuleFixtures(t *testing.T, r *Rule) {
	oks, errs := fixturesOf(t, r)
	if len(oks) == 0 {
		t.Errorf("%s: no ok fixture (add %s/ok/%s)", r.Code, rulesFixtureDir, r.Code)
	}
	if len(errs) == 0 {
		t.Errorf("%s: no err fixture (add %s/err/%s and its .golden)", r.Code, rulesFixtureDir, r.Code)
	}
	for _, fx := range oks {
		if got := renderRuleFindings(reviewFixtureCached(t, fx), r.Code); got != "" {
			t.Errorf("%s: ok fixture %s reports it:\n%s", r.Code, fx.path, got)
		}
	}
	for _, fx := range errs {
		got := renderRuleFindings(reviewFixtureCached(t, fx), r.Code)
		if got == "" {
			t.Errorf("%s: err fixture %s does not report it", r.Code, fx.path)
			continue
		}
		if filepath.Dir(filepath.Dir(fx.path)) != rulesFixtureDir {
			continue
		}
		golden := fx.path + ".golden"
		if rvUpdate() {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (go test ./lint -run TestEveryRuleHasFixtures -update writes it)", r.Code, err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s: findings differ from %s:\ngot\n%s\nwant\n%s", r.Code, golden, got, want)
		}
	}
}

// TestEveryRuleHasFixtures walks the rule list: every rule has an ok and
// an err fixture, and they behave.
func TestEveryRuleHasFixtures(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	for _, r := range All {
		if why, ok := noFixture[r.Code]; ok {
			if why == "" {
				t.Errorf("%s: no reason for having no fixture", r.Code)
			}
			continue
		}
		if pendingLoading[r.Code] {
			continue
		}
		t.Run(r.Code, func(t *testing.T) { checkRuleFixtures(t, r) })
	}
	for code := range noFixture {
		if LookupRule(code) == nil {
			t.Errorf("noFixture names %s, which is not a rule", code)
		}
	}
}

// TestLoadingRuleFixtures: the fixtures of the loading rules that
// compile.Load raises from this round on (duplicate_key,
// package_json_invalid; /work/PLAN.md). They fail until the compile
// package emits them.
func TestLoadingRuleFixtures(t *testing.T) {
	for _, r := range All {
		if pendingLoading[r.Code] {
			t.Run(r.Code, func(t *testing.T) { checkRuleFixtures(t, r) })
		}
	}
}
