package present

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Campaign setup", "Campaign setup"},
		{"unicode kept", "Prüfung ✋ 审批", "Prüfung ✋ 审批"},
		{"sgr colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"csi cursor and erase", "a\x1b[2J\x1b[1;1Hb\x1b[?25l", "ab"},
		{"osc title bel", "x\x1b]0;pwned\x07y", "xy"},
		{"osc 8 hyperlink st", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"osc 52 clipboard", "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07ok", "ok"},
		{"dcs", "a\x1bPq#0;2;0;0;0#1;2;100;100;0\x1b\\b", "ab"},
		{"apc pm sos", "a\x1b_payload\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d", "abcd"},
		{"unterminated osc", "a\x1b]0;never ends", "a"},
		{"two-byte esc", "a\x1bcb\x1b(Bc\x1b7d", "abcd"},
		{"lone esc at end", "abc\x1b", "abc"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"c1 osc", "a\u009d0;t\u009cb", "ab"},
		{"c1 other", "a\u0085b\u008dc", "abc"},
		{"c0 controls", "a\x00b\x07c\x08d\x7fe", "abcde"},
		{"whitespace controls", "a\tb\nc\rd", "a b c d"},
		{"bidi overrides", "user\u202etxt.exe\u202c \u2066x\u2069\u200f", "usertxt.exe x"},
		{"zero width", "a\u200bb\u200dc\ufeffd\u2060e", "abcde"},
		{"line separators", "a\u2028b\u2029c", "a b c"},
		{"invalid utf8", "a\xffb\xc0c", "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clean(tt.in)
			if got != tt.want {
				t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if Clean(got) != got {
				t.Errorf("not idempotent on %q", got)
			}
		})
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"\x1b[31mx", "\x1b]0;t\x07", "\u202e", "a\xffb", "\u009b1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		if copied := cleanCopy(s, false); out != copied {
			t.Fatalf("Clean(%q) = %q, the copy %q", s, out, copied)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if Unsafe(r) {
				t.Fatalf("Clean(%q) kept %U", s, r)
			}
		}
	})
}

func TestCleanLine(t *testing.T) {
	for in, want := range map[string]string{
		"\t\"a\": 1":                 "\t\"a\": 1",
		"a\tb\nc":                    "a\tb c",
		"x\x1b]0;t\x07\u202ey\u200b": "xy",
		"\x1b[2J\t\u009b1m":          "\t",
	} {
		if got := CleanLine(in); got != want {
			t.Errorf("CleanLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCleanUncopiedSame: the look that returns kept text uncopied
// (cleanRunes) gives what the copy gives, on random text made of what
// Clean removes and what it keeps.
func TestCleanUncopiedSame(t *testing.T) {
	pieces := []string{"a", " ", "—", "é", "日本", "😀", "\ufffd", "\u00a0", "\t", "\n", "\r", "\x00", "\x1b[31m", "\x1b]0;t\x07", "\x7f",
		"\u0085", "\u009b1m", "\u009d", "\u2028", "\u2029", "\u202e", "\u200b", "\u2066", "\ufeff", "\u061c", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80"}
	r := rand.New(rand.NewPCG(39, 1))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		for _, keepTab := range []bool{false, true} {
			if got, want := cleanRunes(s, keepTab), cleanCopy(s, keepTab); got != want {
				t.Fatalf("clean(%q, %v) = %q, the copy %q", s, keepTab, got, want)
			}
		}
	}
}
