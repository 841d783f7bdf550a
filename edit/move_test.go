package edit

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// movePkg makes dir/agent.json holding body (mode 0600) and returns its path.
func movePkg(t *testing.T, body string) (dir, from string) {
	t.Helper()
	dir = t.TempDir()
	from = filepath.Join(dir, "agent.json")
	if err := os.WriteFile(from, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, from
}

func TestMoveFile(t *testing.T) {
	body := "{\r\n\t\"x\": 1\r\n}" // CRLF, no final newline: kept byte for byte
	dir, from := movePkg(t, body)
	to := filepath.Join(dir, "cinatra", "oas.json")
	created, err := MoveFile(from, to, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "cinatra")}; !slices.Equal(created, want) {
		t.Errorf("created %q, want %q", created, want)
	}
	got, err := os.ReadFile(to)
	if err != nil || string(got) != body {
		t.Fatalf("target holds %q (%v), want %q", got, err, body)
	}
	if st, _ := os.Stat(to); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the source's 0600", st.Mode().Perm())
	}
	if _, err := os.Lstat(from); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the source is still there: %v", err)
	}
	left, _ := os.ReadDir(filepath.Join(dir, "cinatra"))
	if len(left) != 1 {
		t.Errorf("temp files left behind: %v", left)
	}
	// And back (the TUI's undo), into an existing directory.
	if created, err := MoveFile(to, from, []byte(body)); err != nil || len(created) != 0 {
		t.Fatalf("move back: created %q, %v", created, err)
	}
	if got, _ := os.ReadFile(from); string(got) != body {
		t.Errorf("moved back: %q", got)
	}
}

func TestMoveFileRefuses(t *testing.T) {
	body := `{"x": 1}`
	cases := []struct {
		name  string
		setup func(t *testing.T, dir, from string) (to string)
		read  string
		want  error
		msg   string
	}{
		{"target exists", func(t *testing.T, dir, from string) string {
			to := filepath.Join(dir, "oas.json")
			os.WriteFile(to, []byte("mine"), 0o644)
			return to
		}, body, ErrExists, ""},
		{"target is a dangling symlink", func(t *testing.T, dir, from string) string {
			to := filepath.Join(dir, "oas.json")
			os.Symlink(filepath.Join(dir, "nowhere"), to)
			return to
		}, body, ErrExists, ""},
		{"source changed", func(t *testing.T, dir, from string) string {
			return filepath.Join(dir, "cinatra", "oas.json")
		}, `{"x": 0}`, ErrChanged, ""},
		{"source is a symlink", func(t *testing.T, dir, from string) string {
			real := filepath.Join(dir, "real.json")
			os.Rename(from, real)
			os.Symlink(real, from)
			return filepath.Join(dir, "cinatra", "oas.json")
		}, body, ErrNotRegular, "symlink"},
		{"target directory is a symlink", func(t *testing.T, dir, from string) string {
			out := t.TempDir()
			os.Symlink(out, filepath.Join(dir, "cinatra"))
			return filepath.Join(dir, "cinatra", "oas.json")
		}, body, ErrNotRegular, "symlink"},
		{"target directory is a file", func(t *testing.T, dir, from string) string {
			os.WriteFile(filepath.Join(dir, "cinatra"), nil, 0o644)
			return filepath.Join(dir, "cinatra", "oas.json")
		}, body, nil, "not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, from := movePkg(t, body)
			to := c.setup(t, dir, from)
			before := tree(t, dir)
			_, err := MoveFile(from, to, []byte(c.read))
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want %v %q", err, c.want, c.msg)
			}
			if after := tree(t, dir); !slices.Equal(before, after) {
				t.Errorf("refused move changed the tree:\n%q\n%q", before, after)
			}
		})
	}
}

// TestMoveFileRollback: when the source cannot be removed, the copy is
// removed again (with the directory made for it): nothing changed.
func TestMoveFileRollback(t *testing.T) {
	body := `{"x": 1}`
	dir, from := movePkg(t, body)
	removeFile = func(string) error { return os.ErrPermission }
	defer func() { removeFile = os.Remove }()
	before := tree(t, dir)
	_, err := MoveFile(from, filepath.Join(dir, "cinatra", "oas.json"), []byte(body))
	if !errors.Is(err, os.ErrPermission) {
		t.Errorf("the cause is lost: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "not removed") {
		t.Fatalf("err = %v", err)
	}
	if after := tree(t, dir); !slices.Equal(before, after) {
		t.Errorf("failed move left changes:\n%q\n%q", before, after)
	}
}

// tree lists the paths and bytes under dir.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		s := rel + " " + info.Mode().String()
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			s += " " + string(b)
		}
		out = append(out, s)
		return nil
	})
	return out
}

func TestPlanMoves(t *testing.T) {
	mv := Fix{Title: "move", Moves: []Move{{From: "a/agent.json", To: "a/cinatra/oas.json"}}}
	editSrc := Fix{Title: "edit", Edits: []Edit{{Path: "a/agent.json", Start: 0, End: 1, New: "x"}}}
	editOther := Fix{Title: "other", Edits: []Edit{{Path: "a/package.json", Start: 0, End: 1, New: "x"}}}
	b := Plan([]Candidate{{ID: "m", Fixes: []Fix{mv}}, {ID: "e", Fixes: []Fix{editSrc}}, {ID: "o", Fixes: []Fix{editOther}}, {ID: "m2", Fixes: []Fix{mv}}})
	if len(b.Chosen) != 3 || b.Chosen[1].ID != "o" || b.Chosen[2].SameAs != "m" {
		t.Fatalf("chosen %+v", b.Chosen)
	}
	if len(b.Skipped) != 1 || b.Skipped[0].ID != "e" || !strings.Contains(b.Skipped[0].Reason, "moves") {
		t.Fatalf("skipped %+v", b.Skipped)
	}
	// The other order: the edit wins, the move waits for the next round.
	b = Plan([]Candidate{{ID: "e", Fixes: []Fix{editSrc}}, {ID: "m", Fixes: []Fix{mv}}})
	if len(b.Chosen) != 1 || len(b.Skipped) != 1 || !strings.Contains(b.Skipped[0].Reason, "edits") {
		t.Fatalf("chosen %+v skipped %+v", b.Chosen, b.Skipped)
	}
	// A move onto another move's file, and a fix editing what it moves.
	b = Plan([]Candidate{{ID: "m", Fixes: []Fix{mv}}, {ID: "n", Fixes: []Fix{{Title: "n", Moves: []Move{{From: "a/agent.json", To: "b"}}}}},
		{ID: "self", Fixes: []Fix{{Title: "self", Moves: mv.Moves, Edits: []Edit{{Path: "a/cinatra/oas.json"}}}}}})
	if len(b.Chosen) != 1 || len(b.Skipped) != 2 {
		t.Fatalf("chosen %+v skipped %+v", b.Chosen, b.Skipped)
	}
}

func TestBatchMove(t *testing.T) {
	body := "{\n  \"x\": 1\n}\n"
	dir, from := movePkg(t, body)
	pkg := filepath.Join(dir, "package.json")
	os.WriteFile(pkg, []byte(`{"name":"a"}`), 0o644)
	to := filepath.Join(dir, "cinatra", "oas.json")
	srcs := map[string][]byte{from: []byte(body), pkg: []byte(`{"name":"a"}`)}
	b := Plan([]Candidate{
		{ID: "m", Fixes: []Fix{{Title: "move", Moves: []Move{{From: from, To: to}}}}},
		{ID: "p", Fixes: []Fix{{Title: "name", Edits: []Edit{{Path: pkg, Start: 9, End: 10, New: "b"}}}}},
	})
	d, err := b.Preview(srcs, func(p string) string { return p })
	if err != nil {
		t.Fatal(err)
	}
	f, tt := strings.TrimPrefix(from, "/"), strings.TrimPrefix(to, "/")
	if want := "diff --git a/" + f + " b/" + tt + "\nsimilarity index 100%\nrename from " + f + "\nrename to " + tt + "\n"; !strings.HasSuffix(d, want) || !strings.Contains(d, `+{"name":"b"}`) {
		t.Fatalf("diff:\n%s\nwant the edit, then:\n%s", d, want)
	}

	// The target appears: nothing is written, package.json neither.
	os.Mkdir(filepath.Join(dir, "cinatra"), 0o755)
	os.WriteFile(to, []byte("mine"), 0o644)
	before := tree(t, dir)
	if _, err := b.Write(srcs); !errors.Is(err, ErrExists) {
		t.Fatalf("err = %v, want ErrExists", err)
	}
	if after := tree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("refused batch wrote:\n%q\n%q", before, after)
	}
	os.Remove(to)

	applied, err := b.Write(srcs)
	if err != nil {
		t.Fatal(err)
	}
	if written := applied.Paths(); !slices.Equal(written, []string{pkg, to}) {
		t.Errorf("written %q", applied.Paths())
	}
	if got, _ := os.ReadFile(to); string(got) != body {
		t.Errorf("moved bytes %q", got)
	}
	if _, err := os.Lstat(from); err == nil {
		t.Error("source left in place")
	}
}
