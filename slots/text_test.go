package slots

import (
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ICP 2026", "plain ICP 2026"},
		{"ünïcødé — ok", "ünïcødé — ok"},
		{"red \x1b[31mtext\x1b[0m", "red text"},
		{"title\x1b]0;pwned\x07 end", "title end"},
		{"link \x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\", "link click"},
		{"clear\x1b[2J\x1b[H", "clear"},
		{"c1 csi \u009b31m x", "c1 csi  x"},
		{"bell\x07 nul\x00 del\x7f", "bell nul del"},
		{"new\nline\ttab\rcr", "new line tab cr"},
		{"bidi \u202eevil\u202c", "bidi evil"},
		{"charset \x1b(Bx", "charset x"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"dangling \x1b", "dangling "},
		{"dcs \x1bPq#0;2;0;0;0\x1b\\ after", "dcs  after"},
	}
	for _, tc := range tests {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"a\x1b[31mb", "\x1b]0;x\x07", "\u009b1m", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Printable(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("control %U left in %q (from %q)", r, out, s)
			}
		}
	})
}
