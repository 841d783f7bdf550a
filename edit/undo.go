package edit

import (
	"errors"
	"os"
)

// Undo restores what Batch.Write did — the one undo of every face: each
// file gets back the bytes the analysis read (its Inverse edits), each
// moved file goes back where it was and the folders the move created are
// removed when empty. Every file is checked first: when one no longer
// holds what the fix wrote (the user edited it since), nothing is undone
// and the error is a *ChangedError naming the files (errors.Is(err,
// ErrChanged)).
func (a *Applied) Undo() error {
	if a == nil {
		return nil
	}
	var changed []string
	for _, f := range a.Files {
		same, err := holds(f.Path, f.Written)
		if err != nil {
			return err
		}
		if !same {
			changed = append(changed, f.Path)
		}
	}
	for _, mv := range a.Moves {
		if err := CheckMove(mv.To, mv.From, mv.Data); err != nil {
			if errors.Is(err, ErrChanged) {
				changed = append(changed, mv.To)
				continue
			}
			return err
		}
	}
	if len(changed) > 0 {
		return &ChangedError{Paths: changed, Undo: true}
	}
	for _, f := range a.Files {
		if _, err := WriteFix(f.Path, f.Written, f.Inverse); err != nil {
			return err
		}
	}
	for _, mv := range a.Moves {
		if _, err := MoveFile(mv.To, mv.From, mv.Data); err != nil {
			return err
		}
		for i := len(mv.Created) - 1; i >= 0; i-- {
			os.Remove(mv.Created[i]) // only when empty: the user's files stay
		}
	}
	return nil
}

// holds reports whether the file at path holds want.
func holds(path string, want []byte) (bool, error) {
	disk, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	return Hash(disk) == Hash(want), nil
}
