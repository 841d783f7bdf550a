package compile

import (
	"bytes"
	"math/rand"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/oastui/oastui/internal/race"
)

// naivePosition is the definition Position must keep: count characters
// from the line start.
func naivePosition(src []byte, off int) (int, int) {
	line, ls := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line, ls = line+1, i+1
		}
	}
	return line, utf8.RuneCount(src[ls:off]) + 1
}

func naiveOffset(src []byte, line, col int) int {
	if line < 1 {
		return 0
	}
	off := 0
	for l := 1; l < line; l++ {
		for off < len(src) && src[off] != '\n' {
			off++
		}
		if off == len(src) {
			return len(src)
		}
		off++
	}
	for i := 1; i < col && off < len(src) && src[off] != '\n'; i++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// TestPositionIndexMatchesCount: the checkpointed position index gives
// exactly the columns of a count from the line start, on long lines mixing
// ASCII, multi-byte characters, invalid bytes and truncated sequences.
func TestPositionIndexMatchesCount(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := [][]byte{[]byte("a"), []byte("{\"k\":1}"), []byte("é"), []byte("日本"), []byte("🙂"), {0xff}, {0xe6, 0x97}, []byte("\n"), {0x80}}
	for trial := 0; trial < 40; trial++ {
		var src []byte
		n := r.Intn(6000)
		for len(src) < n {
			p := pieces[r.Intn(len(pieces))]
			if p[0] == '\n' && r.Intn(20) != 0 {
				continue // mostly long lines
			}
			src = append(src, p...)
		}
		d := &Doc{Src: src}
		// 75 offsets a trial under -race (the naive scans are byte loops,
		// several times slower there); 300 without it.
		for q := 0; q < 300/race.Stride(4); q++ {
			off := r.Intn(len(src) + 1)
			gl, gc := d.Position(off)
			wl, wc := naivePosition(src, off)
			if gl != wl || gc != wc {
				t.Fatalf("trial %d off %d: Position = %d:%d, want %d:%d", trial, off, gl, gc, wl, wc)
			}
			line, col := wl, r.Intn(wc+600)+1
			if got, want := d.offsetAt(line, col), naiveOffset(src, line, col); got != want {
				t.Fatalf("trial %d: offsetAt(%d, %d) = %d, want %d", trial, line, col, got, want)
			}
		}
		for _, lc := range [][2]int{{0, 1}, {1 << 20, 1}, {1, 0}} {
			if got, want := d.offsetAt(lc[0], lc[1]), naiveOffset(src, lc[0], lc[1]); got != want {
				t.Fatalf("offsetAt(%d, %d) = %d, want %d", lc[0], lc[1], got, want)
			}
		}
	}
}

// TestGetLargeObjectLastWins: the key index of a large object keeps the
// JSON.parse semantics of Get (the last duplicate wins, absent keys nil) and
// a member appended after parsing is still found.
func TestGetLargeObjectLastWins(t *testing.T) {
	src := []byte(`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k3":"last"}`)
	d := ParseDoc("big.json", src)
	if d.Root == nil || d.Root.keys == nil {
		t.Fatalf("no index: %v", d.Err)
	}
	if got := d.Root.Get("k3").Text; got != "last" {
		t.Errorf("Get(k3) = %q, want the last one", got)
	}
	if d.Root.Get("k15").Text != "15" || d.Root.Get("nope") != nil {
		t.Error("Get on the index is wrong")
	}
	if len(d.Duplicates) != 1 || d.Duplicates[0].Key != "k3" || d.Duplicates[0].Offset != 125 || d.Duplicates[0].First != 22 {
		t.Errorf("Duplicates = %+v", d.Duplicates)
	}
	d.Root.Members = append(d.Root.Members, Member{Key: "added", Value: &Node{Kind: String, Text: "x"}})
	if d.Root.Get("added") == nil {
		t.Error("a member appended after parsing is not found")
	}
}

// TestManyDuplicateKeysLinear: an object of 200,000 members where every
// key is repeated records each repetition against its first occurrence,
// without a scan per duplicate (that was quadratic: minutes on this input).
func TestManyDuplicateKeysLinear(t *testing.T) {
	// A fifth of the keys under -race (one goroutine's parse, several
	// times slower there); the pass without -race parses all 100,000.
	n := 100000 / race.Stride(5)
	src := []byte("{")
	for r := 0; r < 2; r++ {
		for i := 0; i < n; i++ {
			if len(src) > 1 {
				src = append(src, ',')
			}
			src = append(src, `"k`...)
			src = strconv.AppendInt(src, int64(i), 10)
			src = append(src, `":1`...)
		}
	}
	src = append(src, '}')
	d := ParseDoc("dups.json", src)
	if d.Root == nil || len(d.Duplicates) != n {
		t.Fatalf("%d duplicates, want %d (%v)", len(d.Duplicates), n, d.Err)
	}
	if k := d.Duplicates[n-1]; k.Key != "k"+strconv.Itoa(n-1) || k.First != d.Root.Members[n-1].KeyOffset || k.Offset != d.Root.Members[2*n-1].KeyOffset {
		t.Fatalf("last duplicate %+v", k)
	}
}

func TestLineSpanMatchesLine(t *testing.T) {
	d := &Doc{Src: []byte("a\r\nbé\n\nlast\r\r")}
	for n := 0; n <= 6; n++ {
		s, e := d.LineSpan(n)
		if got := string(d.Src[s:e]); got != d.Line(n) {
			t.Errorf("line %d: span %q, Line %q", n, got, d.Line(n))
		}
	}
	if d.Offset(2, 2) != 4 || d.Offset(2, 3) != 6 || d.Offset(2, 9) != 6 {
		t.Errorf("Offset(2,2) = %d, Offset(2,3) = %d, Offset(2,9) = %d", d.Offset(2, 2), d.Offset(2, 3), d.Offset(2, 9))
	}
}

// refPosIndex is the position index as it was built a character at a
// time (before the ASCII word skip): the oracle of
// TestPositionIndexWordSkip.
func refPosIndex(src []byte) (lines []int, marks []runeMark) {
	lines = []int{0}
	for start := 0; ; {
		end := len(src)
		for j := start; j < len(src); j++ {
			if src[j] == '\n' {
				end = j
				break
			}
		}
		if end-start >= runeMarkStep {
			last, col := start, 0
			for i := start; i < end; {
				if i-last >= runeMarkStep {
					marks = append(marks, runeMark{off: i, col: col})
					last = i
				}
				_, size := utf8.DecodeRune(src[i:end])
				if src[i] < utf8.RuneSelf {
					size = 1
				}
				i += size
				col++
			}
		}
		if end == len(src) {
			break
		}
		start = end + 1
		lines = append(lines, start)
	}
	return lines, marks
}

// TestPositionIndexWordSkip: the index skipping ASCII a word at a time
// has exactly the line starts and checkpoints of a count a character at a
// time, on long lines of ASCII runs of every length broken by multi-byte
// characters, invalid and truncated sequences, at every alignment.
func TestPositionIndexWordSkip(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	multi := [][]byte{[]byte("é"), []byte("日本"), []byte("🙂"), {0xff}, {0xe6, 0x97}, {0x80}, []byte("\n")}
	for trial := 0; trial < 400/race.Stride(4); trial++ {
		var src []byte
		n := r.Intn(5000)
		for len(src) < n {
			if r.Intn(4) == 0 {
				p := multi[r.Intn(len(multi))]
				if p[0] == '\n' && r.Intn(8) != 0 {
					continue
				}
				src = append(src, p...)
				continue
			}
			run := r.Intn(40)
			if r.Intn(10) == 0 {
				run = r.Intn(1500)
			}
			for k := 0; k < run; k++ {
				src = append(src, byte(' '+r.Intn(95)))
			}
		}
		d := &Doc{Src: src}
		d.lineStarts()
		wl, wm := refPosIndex(src)
		if !slices.Equal(d.lines, wl) || !slices.Equal(d.marks, wm) {
			t.Fatalf("trial %d (%d bytes): lines %d marks %v, want lines %d marks %v", trial, len(src), len(d.lines), d.marks, len(wl), wm)
		}
	}
}

// TestPosIndexSameMarks: the index's lines and checkpoints are those of a
// count a character at a time, on lines of long ASCII runs broken by
// multi-byte characters (at every offset from a checkpoint), invalid and
// truncated sequences, and lines just under, at and over runeMarkStep.
func TestPosIndexSameMarks(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	pieces := [][]byte{[]byte("é"), []byte("日本"), []byte("🙂"), {0xff}, {0xe6, 0x97}, {0x80}, {0xf0, 0x9f, 0x99}}
	total := 0
	for trial := 0; trial < 400/race.Stride(4); trial++ {
		var src []byte
		for lines := r.Intn(4) + 1; lines > 0; lines-- {
			n := runeMarkStep - 2 + r.Intn(5) // just under, at or over a checkpoint's step
			if r.Intn(2) == 0 {
				n = r.Intn(5000)
			}
			for line := len(src); len(src)-line < n; {
				if r.Intn(3) == 0 {
					src = append(src, pieces[r.Intn(len(pieces))]...)
				} else {
					src = append(src, bytes.Repeat([]byte("a"), r.Intn(40))...)
				}
			}
			src = append(src, '\n')
		}
		if r.Intn(2) == 0 {
			src = src[:len(src)-1]
		}
		d := &Doc{Src: src}
		d.buildPosIndex()
		wl, wm := refPosIndex(src)
		if !slices.Equal(d.lines, wl) || !slices.Equal(d.marks, wm) {
			t.Fatalf("trial %d: %d lines, %d marks; want %d, %d", trial, len(d.lines), len(d.marks), len(wl), len(wm))
		}
		total += len(wm)
	}
	if total < 100/race.Stride(4) {
		t.Errorf("only %d checkpoints compared", total)
	}
}
