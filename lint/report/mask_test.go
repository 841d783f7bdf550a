package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

const maskToken = "ghp_R8x2Kq7LmZ4vN1pW9sT3yB6cD0fG5hJ8kLmN"

// Mask presents every finding's message and pointer, however many there
// are (they are masked in parts, at once), leaves the others as they are
// and never modifies what it was given.
func TestMask(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1001} {
		var fs []lint.Finding
		for i := range n {
			f := lint.Finding{Code: "c", Severity: compile.Warning, Message: fmt.Sprintf("plain %d", i), Location: fmt.Sprintf("/a/%d", i)}
			if i%3 == 1 {
				f.Message = fmt.Sprintf("key %s in \x1b[31mred\x1b[0m %d", maskToken, i)
			}
			if i%5 == 2 {
				f.Location = "/$referenced_components/" + maskToken + "/id"
			}
			fs = append(fs, f)
		}
		before := fmt.Sprint(fs)
		got := Mask(fs)
		if fmt.Sprint(fs) != before {
			t.Fatalf("%d findings: Mask modified its input", n)
		}
		if len(got) != n {
			t.Fatalf("%d findings: Mask returned %d", n, len(got))
		}
		for i := range got {
			if strings.Contains(got[i].Message, maskToken) || strings.Contains(got[i].Location, maskToken) || strings.Contains(got[i].Message, "\x1b") {
				t.Fatalf("%d findings, [%d]: not presented: %q at %q", n, i, got[i].Message, got[i].Location)
			}
			if got[i].Message != present.Lines(fs[i].Message) || got[i].Location != present.Text(fs[i].Location) {
				t.Fatalf("%d findings, [%d]: %q at %q", n, i, got[i].Message, got[i].Location)
			}
		}
		if n < 2 { // nothing to present in 0 or 1 plain findings: the same slice back
			if n == 1 && &got[0] != &fs[0] {
				t.Errorf("a report with nothing to present was copied")
			}
		}
	}
}

// MaskOwned presents the findings in place, as Mask would, and Mask then
// finds nothing left to present (no copy).
func TestMaskOwned(t *testing.T) {
	fs := []lint.Finding{
		{Code: "c", Message: "key " + maskToken, Location: "/$referenced_components/" + maskToken + "/id"},
		{Code: "c", Message: "plain", Location: "/a"},
	}
	want := Mask(fs)
	MaskOwned(fs)
	for i := range fs {
		if fs[i].Message != want[i].Message || fs[i].Location != want[i].Location {
			t.Errorf("[%d] = %q at %q, want %q at %q", i, fs[i].Message, fs[i].Location, want[i].Message, want[i].Location)
		}
	}
	if again := Mask(fs); &again[0] != &fs[0] {
		t.Error("Mask copied findings MaskOwned had already presented")
	}
}

// maskCases are n findings of which some present differently: secrets,
// terminal escapes and multi-line messages, in the message or the pointer.
func maskCases(n int) []lint.Finding {
	var fs []lint.Finding
	for i := range n {
		f := lint.Finding{Code: "c", Severity: compile.Warning, Message: fmt.Sprintf("plain %d", i), Location: fmt.Sprintf("/a/%d", i), File: "f.json", Line: i + 1, Column: 1}
		switch i % 7 {
		case 1:
			f.Message = fmt.Sprintf("key %s in \x1b[31mred\x1b[0m %d", maskToken, i)
		case 3:
			f.Message = fmt.Sprintf("line one %d\r\ntoken: %s\nthird", i, maskToken)
		case 4:
			f.Location = "/$referenced_components/" + maskToken + "/id"
		case 6:
			f.Message = fmt.Sprintf("bell \a and tab\t%d", i)
		}
		fs = append(fs, f)
	}
	return fs
}

// maskChanged gives what Mask gives when the findings it is not pointed at
// present as they are: each case alone, all of them, and none (the same
// slice back, as Mask's).
func TestMaskChangedSameAsMask(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 50} {
		fs := maskCases(n)
		var changed []int
		for i := range fs {
			if present.Lines(fs[i].Message) != fs[i].Message || present.Text(fs[i].Location) != fs[i].Location {
				changed = append(changed, i)
			}
		}
		if n >= 7 && len(changed) == 0 {
			t.Fatalf("%d findings: none presents differently: the test tests nothing", n)
		}
		before := fmt.Sprint(fs)
		want := Mask(fs)
		got := maskChanged(fs, changed)
		if fmt.Sprint(fs) != before {
			t.Fatalf("%d findings: maskChanged modified its input", n)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d findings: maskChanged\n%v\nwant\n%v", n, got, want)
		}
		if len(changed) == 0 && n > 0 && &got[0] != &fs[0] {
			t.Errorf("%d findings: nothing to present, yet copied", n)
		}
		if len(changed) > 0 && &got[0] == &fs[0] {
			t.Errorf("%d findings: presented in place", n)
		}
	}
}

// Write of findings MaskOwned presented, given its Owned, writes the bytes
// it writes without it (every finding presented again), in every format;
// MaskOwned's Owned names the findings it changed; and an Owned is not
// taken for another slice.
func TestWriteOwnedSameAsMask(t *testing.T) {
	for _, n := range []int{0, 1, 7, 300} {
		orig := maskCases(n)
		fs := slices.Clone(orig)
		owned := MaskOwned(fs)
		var want []int
		for i := range fs {
			if fs[i].Message != orig[i].Message || fs[i].Location != orig[i].Location {
				want = append(want, i)
			}
		}
		if !slices.Equal(owned.changed, want) {
			t.Errorf("%d findings: Owned names %v changed, want %v", n, owned.changed, want)
		}
		if !owned.of(fs) {
			t.Errorf("%d findings: Owned not taken for its own slice", n)
		}
		if n > 0 && (owned.of(slices.Clone(fs)) || owned.of(fs[1:]) || owned.of(fs[:n-1])) {
			t.Errorf("%d findings: Owned taken for another slice", n)
		}
		for _, name := range Names() {
			f, _ := Lookup(name)
			var a, b strings.Builder
			errA := Write(&a, f, Report{Findings: fs, Files: 1, Owned: owned})
			errB := Write(&b, f, Report{Findings: fs, Files: 1})
			if (errA == nil) != (errB == nil) || a.String() != b.String() {
				t.Errorf("%d findings, %s: with Owned\n%s\nwithout\n%s", n, name, a.String(), b.String())
			}
		}
	}
}
