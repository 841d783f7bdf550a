package diff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCaseFixtures: each folder of testdata/cases is one case the issue of a
// reviewer's trust named (a wrong label or level, a silent change): its pair
// old/new, the expected text output beside them, and in want the check ids
// (one a line, "-id" for one that must not be raised, "id level" for a
// level) that decide the case.
func TestCaseFixtures(t *testing.T) {
	ents, err := os.ReadDir(filepath.Join("testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) == 0 {
		t.Fatal("no cases")
	}
	for _, e := range ents {
		dir := filepath.Join("testdata", "cases", e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			r := diffDirs(t, filepath.Join(dir, "old"), filepath.Join(dir, "new"))
			var b bytes.Buffer
			if err := Text(&b, r, dir, false); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "want"))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
				id, level, _ := strings.Cut(strings.TrimSpace(line), " ")
				absent := strings.HasPrefix(id, "-")
				id = strings.TrimPrefix(id, "-")
				if _, ok := byID[id]; !ok {
					t.Fatalf("want: %s names no check", id)
				}
				found := false
				for _, c := range r.Changes {
					if c.Check == id && (level == "" || string(c.Level) == level) {
						found = true
					}
				}
				if found == absent {
					t.Errorf("%s: want %q, got:\n%s", e.Name(), line, b.String())
				}
			}
			golden(t, filepath.Join(dir, "expected"), b.Bytes())
			validateResult(t, r)
			checkInverse(t, Analyze(filepath.Join(dir, "old"), nil, nil), Analyze(filepath.Join(dir, "new"), nil, nil))
		})
	}
}
