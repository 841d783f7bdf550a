package edit

import (
	"fmt"
	"strings"

	"github.com/oastui/oastui/present"
)

// Preview is the one fix preview of every face (the TUI's fix overlay,
// `oastui lint --diff`, the MCP server's agent_fix): the unified diff of
// the batch (Diff: file by file, then the moves as git's renames), with
// each path named by display (the face's choice: relative to the agent or
// to a root) and every line of the file's text passed through the one
// presentation function, present.Line (sanitised, then masked: no escape
// sequence, control, bidi or zero-width character and no literal
// credential reaches a terminal or a client). Each line is judged without
// its diff marker, as an excerpt of the file would be, so that the same
// line is masked alike whether it is kept, removed or added. The same
// batch and sources give byte-identical text on every face.
func (b *Batch) Preview(sources map[string][]byte, display func(string) string) (string, error) {
	name := func(p string) string { return present.Text(display(p)) }
	edits := b.Edits()
	var s strings.Builder
	for _, p := range b.Files() {
		src, ok := sources[p]
		if !ok {
			return "", fmt.Errorf("%s: not among the files the analysis read", name(p))
		}
		d, err := DiffEdits(name(p), src, EditsOf(edits, p))
		if err != nil {
			return "", fmt.Errorf("%s: %w", name(p), err)
		}
		presentDiff(&s, d)
	}
	for _, m := range b.Moves() {
		if _, ok := sources[m.From]; !ok {
			return "", fmt.Errorf("%s: not among the files the analysis read", name(m.From))
		}
		s.WriteString(RenameDiff(name(m.From), name(m.To)))
	}
	return s.String(), nil
}

// PreviewFix is Preview of the batch of one fix (the TUI shows each
// alternative fix of a finding on its own).
func PreviewFix(f Fix, sources map[string][]byte, display func(string) string) (string, error) {
	return Plan([]Candidate{{Fixes: []Fix{f}}}).Preview(sources, display)
}

// presentDiff writes d, the unified diff of one file whose two header
// lines name a presented path already, with every line of the file's text
// (after its marker ' ', '-' or '+') through present.Line.
func presentDiff(s *strings.Builder, d string) {
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		nl := l[len(body):]
		switch {
		case i < 2, body == "", strings.HasPrefix(body, "@@"), strings.HasPrefix(body, `\ `):
			s.WriteString(l)
		default:
			s.WriteString(body[:1])
			s.WriteString(present.Line(strings.TrimSuffix(body[1:], "\r")))
			s.WriteString(nl)
		}
	}
}
