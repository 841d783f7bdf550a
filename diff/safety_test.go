package diff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testgit"

	"github.com/oastui/oastui/internal/testshared"
)

// A secret and an escape sequence put into a prompt, a node name and an
// input reach no face unmasked or unsanitised.
func TestFacesMaskAndSanitise(t *testing.T) {
	dir := t.TempDir()
	fix := filepath.Join("testdata", "checks", "diff_prompt_changed")
	testgit.CopyTree(t, filepath.Join(fix, "old"), filepath.Join(dir, "old"))
	testgit.CopyTree(t, filepath.Join(fix, "new"), filepath.Join(dir, "new"))
	flow := filepath.Join(dir, "new", "cinatra", "oas.json")
	b, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	evil := "token " + testshared.FakeGitHub + ` \u001b[31mred\u001b]0;title\u0007`
	nb := bytes.Replace(b, []byte("Cite the sources you used."), []byte(evil), 1)
	nb = bytes.Replace(nb, []byte(`"name": "Summarise topic"`), []byte(`"name": "`+evil+`"`), 1)
	if bytes.Equal(nb, b) {
		t.Fatal("fixture changed")
	}
	if err := os.WriteFile(flow, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	r := diffDirs(t, filepath.Join(dir, "old"), filepath.Join(dir, "new"))
	if len(r.Changes) == 0 {
		t.Fatal("no changes")
	}
	var outs []string
	for _, f := range []func(*bytes.Buffer) error{
		func(w *bytes.Buffer) error { return Text(w, r, dir, false) },
		func(w *bytes.Buffer) error { return Markdown(w, r, dir) },
		func(w *bytes.Buffer) error { return GitHub(w, r, dir) },
		func(w *bytes.Buffer) error { return json.NewEncoder(w).Encode(r) },
	} {
		var w bytes.Buffer
		if err := f(&w); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, w.String())
	}
	for i, out := range outs {
		if strings.Contains(out, testshared.FakeGitHub) {
			t.Errorf("face %d shows the secret:\n%s", i, out)
		}
		if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, `\u001b`) {
			t.Errorf("face %d carries an escape sequence:\n%q", i, out)
		}
	}
}
