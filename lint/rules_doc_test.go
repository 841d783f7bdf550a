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
	// Under -race the examples of every third rule, the rules
	// TestRuleFixtures reviews there (so each fixture is reviewed once, for
	// both): the examples are single-goroutine reviews, and CI's run
	// without -race (.ci/run) regenerates and compares the whole page.
	sampled := map[string]bool{}
	for i, r := range All {
		sampled[r.Code] = i%race.Stride(3) == 0
	}
	var buf bytes.Buffer
	if err := WriteRulesMarkdown(&buf, func(r *Rule) (RuleExample, RuleExample) {
		if !sampled[r.Code] {
			return RuleExample{}, RuleExample{}
		}
		return ruleDocExamples(t, r)
	}); err != nil {
		t.Fatal(err)
	}
	if updateGoldens() && !race.Enabled {
		if err := os.WriteFile(rulesDocPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(rulesDocPath)
	if err != nil {
		t.Fatalf("%v (go generate ./lint writes it)", err)
	}
	if !race.Enabled && !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("docs/rules.md is out of date with the rule list: run go generate ./lint")
	}
	if race.Enabled {
		got, wantSec := ruleSections(buf.String()), ruleSections(string(want))
		if len(got) != len(wantSec) {
			t.Errorf("docs/rules.md has %d rule sections, the rule list %d: run go generate ./lint", len(wantSec), len(got))
		}
		for code, sec := range got {
			if sampled[code] && sec != wantSec[code] {
				t.Errorf("docs/rules.md: the section of %s is out of date: run go generate ./lint", code)
			}
		}
	}
	doc := buf.String()
	for _, r := range All {
		if !strings.Contains(doc, "\n### "+r.Code+"\n") || !strings.Contains(doc, "(#"+r.Anchor()+")") {
			t.Errorf("%s: no section", r.Code)
		}
	}
	for _, s := range []string{"sk-ant-api03-", "ghp_", "-----BEGIN"} {
		for _, l := range strings.Split(doc, "\n") {
			if strings.Contains(l, s) && present.Redact(l) != l {
				t.Errorf("an unmasked credential in docs/rules.md: %.60s…", l)
			}
		}
	}
}

// ruleSections splits the rules page at its "### CODE" headings: each
// rule's section (up to the next heading of any level) by its code.
func ruleSections(doc string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(doc, "\n### ")[1:] {
		code, body, _ := strings.Cut(part, "\n")
		if i := strings.Index(body, "\n## "); i >= 0 {
			body = body[:i]
		}
		out[code] = body
	}
	return out
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
