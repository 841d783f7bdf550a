package edit

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Edit replaces the bytes [Start, End) of the file at Path with New. An
// insertion has Start == End. Offsets are into the bytes the analysis read
// (compile.Doc.Src), never into a re-serialised document: every byte
// outside [Start, End) stays as it was.
type Edit struct {
	Path  string `json:"path"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// Fix is one named repair of a finding: a list of edits, possibly to
// several files (package.json and the flow file), and of file moves
// (Moves, applied after the edits). The edits of one file must not
// overlap; a move's source and target are edited by no edit of the same
// fix or batch.
type Fix struct {
	Title string `json:"title"`
	// Tier is what the fix may change and so who may apply it (Tier).
	Tier  Tier   `json:"tier,omitempty"`
	Edits []Edit `json:"edits,omitempty"`
	Moves []Move `json:"moves,omitempty"`
}

// Empty reports whether the fix changes nothing (no edit, no move).
func (f Fix) Empty() bool { return len(f.Edits) == 0 && len(f.Moves) == 0 }

// Files lists the files a fix edits (not the files it moves: Moves), sorted, each once.
func (f Fix) Files() []string {
	var out []string
	for _, e := range f.Edits {
		if !slices.Contains(out, e.Path) {
			out = append(out, e.Path)
		}
	}
	slices.Sort(out)
	return out
}

// EditsOf returns the edits of a fix (or any list) to one file.
func EditsOf(edits []Edit, path string) []Edit {
	var out []Edit
	for _, e := range edits {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// ErrOverlap is returned (wrapped) by Apply for edits that touch the same
// bytes, and by Plan's reasons.
var ErrOverlap = errors.New("edits overlap")

// sorted returns a copy of edits sorted by Start, then End.
func sorted(edits []Edit) []Edit {
	s := slices.Clone(edits)
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].Start != s[j].Start {
			return s[i].Start < s[j].Start
		}
		return s[i].End < s[j].End
	})
	return s
}

// conflict reports whether two edits of one file touch the same bytes: their
// spans intersect, an insertion falls strictly inside the other's span, or
// both insert at the same offset (their order would be a guess). Edits that
// merely meet (one ends where the other starts) do not conflict.
func conflict(a, b Edit) bool {
	if a.Path != b.Path {
		return false
	}
	if a.Start == a.End && b.Start == b.End {
		return a.Start == b.Start
	}
	if a.Start == a.End {
		return a.Start > b.Start && a.Start < b.End
	}
	if b.Start == b.End {
		return b.Start > a.Start && b.Start < a.End
	}
	return a.Start < b.End && b.Start < a.End
}

// Apply applies the edits of one file to src and returns the new bytes
// (src is not modified). The edits are applied in offset order; edits out
// of range or touching the same bytes (see Plan) are refused with an
// error, never merged.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	s := sorted(edits)
	for i, e := range s {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) is out of range (the file has %d bytes)", e.Start, e.End, len(src))
		}
		if i > 0 && conflict(s[i-1], e) {
			return nil, fmt.Errorf("%w: [%d,%d) and [%d,%d)", ErrOverlap, s[i-1].Start, s[i-1].End, e.Start, e.End)
		}
		if i > 0 && s[i-1].Path != e.Path {
			return nil, fmt.Errorf("edits of two files (%s, %s) applied to one source", s[i-1].Path, e.Path)
		}
	}
	var b bytes.Buffer
	b.Grow(len(src))
	last := 0
	for _, e := range s {
		b.Write(src[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.Write(src[last:])
	return b.Bytes(), nil
}

// Invert returns the edits that undo edits once they have been applied to
// src: spans of the new bytes and the text they replaced. Applying them to
// Apply(src, edits) gives src back (the TUI's undo). Edits that meet
// (one ends where the next starts) are undone by one edit: two deletions
// that meet would otherwise come back as two insertions at one offset,
// which Apply refuses as a guess (FuzzFixes found it).
func Invert(src []byte, edits []Edit) []Edit {
	s := sorted(edits)
	out := make([]Edit, 0, len(s))
	shift := 0
	for i, e := range s {
		start := e.Start + shift
		inv := Edit{Path: e.Path, Start: start, End: start + len(e.New), New: string(src[e.Start:e.End])}
		shift += len(e.New) - (e.End - e.Start)
		if i > 0 && s[i-1].End == e.Start && s[i-1].Path == e.Path {
			last := &out[len(out)-1]
			last.End, last.New = inv.End, last.New+inv.New
			continue
		}
		out = append(out, inv)
	}
	return out
}

// Candidate is one finding's fixes, offered to Plan. ID names the finding
// in reasons ("agent.json:3:5 package_name_mismatch").
type Candidate struct {
	ID    string
	Fixes []Fix
}

// Chosen is a fix Plan picked. SameAs is the ID of an earlier chosen fix
// with exactly the same edits (two findings repaired by one change): its
// edits are applied once.
type Chosen struct {
	ID     string
	Fix    Fix
	SameAs string
}

// Skipped is a finding whose fix Plan did not pick, and why.
type Skipped struct {
	ID     string
	Fix    Fix
	Reason string
}

// Batch is the set of fixes of a run (`oastui lint --fix`): the first fix
// of each finding that does not touch bytes another chosen fix touches.
type Batch struct {
	Chosen  []Chosen
	Skipped []Skipped
}

// Plan chooses the first fix of each candidate, in order. A fix whose
// edits touch a span an already chosen edit touches is skipped with a
// reason naming the other finding: two edits of one region are never
// merged. A fix identical to a chosen one counts as chosen (SameAs).
// Candidates without fixes are ignored.
func Plan(cands []Candidate) *Batch {
	b := &Batch{}
	for _, c := range cands {
		if len(c.Fixes) == 0 {
			continue
		}
		f := c.Fixes[0]
		if reason := b.clash(f); reason != "" {
			if same := b.same(f); same != "" {
				b.Chosen = append(b.Chosen, Chosen{ID: c.ID, Fix: f, SameAs: same})
				continue
			}
			b.Skipped = append(b.Skipped, Skipped{ID: c.ID, Fix: f, Reason: reason})
			continue
		}
		b.Chosen = append(b.Chosen, Chosen{ID: c.ID, Fix: f})
	}
	return b
}

func (b *Batch) same(f Fix) string {
	for _, c := range b.Chosen {
		if c.SameAs == "" && slices.Equal(sorted(c.Fix.Edits), sorted(f.Edits)) && slices.Equal(c.Fix.Moves, f.Moves) {
			return c.ID
		}
	}
	return ""
}

// clash says why f cannot join the batch, or "".
func (b *Batch) clash(f Fix) string {
	if f.Empty() {
		return "the fix has no edits"
	}
	for i, e := range f.Edits {
		for _, o := range f.Edits[:i] {
			if conflict(e, o) {
				return "its own edits overlap"
			}
		}
	}
	for i, m := range f.Moves {
		for _, e := range f.Edits {
			if m.touches(e) {
				return fmt.Sprintf("it both moves %s and edits %s", m.From, e.Path)
			}
		}
		for _, o := range f.Moves[:i] {
			if m.clashes(o) {
				return "its own moves name the same file"
			}
		}
	}
	for _, c := range b.Chosen {
		if c.SameAs != "" {
			continue
		}
		for _, o := range c.Fix.Edits {
			for _, e := range f.Edits {
				if conflict(e, o) {
					return fmt.Sprintf("it edits %s bytes %d-%d, which the fix of %s (%q) also edits", e.Path, e.Start, e.End, c.ID, c.Fix.Title)
				}
			}
			for _, m := range f.Moves {
				if m.touches(o) {
					return fmt.Sprintf("it moves %s to %s, which the fix of %s (%q) edits", m.From, m.To, c.ID, c.Fix.Title)
				}
			}
		}
		for _, m := range c.Fix.Moves {
			for _, e := range f.Edits {
				if m.touches(e) {
					return fmt.Sprintf("it edits %s, which the fix of %s (%q) moves", e.Path, c.ID, c.Fix.Title)
				}
			}
			for _, o := range f.Moves {
				if m.clashes(o) {
					return fmt.Sprintf("it moves %s to %s, and the fix of %s (%q) moves the same file", o.From, o.To, c.ID, c.Fix.Title)
				}
			}
		}
	}
	return ""
}

// Edits lists the edits of the chosen fixes (each distinct fix once).
func (b *Batch) Edits() []Edit {
	var out []Edit
	for _, c := range b.Chosen {
		if c.SameAs == "" {
			out = append(out, c.Fix.Edits...)
		}
	}
	return out
}

// Moves lists the moves of the chosen fixes (each distinct fix once).
func (b *Batch) Moves() []Move {
	var out []Move
	for _, c := range b.Chosen {
		if c.SameAs == "" {
			out = append(out, c.Fix.Moves...)
		}
	}
	return out
}

// Files lists the files the batch edits, sorted.
func (b *Batch) Files() []string { return Fix{Edits: b.Edits()}.Files() }

// DiffEdits is the unified diff of the edits of one file, as UnifiedDiff
// writes it: the edits are widened to whole lines, the ones whose lines
// overlap or follow each other are merged into one region, and each
// region's old lines are diffed against its new lines (udiff.Lines, the
// line diff). When the edits make one region — one edit, or edits on
// neighbouring lines — it is UnifiedDiff(path, src, Apply(src, edits))
// exactly; edits far apart are diffed region by region, which a diff of
// the two whole versions may align differently (its line diff is a
// heuristic that, on a large change, gives up to one long hunk). The
// diff search is confined to the regions: a fix with thousands of
// scattered edits costs the sum of its small regions.
func DiffEdits(path string, src []byte, edits []Edit) (string, error) {
	if _, err := Apply(src, edits); err != nil {
		return "", err
	}
	s := sorted(edits)
	var ue []udiff.Edit
	for i := 0; i < len(s); {
		// a region: the whole lines of s[i], and of every next edit whose
		// first line is one of them or the line just after them (changed
		// lines next to each other are one change, as in the line diff)
		start := lineStart(src, s[i].Start)
		end := lineEnd(src, s[i].End)
		j := i + 1
		for j < len(s) && lineStart(src, s[j].Start) <= end {
			end = max(end, lineEnd(src, s[j].End))
			j++
		}
		var nw strings.Builder
		at := start
		for _, e := range s[i:j] {
			nw.Write(src[at:e.Start])
			nw.WriteString(e.New)
			at = e.End
		}
		nw.Write(src[at:end])
		for _, d := range udiff.Lines(string(src[start:end]), nw.String()) {
			ue = append(ue, udiff.Edit{Start: start + d.Start, End: start + d.End, New: d.New})
		}
		i = j
	}
	if len(ue) == 0 {
		return "", nil
	}
	p := strings.TrimPrefix(path, "/")
	d, err := udiff.ToUnified("a/"+p, "b/"+p, string(src), ue, udiff.DefaultContextLines)
	if err != nil {
		return "", err
	}
	if d != "" && !strings.HasSuffix(d, "\n") { // a file without a final newline
		d += "\n\\ No newline at end of file\n"
	}
	return d, nil
}

// lineStart is the offset of the start of the line holding offset i.
func lineStart(src []byte, i int) int { return bytes.LastIndexByte(src[:i], '\n') + 1 }

// lineEnd is the offset just after the line that holds offset i (after
// its newline; len(src) on the last line). A line that ends exactly at i
// (i just after a newline) ends there: an edit that stops at a line's
// start does not take that line.
func lineEnd(src []byte, i int) int {
	if i > 0 && src[i-1] == '\n' {
		return i
	}
	if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
		return i + k + 1
	}
	return len(src)
}

// ErrChanged is returned (wrapped) by WriteFix when the file on disk is
// no longer the one the fix was computed from.
var ErrChanged = errors.New("the file changed on disk since it was analysed")

// Hash is the SHA-256 of b, the identity WriteFix compares.
func Hash(b []byte) [32]byte { return sha256.Sum256(b) }

// WriteFix applies edits (all to path) to read, the bytes the analysis
// read, and writes the result atomically (WriteFileAtomic: temp file,
// fsync, rename; never through a symlink or over a special file). It
// refuses, writing nothing, when the bytes now on disk differ from read
// (their hashes differ): the user's later work is never overwritten. It
// returns the bytes written.
func WriteFix(path string, read []byte, edits []Edit) ([]byte, error) {
	for _, e := range edits {
		if e.Path != path {
			return nil, fmt.Errorf("%s: an edit of %s given to WriteFix", path, e.Path)
		}
	}
	out, err := Apply(read, edits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s); refusing to fix it", path, ErrNotRegular, FileKind(st.Mode()))
	}
	disk, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if Hash(disk) != Hash(read) {
		return nil, fmt.Errorf("%s: %w; not fixed (run the analysis again)", path, ErrChanged)
	}
	if err := WriteFileAtomic(path, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Result applies the batch to sources (each file's bytes as the analysis
// read them, by Edit.Path) in memory: the new bytes of every file it edits.
func (b *Batch) Result(sources map[string][]byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	edits := b.Edits()
	for _, p := range b.Files() {
		src, ok := sources[p]
		if !ok {
			return nil, fmt.Errorf("%s: not among the files the analysis read", p)
		}
		n, err := Apply(src, EditsOf(edits, p))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out[p] = n
	}
	return out, nil
}

// Applied is what Batch.Write did, enough to undo it: each file with the
// bytes written and the edits that restore the bytes read, and each move
// with the bytes moved and the folders it created.
type Applied struct {
	Files []AppliedFile
	Moves []AppliedMove
}

// AppliedFile is one file Batch.Write wrote.
type AppliedFile struct {
	Path    string
	Written []byte // the file's bytes after the fix
	Inverse []Edit // the edits that turn Written back into the bytes read
}

// AppliedMove is one file Batch.Write moved.
type AppliedMove struct {
	Move
	Data    []byte   // the bytes moved
	Created []string // folders created for the target, outermost first
}

// Paths lists what was written: the files edited, then the move targets.
func (a *Applied) Paths() []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, f := range a.Files {
		out = append(out, f.Path)
	}
	for _, m := range a.Moves {
		out = append(out, m.To)
	}
	return out
}

// ChangedError is Batch.Write's refusal when files changed on disk since
// the analysis read them, and Applied.Undo's (Undo set) when they changed
// since the fix wrote them; errors.Is(err, ErrChanged) holds.
type ChangedError struct {
	Paths []string
	Undo  bool
}

func (e *ChangedError) Error() string {
	if e.Undo {
		return strings.Join(e.Paths, ", ") + ": the file changed on disk since the fix was applied; nothing undone"
	}
	return strings.Join(e.Paths, ", ") + ": " + ErrChanged.Error() + "; nothing fixed (run the analysis again)"
}
func (e *ChangedError) Unwrap() error { return ErrChanged }

// Write applies the batch to the files on disk. Every file is checked
// before any is written: when one of them changed since the analysis read
// it (a *ChangedError), is not a regular file, or was not read at all,
// nothing is written. It returns what it wrote, also when a later write
// fails, so that the caller can report or undo it.
func (b *Batch) Write(sources map[string][]byte) (*Applied, error) {
	if _, err := b.Result(sources); err != nil {
		return nil, err
	}
	var changed []string
	for _, p := range b.Files() {
		src, ok := sources[p]
		if !ok {
			return nil, fmt.Errorf("%s: not among the files the analysis read", p)
		}
		st, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w (%s); refusing to fix it", p, ErrNotRegular, FileKind(st.Mode()))
		}
		disk, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if Hash(disk) != Hash(src) {
			changed = append(changed, p)
		}
	}
	moves := b.Moves()
	for _, m := range moves {
		src, ok := sources[m.From]
		if !ok {
			return nil, fmt.Errorf("%s: not among the files the analysis read", m.From)
		}
		if _, err := checkMove(m.From, m.To, src); err != nil {
			if errors.Is(err, ErrChanged) {
				changed = append(changed, m.From)
				continue
			}
			return nil, fmt.Errorf("%w; nothing fixed", err)
		}
	}
	if len(changed) > 0 {
		return nil, &ChangedError{Paths: changed}
	}
	edits := b.Edits()
	applied := &Applied{}
	for _, p := range b.Files() {
		fe := EditsOf(edits, p)
		out, err := WriteFix(p, sources[p], fe)
		if err != nil {
			return applied, err
		}
		applied.Files = append(applied.Files, AppliedFile{Path: p, Written: out, Inverse: Invert(sources[p], fe)})
	}
	for _, m := range moves {
		created, err := MoveFile(m.From, m.To, sources[m.From])
		if err != nil {
			return applied, err
		}
		applied.Moves = append(applied.Moves, AppliedMove{Move: m, Data: sources[m.From], Created: created})
	}
	return applied, nil
}
