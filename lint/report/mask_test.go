package report

import (
	"fmt"
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
