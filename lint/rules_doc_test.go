package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/present"
)

const rulesDocPath = "../docs/rules.md"

// TestRulesDoc keeps docs/rules.md in sync with the rule list: it is
// regenerated from All and the rule fixtures and compared (`go generate
// ./lint` rewrites it). Every rule has its section, so every SARIF helpUri
// resolves.
func TestRulesDoc(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	// Under -race the examples of every third rule, those TestRuleFixtures
	// checks there (their err fixtures are reviewed once for both tests);
	// the others' examples are a placeholder, and their sections are
	// compared without the examples. CI's run without -race generates and
	// compares the whole file.
	sampled := map[*Rule]bool{}
	for i, r := range All {
		sampled[r] = i%race.Stride(3) == 0
	}
	var buf bytes.Buffer
	if err := WriteRulesMarkdown(&buf, func(r *Rule) (RuleExample, RuleExample) {
		if !sampled[r] {
			return RuleExample{Note: docSampledOut}, RuleExample{Note: docSampledOut}
		}
		return ruleDocExamples(t, r)
	}); err != nil {
		t.Fatal(err)
	}
	if updateGoldens() {
		if race.Enabled {
			t.Fatal("-update writes docs/rules.md only without -race (under it the examples are a sample)")
		}
		if err := os.WriteFile(rulesDocPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(rulesDocPath)
	if err != nil {
		t.Fatalf("%v (go generate ./lint writes it)", err)
	}
	if race.Stride(3) == 1 {
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("docs/rules.md is out of date with the rule list: run go generate ./lint")
		}
	} else {
		compareRulesDocSampled(t, buf.String(), string(want), sampled)
	}
	doc := buf.String()
	for _, r := range All {
		if !strings.Contains(doc, "\n### "+r.Code+"\n") || !strings.Contains(doc, "(#"+r.Anchor()+")") {
			t.Errorf("%s: no section", r.Code)
		}
	}
	for _, s := range []string{"sk-ant-api03-", "ghp_", "-----BEGIN"} {
		// the checked-in file too: under -race doc has a sample of the examples
		for _, l := range strings.Split(doc+"\n"+string(want), "\n") {
			if strings.Contains(l, s) && present.Redact(l) != l {
				t.Errorf("an unmasked credential in docs/rules.md: %.60s…", l)
			}
		}
	}
}

// docSampledOut is the placeholder example of a rule whose examples
// TestRulesDoc does not generate under -race.
const docSampledOut = "\x00sampled out under -race\x00"

// compareRulesDocSampled compares the generated docs/rules.md with the
// checked-in one under -race: the text before the first rule's section
// and every sampled rule's section byte for byte; the other sections
// without their examples (from the "**Reported" line to the next group's
// heading or the section's end).
func compareRulesDocSampled(t *testing.T, got, want string, sampled map[*Rule]bool) {
	t.Helper()
	gotSecs, wantSecs := ruleDocSections(got), ruleDocSections(want)
	if gotSecs == nil || wantSecs == nil {
		t.Fatalf("docs/rules.md is out of date with the rule list (a rule's section is missing): run go generate ./lint")
	}
	for i, g := range gotSecs {
		w := wantSecs[i]
		if i > 0 && !sampled[All[i-1]] {
			g, w = withoutRuleExamples(g), withoutRuleExamples(w)
		}
		if g != w {
			where := "the text before the first rule"
			if i > 0 {
				where = "the section of " + All[i-1].Code
			}
			t.Errorf("docs/rules.md is out of date with the rule list in %s: run go generate ./lint", where)
		}
	}
}

// ruleDocSections splits docs/rules.md at each rule's heading, in the
// order of All: the text before the first, then one section per rule (nil
// when a heading is missing or out of order).
func ruleDocSections(doc string) []string {
	var secs []string
	from := 0
	for _, r := range All {
		i := strings.Index(doc[from:], "\n### "+r.Code+"\n")
		if i < 0 {
			return nil
		}
		secs = append(secs, doc[from:from+i+1])
		from += i + 1
	}
	return append(secs, doc[from:])
}

// withoutRuleExamples cuts a rule section's examples: from its first
// "**Reported" or "**Not reported" line to the next group's heading.
func withoutRuleExamples(sec string) string {
	i := strings.Index(sec, "\n**Reported")
	if i < 0 {
		i = strings.Index(sec, "\n**Not reported")
	}
	if i < 0 {
		return sec
	}
	j := strings.Index(sec[i:], "\n## Group `")
	if j < 0 {
		return sec[:i+1]
	}
	return sec[:i+1] + sec[i+j+1:]
}

// ruleDocExamples: the err example is the excerpt around the first finding
// of r in its err fixture with the smallest file; the ok example is the
// same place (the finding's pointer) in an ok fixture, when the fixture
// has it, else the ok fixture named.
func ruleDocExamples(t *testing.T, r *Rule) (ok, bad RuleExample) {
	if why, skip := noFixture[r.Code]; skip {
		note := "no fixture: " + why
		return RuleExample{Note: note}, RuleExample{Note: note}
	}
	oks, errs := fixturesOf(t, r)
	var best *Finding
	bestSize := int64(-1)
	for _, fx := range errs {
		for _, f := range reviewFixtureCached(t, fx) {
			if f.Code != r.Code {
				continue
			}
			st, err := os.Stat(f.File)
			if err != nil || st.IsDir() {
				break
			}
			if bestSize < 0 || st.Size() < bestSize {
				f := f
				best, bestSize = &f, st.Size()
			}
			break
		}
	}
	switch {
	case best != nil:
		bad = excerpt(t, best.File, best.Line)
	case len(errs) > 0:
		bad.Note = "see the err fixture `" + repoPath(errs[0].path) + "`"
	}
	for _, fx := range oks {
		if best == nil || best.Location == "" {
			break
		}
		a, err := compile.Load(fx.path, compile.LoadOptions{Profile: fx.profile})
		if err != nil || a.Flow == nil || a.Flow.Root == nil || filepath.Base(a.Flow.Path) != filepath.Base(best.File) {
			continue
		}
		if n := a.Flow.Lookup(best.Location); n != nil {
			line, _ := a.Flow.PointerPosition(best.Location)
			ok = excerpt(t, a.Flow.Path, line)
			ok.Mark = 0
			return ok, bad
		}
	}
	// The dedicated ok fixture is a copy of the err one without the
	// problem: show the same file around the same line.
	if best != nil {
		errDir, _ := filepath.Abs(filepath.Join(rulesFixtureDir, "err", r.Code))
		okDir := filepath.Join(rulesFixtureDir, "ok", r.Code)
		bestAbs, _ := filepath.Abs(best.File)
		if rel, err := filepath.Rel(errDir, bestAbs); err == nil && !strings.HasPrefix(rel, "..") {
			if p := filepath.Join(okDir, rel); rvFileExists(p) {
				ok = excerpt(t, p, best.Line)
				ok.Mark = 0
				return ok, bad
			}
		}
	}
	if len(oks) > 0 {
		ok.Note = "the ok fixture `" + repoPath(oks[0].path) + "` gives no finding of this rule"
	}
	return ok, bad
}

// excerpt is lines line-3..line+3 of file, credentials masked, long lines
// cut.
func excerpt(t *testing.T, file string, line int) RuleExample {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	masked := string(src)
	for _, m := range docSecrets(file, src) {
		masked = strings.ReplaceAll(masked, m[0], m[1])
	}
	lines := strings.Split(strings.TrimRight(masked, "\n"), "\n")
	from, to := max(1, line-3), min(len(lines), line+3)
	ex := RuleExample{File: repoPath(file), Start: from, Mark: line}
	for i := from; i <= to; i++ {
		l := present.Redact(strings.TrimRight(lines[i-1], "\r"))
		if r := []rune(l); len(r) > 140 {
			l = string(r[:140]) + "…"
		}
		ex.Lines = append(ex.Lines, l)
	}
	return ex
}

// docSecrets lists the credentials the scanners find in a file (the
// key-aware walk for JSON, the line scan otherwise) with their masked
// form, so that the examples never print one.
func docSecrets(file string, src []byte) [][2]string {
	var out [][2]string
	add := func(v string, det present.Detection) {
		if s := secretOf(v, det); len(s) >= 6 {
			out = append(out, [2]string{s, det.Masked})
		}
	}
	if d := compile.ParseDoc(file, src); d.Root != nil {
		w := secretWalker{report: func(ptr string, _ present.KeyClass, det present.Detection, secret string) {
			out = append(out, [2]string{secret, det.Masked})
		}}
		w.walk(d.Root, "", present.KeyNeutral)
	}
	for _, l := range strings.Split(string(src), "\n") {
		key, _, val := present.SplitAssignment(strings.TrimRight(l, "\r"))
		if det, ok := present.Detect(key, val); ok {
			add(val, det)
		}
	}
	return out
}

// repoPath is a fixture path relative to the repository root.
func repoPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	root, _ := filepath.Abs("..")
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}
