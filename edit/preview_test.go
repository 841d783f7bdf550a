package edit

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
)

func ident(p string) string { return p }

// TestPreviewPresented: the one fix preview passes the file's text through
// the one presentation function — no raw token, password, C1 or bidi
// character in the kept, removed or added lines — and masks a line alike
// whatever its marker.
func TestPreviewPresented(t *testing.T) {
	src := "{\n  \"note\": \"" + hostile.Secrets + "\",\n  \"password\": \"Zq8vLw3mRt\",\n  \"version\": \"0.1.0\"\n}\n"
	i := strings.Index(src, "0.1.0")
	j := strings.Index(src, "Zq8vLw3mRt")
	b := Plan([]Candidate{{ID: "x", Fixes: []Fix{{Edits: []Edit{
		{Path: "f.json", Start: i, End: i + 5, New: "0.2.0 " + hostile.Token},
		{Path: "f.json", Start: j, End: j + 1, New: "Y"},
	}}}}})
	d, err := b.Preview(map[string][]byte{"f.json": []byte(src)}, ident)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range hostile.Raw {
		if strings.Contains(d, raw) {
			t.Errorf("the preview shows %q:\n%s", raw, d)
		}
	}
	for _, l := range strings.Split(d, "\n") {
		if strings.Contains(l, "password") && strings.Contains(l, "q8vLw3mRt") {
			t.Errorf("a %q line shows the password: %q", l[:1], l)
		}
	}
	if !strings.Contains(d, "--- a/f.json\n+++ b/f.json\n@@ ") || !strings.Contains(d, "+  \"version\": \"0.2.0 ghp_") {
		t.Errorf("not the unified diff of the edit:\n%s", d)
	}
	one, err := PreviewFix(b.Chosen[0].Fix, map[string][]byte{"f.json": []byte(src)}, ident)
	if err != nil || one != d {
		t.Errorf("PreviewFix of the batch's one fix differs (%v):\n%s\n--- vs\n%s", err, one, d)
	}
}
