package lint

import "github.com/oastui/oastui/edit"

// unifiedDiff is the unified diff from old to new as the fix previews
// write it: edit.DiffEdits of the one edit that turns old into new (their
// common prefix and suffix left out).
func unifiedDiff(path string, old, new []byte) string {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	d, _ := edit.DiffEdits(path, old, []edit.Edit{{Start: p, End: len(old) - s, New: string(new[p : len(new)-s])}})
	return d
}
