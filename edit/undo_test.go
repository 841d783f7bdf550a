package edit

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestUndo: Applied.Undo restores every file and move of a batch (edit
// owns undo; the TUI wrote its own beside it), and refuses, undoing
// nothing, when a file no longer holds what the fix wrote.
func TestUndo(t *testing.T) {
	body := "{\n  \"x\": 1\n}\n"
	dir, from := movePkg(t, body)
	pkg := filepath.Join(dir, "package.json")
	os.WriteFile(pkg, []byte(`{"name":"a"}`), 0o644)
	to := filepath.Join(dir, "cinatra", "oas.json")
	srcs := map[string][]byte{from: []byte(body), pkg: []byte(`{"name":"a"}`)}
	plan := func() *Batch {
		return Plan([]Candidate{
			{ID: "m", Fixes: []Fix{{Title: "move", Moves: []Move{{From: from, To: to}}}}},
			{ID: "p", Fixes: []Fix{{Title: "name", Edits: []Edit{{Path: pkg, Start: 9, End: 10, New: "b"}}}}},
		})
	}
	before := tree(t, dir)
	a, err := plan().Write(srcs)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(tree(t, dir), before) {
		t.Fatal("the fix wrote nothing")
	}
	if err := a.Undo(); err != nil {
		t.Fatal(err)
	}
	if after := tree(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("after undo:\n%v\nwant\n%v", after, before)
	}

	// Edited since the fix: nothing is undone.
	a, err = plan().Write(srcs)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(pkg, []byte(`{"name":"mine"}`), 0o644)
	edited := tree(t, dir)
	err = a.Undo()
	var ce *ChangedError
	if !errors.As(err, &ce) || !errors.Is(err, ErrChanged) || len(ce.Paths) != 1 || ce.Paths[0] != pkg {
		t.Fatalf("err = %v, want a ChangedError naming %s", err, pkg)
	}
	if !reflect.DeepEqual(tree(t, dir), edited) {
		t.Error("a refused undo changed files")
	}
}
