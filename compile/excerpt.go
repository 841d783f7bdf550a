package compile

import (
	"unicode/utf8"

	"github.com/oastui/oastui/present"
)

// Excerpts: the source around a finding, built once here from the
// finding's position and span for every face (the CLI's text format and
// the TUI's Findings tab render the same one). Each line is a window of at
// most ExcerptWidth characters, so that a minified file's megabyte line is
// never copied, scanned or presented whole; the window is presented once
// (present's order: sanitised, then masked); the underline is the span.

// ExcerptWidth is the widest window of a line an excerpt holds, in
// characters; a longer line is cut around the finding's column.
const ExcerptWidth = 120

// ExcerptContext is how many lines an excerpt holds before and after the
// finding's line (fewer at the file's ends); a face shows what it has room
// for.
const ExcerptContext = 3

// excerptMargin is how many bytes of a long line are read beyond the
// window on the left (and half again on the right), so that a credential
// reaching into the window is whole when the masker judges it.
const excerptMargin = 4 * ExcerptWidth

// Excerpt is the source around a finding, ready to show: every Text is
// presented already. Faces must not change its slices (it is cached).
type Excerpt struct {
	Lines []ExcerptLine // up to ExcerptContext lines before the finding's, that line, up to ExcerptContext after
	At    int           // the index of the finding's line in Lines
	// Caret and CaretEnd are byte offsets into Lines[At].Text: the text
	// underlined, the finding's span where it starts at the finding's
	// column (to the window's end when it goes on), else the JSON token
	// there. CaretEnd > Caret unless the column is at the line's end.
	Caret, CaretEnd int
}

// ExcerptLine is one line of an excerpt.
type ExcerptLine struct {
	N    int    // 1-based line number
	Text string // the window, sanitised then masked (present.Line); tabs kept
	// CutLeft and CutRight say the line goes on beyond the window (a face
	// shows "…").
	CutLeft, CutRight bool
}

// Empty reports whether there is nothing to show (no document, no such line).
func (e Excerpt) Empty() bool { return len(e.Lines) == 0 }

// Line is the finding's line.
func (e Excerpt) Line() ExcerptLine {
	if e.Empty() {
		return ExcerptLine{}
	}
	return e.Lines[e.At]
}

type excerptKey struct {
	line, col, start, end int
	mask                  bool
}

// Excerpt is the source around f (which must be a finding in d), built
// once per document and finding and then served from the document's cache
// (a document belongs to one load, so the cache lives as long as the
// snapshot). maskSpan masks the string under the caret as a credential
// (the review's credential findings ask for it; every other credential on
// a line is masked anyway). Empty when f's line is not in d.
func (d *Doc) Excerpt(f Finding, maskSpan bool) Excerpt {
	if d == nil || f.Line < 1 {
		return Excerpt{}
	}
	k := excerptKey{f.Line, f.Column, f.Start, f.End, maskSpan}
	d.exMu.Lock()
	e, ok := d.excerpts[k]
	d.exMu.Unlock()
	if ok {
		return e
	}
	e = d.buildExcerpt(f, maskSpan)
	d.exMu.Lock()
	if d.excerpts == nil {
		d.excerpts = map[excerptKey]Excerpt{}
	}
	d.excerpts[k] = e
	d.exMu.Unlock()
	return e
}

// lineCount is the number of lines shown for d: a final line break does
// not start a line of its own.
func (d *Doc) lineCount() int {
	n := len(d.lineStarts())
	if n > 1 && d.lines[n-1] == len(d.Src) {
		n--
	}
	return n
}

func (d *Doc) buildExcerpt(f Finding, maskSpan bool) Excerpt {
	last := d.lineCount()
	if f.Line > last {
		return Excerpt{}
	}
	lo, hi := d.LineSpan(f.Line)
	at := min(max(d.Offset(f.Line, f.Column), lo), hi)
	// What is underlined: the span when it starts at the column, else the
	// token there; never past the line.
	end := at
	if f.HasSpan() && f.Start == at && f.End > f.Start {
		end = f.End
	} else if at < hi {
		end = d.TokenEnd(at)
	}
	end = min(max(end, at), hi)
	text, caret, caretEnd, cutL, cutR := d.window(lo, hi, at, end, maskSpan)
	// The window keeps ExcerptWidth characters around the caret.
	col := utf8.RuneCountInString(text[:caret])
	from := 0
	if n := utf8.RuneCountInString(text); n > ExcerptWidth {
		from = max(col-ExcerptWidth/2, 0)
	}
	bfrom := runeOffset(text, 0, from)
	bto := runeOffset(text, bfrom, ExcerptWidth)
	cutL = cutL || bfrom > 0
	cutR = cutR || bto < len(text)
	text = text[bfrom:bto]
	caret = min(caret-bfrom, len(text))
	caretEnd = min(max(caretEnd-bfrom, caret), len(text))
	if caretEnd == caret && caret < len(text) {
		_, size := utf8.DecodeRuneInString(text[caret:])
		caretEnd = caret + size
	}
	e := Excerpt{Caret: caret, CaretEnd: caretEnd}
	// The other lines show the same columns as the finding's line (the
	// character the finding line's window starts at).
	startCol := 1
	if cutL {
		_, wc := d.Position(d.windowStart(lo, hi, at))
		startCol = wc + from
	}
	for n := max(1, f.Line-ExcerptContext); n <= min(last, f.Line+ExcerptContext); n++ {
		if n == f.Line {
			e.At = len(e.Lines)
			e.Lines = append(e.Lines, ExcerptLine{N: n, Text: text, CutLeft: cutL, CutRight: cutR})
			continue
		}
		e.Lines = append(e.Lines, d.contextLine(n, startCol))
	}
	return e
}

// windowStart is the byte where window starts reading a line [lo, hi)
// for a caret at at.
func (d *Doc) windowStart(lo, hi, at int) int {
	if hi-lo <= excerptMargin {
		return lo
	}
	w := max(at-excerptMargin, lo)
	for w > lo && !utf8.RuneStart(d.Src[w]) {
		w--
	}
	return w
}

// window presents the part of line [lo, hi) around at, in three parts
// split at at and end (at ≤ end ≤ hi), so that the offsets of at and end
// in the presented text are known; the whole is masked as one line, so a
// credential across the parts is judged whole. A long line is read only
// within excerptMargin bytes of at (cutL and cutR say it was cut).
func (d *Doc) window(lo, hi, at, end int, maskSpan bool) (text string, pa, pb int, cutL, cutR bool) {
	src := d.Src
	wlo, whi := lo, hi
	if hi-lo > excerptMargin {
		wlo = d.windowStart(lo, hi, at)
		whi = min(at+excerptMargin*3/2, hi)
		for whi < hi && !utf8.RuneStart(src[whi]) {
			whi++
		}
	}
	end = min(end, whi)
	pre := present.CleanLine(string(src[wlo:at]))
	mid := present.CleanLine(string(src[at:end]))
	post := present.CleanLine(string(src[end:whi]))
	if maskSpan && len(mid) >= 2 && mid[0] == '"' && mid[len(mid)-1] == '"' {
		mid = `"` + present.Mask(mid[1:len(mid)-1]) + `"`
	}
	joined := pre + mid + post
	pa, pb = len(pre), len(pre)+len(mid)
	red := present.Redact(joined)
	if red != joined {
		pa, pb = maskedOffset(joined, red, pa), maskedOffset(joined, red, pb)
		pb = max(pb, pa)
	}
	return red, pa, pb, wlo > lo, whi < hi
}

// maskedOffset maps byte offset p of text to red, text masked: p stays
// when the masker changed nothing before it, else it is the length of the
// text before p masked on its own (on a character boundary of red).
func maskedOffset(text, red string, p int) int {
	d := 0
	for d < len(text) && d < len(red) && text[d] == red[d] {
		d++
	}
	if p <= d {
		return p
	}
	p = min(len(present.Redact(text[:p])), len(red))
	for p > 0 && p < len(red) && !utf8.RuneStart(red[p]) {
		p--
	}
	return p
}

// contextLine is line n from character column col (1-based) on, at most
// ExcerptWidth characters, presented.
func (d *Doc) contextLine(n, col int) ExcerptLine {
	lo, hi := d.LineSpan(n)
	at := min(max(d.Offset(n, col), lo), hi)
	text, pa, _, cutL, cutR := d.window(lo, hi, at, at, false)
	bto := runeOffset(text, pa, ExcerptWidth)
	return ExcerptLine{N: n, Text: text[pa:bto], CutLeft: cutL || pa > 0 || at > lo, CutRight: cutR || bto < len(text)}
}

// runeOffset is the byte offset n characters after byte offset from in s
// (len(s) when s ends first).
func runeOffset(s string, from, n int) int {
	i := from
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}
