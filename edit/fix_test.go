package edit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	src := []byte("{\r\n\t\"a\": 1,\r\n\t\"b\": 2\r\n}\r\n")
	cases := []struct {
		name  string
		edits []Edit
		want  string
		err   string
	}{
		{"none", nil, string(src), ""},
		{"replace", []Edit{{Start: 9, End: 10, New: "10"}}, "{\r\n\t\"a\": 10,\r\n\t\"b\": 2\r\n}\r\n", ""},
		{"unsorted", []Edit{{Start: 19, End: 20, New: "3"}, {Start: 9, End: 10, New: "0"}}, "{\r\n\t\"a\": 0,\r\n\t\"b\": 3\r\n}\r\n", ""},
		{"adjacent", []Edit{{Start: 9, End: 10, New: "x"}, {Start: 10, End: 10, New: "y"}}, "{\r\n\t\"a\": xy,\r\n\t\"b\": 2\r\n}\r\n", ""},
		{"overlap", []Edit{{Start: 4, End: 9, New: ""}, {Start: 8, End: 10, New: ""}}, "", "overlap"},
		{"same insertion point", []Edit{{Start: 9, End: 9, New: "a"}, {Start: 9, End: 9, New: "b"}}, "", "overlap"},
		{"insertion inside a span", []Edit{{Start: 4, End: 9, New: ""}, {Start: 6, End: 6, New: "b"}}, "", "overlap"},
		{"out of range", []Edit{{Start: 4, End: 99}}, "", "out of range"},
		{"negative", []Edit{{Start: -1, End: 0}}, "", "out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Apply(src, c.edits)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			back, err := Apply(got, Invert(src, c.edits))
			if err != nil || string(back) != string(src) {
				t.Fatalf("Invert: got %q (%v), want the source back", back, err)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	fa := Fix{Title: "a", Edits: []Edit{{Path: "f", Start: 0, End: 4, New: "x"}}}
	fb := Fix{Title: "b", Edits: []Edit{{Path: "f", Start: 2, End: 6, New: "y"}}} // overlaps fa
	fc := Fix{Title: "c", Edits: []Edit{{Path: "g", Start: 2, End: 6, New: "y"}}} // other file
	fd := Fix{Title: "d", Edits: []Edit{{Path: "f", Start: 4, End: 4, New: "z"}}} // meets fa
	fe := Fix{Title: "e", Edits: []Edit{{Path: "f", Start: 0, End: 4, New: "x"}}} // same as fa
	ff := Fix{Title: "f", Edits: []Edit{{Path: "f", Start: 9, End: 10}, {Path: "f", Start: 9, End: 12}}}
	b := Plan([]Candidate{{ID: "A", Fixes: []Fix{fa, fb}}, {ID: "B", Fixes: []Fix{fb}}, {ID: "C", Fixes: []Fix{fc}},
		{ID: "D", Fixes: []Fix{fd}}, {ID: "E", Fixes: []Fix{fe}}, {ID: "F", Fixes: []Fix{ff}}, {ID: "G"}})
	var chosen []string
	for _, c := range b.Chosen {
		chosen = append(chosen, c.ID+c.SameAs)
	}
	if got := strings.Join(chosen, ","); got != "A,C,D,EA" {
		t.Errorf("chosen %s, want A,C,D,EA", got)
	}
	if len(b.Skipped) != 2 || b.Skipped[0].ID != "B" || !strings.Contains(b.Skipped[0].Reason, "fix of A") ||
		b.Skipped[1].ID != "F" || !strings.Contains(b.Skipped[1].Reason, "own edits overlap") {
		t.Errorf("skipped %+v", b.Skipped)
	}
	if len(b.Edits()) != 3 || strings.Join(b.Files(), ",") != "f,g" {
		t.Errorf("edits %+v files %v", b.Edits(), b.Files())
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := []byte("{\n  \"a\": 1,\n  \"b\": 2\n}\n")
	new := []byte("{\n  \"a\": 1,\n  \"b\": 3\n}\n")
	want := "--- a/x/oas.json\n+++ b/x/oas.json\n@@ -1,4 +1,4 @@\n {\n   \"a\": 1,\n-  \"b\": 2\n+  \"b\": 3\n }\n"
	if got := UnifiedDiff("x/oas.json", old, new); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := UnifiedDiff("x", old, old); got != "" {
		t.Errorf("equal files: %q", got)
	}
}

func TestWriteFix(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "oas.json")
	read := []byte("{\"a\": 1}\n")
	if err := os.WriteFile(p, read, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := WriteFix(p, read, []Edit{{Path: p, Start: 6, End: 7, New: "2"}})
	if err != nil || string(out) != "{\"a\": 2}\n" {
		t.Fatalf("WriteFix = %q, %v", out, err)
	}
	if disk, _ := os.ReadFile(p); string(disk) != string(out) {
		t.Fatalf("disk %q", disk)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600 kept", st.Mode())
	}
	// The file now differs from what was read: refused, untouched.
	_, err = WriteFix(p, read, []Edit{{Path: p, Start: 6, End: 7, New: "3"}})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if disk, _ := os.ReadFile(p); string(disk) != string(out) {
		t.Fatalf("a refused fix wrote %q", disk)
	}
	// A symlink is not followed.
	l := filepath.Join(dir, "link.json")
	if err := os.Symlink(p, l); err == nil {
		if _, err := WriteFix(l, out, []Edit{{Path: l, Start: 6, End: 7, New: "4"}}); !errors.Is(err, ErrNotRegular) {
			t.Errorf("symlink: err = %v", err)
		}
	}
	if _, err := WriteFix(p, out, []Edit{{Path: "other", Start: 0, End: 0}}); err == nil {
		t.Error("an edit of another file was accepted")
	}
}

// TestDiffEdits: the diff built from the edits is the line diff of the
// two versions, for scattered, adjacent, CRLF and final-line edits, and
// for an edit whose new text keeps some of the lines it replaces.
func TestDiffEdits(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, strings.Repeat("x", i%7)+"line")
	}
	src := strings.Join(lines, "\n") + "\n"
	crlf := strings.ReplaceAll(src, "\n", "\r\n")
	off := func(s string, line int) int { // offset of the start of a line
		n := 0
		for range line {
			n += strings.IndexByte(s[n:], '\n') + 1
		}
		return n
	}
	cases := []struct {
		name, src string
		edits     []Edit
	}{
		{"one", src, []Edit{{Start: off(src, 3), End: off(src, 3) + 3, New: "changed"}}},
		{"scattered", src, []Edit{{Start: off(src, 1), End: off(src, 1), New: "new line\n"}, {Start: off(src, 20), End: off(src, 22)}, {Start: off(src, 39), End: len(src) - 1, New: "last"}}},
		{"near", src, []Edit{{Start: off(src, 5), End: off(src, 5) + 1, New: "a"}, {Start: off(src, 8), End: off(src, 8) + 1, New: "b"}}},
		{"adjacent lines", src, []Edit{{Start: off(src, 5), End: off(src, 5) + 1, New: "a"}, {Start: off(src, 6), End: off(src, 6) + 1, New: "b"}}},
		{"one edit keeping lines", src, []Edit{{Start: off(src, 10), End: off(src, 14), New: "new\n" + strings.Join(lines[11:13], "\n") + "\nnew too\n"}}},
		{"crlf", crlf, []Edit{{Start: off(crlf, 2), End: off(crlf, 2), New: "ins\r\n"}}},
		{"no final newline", strings.TrimSuffix(src, "\n"), []Edit{{Start: len(src) - 5, End: len(src) - 1, New: "LINE"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DiffEdits("f", []byte(c.src), c.edits)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := Apply([]byte(c.src), c.edits)
			if want := UnifiedDiff("f", []byte(c.src), out); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
	if d, err := DiffEdits("f", []byte("abc"), []Edit{{Start: 1, End: 2, New: "b"}}); err != nil || d != "" {
		t.Errorf("a no-op edit: %q %v", d, err)
	}
}
