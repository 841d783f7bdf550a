package diff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/internal/testgit"
)

// TestRepoStringsPresented (issue 35, point 8): a revision as given (a
// branch name, a revision search) and an agent directory with bidi and
// control characters reach no face raw: not the text or markdown header,
// not JSON old.rev / old.file / new.file.
func TestRepoStringsPresented(t *testing.T) {
	const hostile = "evil\u202ename\x1b]0;pwned\x07"
	dir := filepath.Join(t.TempDir(), "agents", "v", hostile)
	src := filepath.Join("testdata", "checks", "diff_node_renamed")
	testgit.CopyTree(t, filepath.Join(src, "old"), filepath.Join(dir, "old"))
	testgit.CopyTree(t, filepath.Join(src, "new"), filepath.Join(dir, "new"))
	cfg := &analysis.ConfigResult{}
	r := Diff(Analyze(filepath.Join(dir, "old"), nil, cfg), Analyze(filepath.Join(dir, "new"), nil, cfg),
		Options{OldRev: "feature/\u202ex\x1b[2J", NewRev: ":/fix \u2066it\u2069"})
	var outs [4]bytes.Buffer
	if err := json.NewEncoder(&outs[0]).Encode(r); err != nil {
		t.Fatal(err)
	}
	if err := Text(&outs[1], r, "", false); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&outs[2], r, ""); err != nil {
		t.Fatal(err)
	}
	if err := GitHub(&outs[3], r, ""); err != nil {
		t.Fatal(err)
	}
	for i, b := range outs {
		var s string
		if i == 0 { // JSON: undo its escapes
			var v any
			_ = json.Unmarshal(b.Bytes(), &v)
			j, _ := json.Marshal(v)
			s = string(j)
			s = strings.NewReplacer(`\u001b`, "\x1b", `\u0007`, "\x07").Replace(s)
		} else {
			s = b.String()
		}
		for _, bad := range []string{"\u202e", "\u2066", "\x1b", "\x07"} {
			if strings.Contains(s, bad) {
				t.Errorf("face %d carries %q raw:\n%s", i, bad, s)
			}
		}
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}
