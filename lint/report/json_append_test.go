package report

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/lint"
)

// appendReference is a finding as the encoder writes it (value: reflection,
// indenting, then jsonEscapeInvisible): what appendFinding must match.
func appendReference(t testing.TB, f *lint.Finding, prefix string) string {
	t.Helper()
	var p jsonPart
	if err := p.value(f, prefix); err != nil {
		t.Fatal(err)
	}
	return p.out.String()
}

func checkAppendFinding(t testing.TB, f lint.Finding) {
	t.Helper()
	var p jsonPart
	for _, prefix := range []string{"", "    "} {
		got := string(p.appendFinding([]byte("x"), &f, prefix))[1:]
		if want := appendReference(t, &f, prefix); got != want {
			t.Fatalf("finding %+v under %q:\nappendFinding %q\nthe encoder   %q", f, prefix, got, want)
		}
	}
}

// jsonAppendPieces: what random strings are made of — every escape the
// encoder makes (quotes, backslashes, C0 controls, DEL, U+2028/U+2029,
// invalid UTF-8) and every character jsonEscapeInvisible escapes (C1
// controls, bidirectional and zero-width formatting), next to plain text,
// HTML characters (not escaped) and other non-ASCII text.
var jsonAppendPieces = []string{"a", "node \"start\"", "—", "é", "日本", "😀", "<b>&amp;</b>", "\\", "\"", "/", "\n", "\t", "\r", "\b", "\f",
	"\x00", "\x01", "\x1b[31m", "\x7f", "\u0085", "\u009b", "\u2028", "\u2029", "\u202e", "\u200b", "\u2066", "\ufeff", "\u061c",
	"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "a b c", "{{ x }}", "sk-…41", "   ", "", "\u00a0", "\ufffd"}

func randomJSONString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(8) {
		b.WriteString(jsonAppendPieces[r.IntN(len(jsonAppendPieces))])
	}
	return b.String()
}

func randomFinding(r *rand.Rand) lint.Finding {
	s := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return randomJSONString(r)
	}
	n := func() int { return []int{0, 0, 1, 7, 12345, -3}[r.IntN(6)] }
	f := lint.Finding{Code: s(), Severity: compile.Severity(s()), Message: s(), Location: s(), Source: s(), File: s(),
		Line: n(), Column: n(), EndLine: n(), EndColumn: n(), ValueHash: s(), Start: n(), End: n(), Group: s(), Slot: s()}
	for range r.IntN(3) {
		x := edit.Fix{Title: s(), Tier: edit.Tier(s())}
		for range r.IntN(3) {
			x.Edits = append(x.Edits, edit.Edit{Path: s(), Start: n(), End: n(), New: s()})
		}
		for range r.IntN(3) {
			x.Moves = append(x.Moves, edit.Move{From: s(), To: s()})
		}
		f.Fixes = append(f.Fixes, x)
	}
	if r.IntN(4) == 0 {
		f.Fixes = []edit.Fix{} // empty, not nil: omitted as well
	}
	return f
}

// TestAppendFindingIdentical: the report's encoder without reflection
// writes every finding as encoding/json and jsonEscapeInvisible did — the
// format's sample findings and random ones, every field empty or not, every
// string made of the characters that are escaped and those that are not.
func TestAppendFindingIdentical(t *testing.T) {
	fs, _ := fmtSample()
	for _, f := range fs {
		checkAppendFinding(t, f)
	}
	r := rand.New(rand.NewPCG(39, 7))
	for range 20000 / race.Stride(32) {
		checkAppendFinding(t, randomFinding(r))
	}
}

// FuzzAppendString: go test ./lint/report -run '^$' -fuzz FuzzAppendString
func FuzzAppendString(f *testing.F) {
	for _, p := range jsonAppendPieces {
		f.Add(p + "x" + p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAppendFinding(t, lint.Finding{Code: s, Message: "m " + s, Fixes: []edit.Fix{{Title: s, Edits: []edit.Edit{{New: s}}}}})
		var p jsonPart
		got := p.appendString(nil, s)
		var q jsonPart
		if err := q.value(s, ""); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, q.out.Bytes()) {
			t.Fatalf("appendString(%q) = %q, the encoder %q", s, got, q.out.Bytes())
		}
	})
}

// TestJSONSizeHint: a window's buffer is sized once from jsonSizeHint,
// which must stay near what encode writes for plain findings (well under:
// a growth by doubling again; well over: memory for nothing).
func TestJSONSizeHint(t *testing.T) {
	fs, _ := fmtSample()
	var p jsonPart
	p.encode(fs, false)
	hint := jsonSizeHint(fs)
	if got := len(p.findings); hint < got*7/10 || hint > got*13/10 {
		t.Fatalf("jsonSizeHint %d for %d bytes encoded", hint, got)
	}
	t.Logf("hint %d, encoded %d", hint, len(p.findings))
}
