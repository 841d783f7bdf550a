package edit

// UnifiedDiff is the unified diff (3 lines of context, "--- a/path",
// "+++ b/path") from old to new, "" when they are equal: DiffEdits of the
// one edit that turns old into new (their common prefix and suffix
// left out), so that there is one diff. Line endings are kept as they are
// in the bytes (a CRLF file shows "\r\n" lines); the terminal faces
// sanitise it before display.
func UnifiedDiff(path string, old, new []byte) string {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	d, _ := DiffEdits(path, old, []Edit{{Start: p, End: len(old) - s, New: string(new[p : len(new)-s])}}) // one edit inside old always applies
	return d
}
