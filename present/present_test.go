package present

import (
	"strings"
	"testing"
)

// tok is a GitHub token shape (ghp_ and 36 characters) the detector finds.
const tok = "ghp_R8x2Kq7LmZ4vN1pW9sT3yB6cD0fG5hJ8kLmN"

// split cuts tok in three pieces too short to be judged alone, joined by
// sep.
func split(sep string) string { return tok[:12] + sep + tok[12:24] + sep + tok[24:] }

// TestTextOrder holds the order of the one presentation function:
// sanitise, then mask. Each input hides the token behind something the
// sanitiser removes; masking first would not see the token and the
// sanitiser would then print it whole. The test also runs the other order
// to prove each case tells the two apart.
func TestTextOrder(t *testing.T) {
	if _, ok := Detect("", tok); !ok {
		t.Fatalf("the test token is not detected")
	}
	for name, in := range map[string]string{
		"form feed":     split("\f"),
		"vertical tab":  split("\v"),
		"csi with ;":    split("\x1b[1;31m"),
		"c1 csi with ;": split("\u009b1;31m"),
		"osc with ;":    split("\x1b]8;;x\x1b\\"),
	} {
		t.Run(name, func(t *testing.T) {
			for _, f := range []struct {
				name string
				fn   func(string) string
			}{{"Text", Text}, {"Line", Line}, {"Lines", Lines}} {
				if got := f.fn("see " + in + " here"); strings.Contains(got, tok[4:20]) || !strings.Contains(got, "…") {
					t.Errorf("%s(%q) = %q: the token is shown", f.name, in, got)
				}
			}
			if other := Clean(Redact("see " + in + " here")); !strings.Contains(other, tok) {
				t.Errorf("mask-then-sanitise masked %q too (%q): the case does not tell the orders apart", in, other)
			}
		})
	}
}

// TestTextSafe: what Text, Line and Lines return holds no control
// character, escape, bidi or zero-width character, and no raw token.
func TestTextSafe(t *testing.T) {
	in := "a\x1b[31mred\x1b[0m \u202eevil\u2066 \u009b2J " + tok + "\tend\r\nnext: https://user:s3cr3tP4ss@example.com/x\n"
	for _, f := range []func(string) string{Text, Line, Lines} {
		out := f(in)
		for _, r := range out {
			if r != '\t' && r != '\n' && Unsafe(r) {
				t.Errorf("%q: unsafe rune %U in %q", in, r, out)
			}
		}
		if strings.Contains(out, tok) || strings.Contains(out, "s3cr3tP4ss") {
			t.Errorf("a secret is shown: %q", out)
		}
	}
	if got := Lines("a\r\nb\tc\n"); got != "a\nb\tc\n" {
		t.Errorf("Lines keeps line breaks and tabs: %q", got)
	}
	if got := Text("a\nb\tc"); got != "a b c" {
		t.Errorf("Text makes line breaks and tabs spaces: %q", got)
	}
}

// TestValue: a value is sanitised, then masked under its key, line by line.
func TestValue(t *testing.T) {
	const lit = "Zq8vN3kR7wP2mX5t" // a literal only a secret-named key makes a secret
	if got := Value("api_key", lit); got == lit || strings.Contains(got, lit[4:]) {
		t.Errorf("Value(api_key) = %q: not masked", got)
	}
	if got := Value("note", lit); got != lit {
		t.Errorf("Value(note) = %q: masked under a neutral key", got)
	}
	if got := Value("api_key", "a\x1b[31m\r\n"+split("\u200b")+"\n"+lit); strings.Contains(got, "\x1b") || strings.Contains(got, tok[4:]) || strings.Contains(got, lit[4:]) || strings.Count(got, "\n") != 2 {
		t.Errorf("Value(api_key, multi-line) = %q", got)
	}
}

// TestTextNoCopy: text with no secret and nothing to sanitise is returned
// as it is, without a copy (a report of 100,000 placeholders passes each
// of its strings through Text).
func TestTextNoCopy(t *testing.T) {
	for _, s := range []string{"nothing feeds it: no data edge, no default (OAS-RUNTIME-001)", "name: value", "/$referenced_components/llm/inputs/0"} {
		if n := testing.AllocsPerRun(10, func() { _ = Text(s) }); n != 0 {
			t.Errorf("Text(%q): %v allocations", s, n)
		}
	}
}
