package compile

import (
	"bytes"
	"math/rand"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/oastui/oastui/internal/race"
)

// scanPositionFromStart is scanPosition before it counted from the last
// position answered: every newline from the document's start, and no
// answer for a line that starts more than posScanLine bytes back (what
// TestScanPositionFromLast requires it to answer at least).
func scanPositionFromStart(d *Doc, off int) (line, col int, ok bool) {
	src := d.Src[:off]
	lo := max(0, off-posScanLine)
	start := bytes.LastIndexByte(src[lo:], '\n') + 1
	if start == 0 && lo > 0 {
		return 0, 0, false
	}
	start += lo
	return bytes.Count(src, newline) + 1, utf8.RuneCount(src[start:]) + 1, true
}

// TestScanPositionFromLast: scanPosition, which counts from the last
// position it answered, gives the position index's line and column (the
// index is the oracle) whenever it answers, and answers at least where the
// count from the document's start did, on one document asked for random
// runs of offsets (rising, falling, repeated, the ends, offsets inside a
// multi-byte character, on lines longer than posScanLine), and from
// several goroutines at once.
func TestScanPositionFromLast(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	pieces := [][]byte{[]byte("é"), []byte("🙂"), {0xff}, []byte("\n"), []byte("\n\n"), []byte("\r\n"), []byte("\r")}
	random := func() []byte {
		var src []byte
		for n := r.Intn(12000); len(src) < n; {
			if r.Intn(3) == 0 {
				src = append(src, pieces[r.Intn(len(pieces))]...)
				continue
			}
			run := r.Intn(30)
			if r.Intn(15) == 0 {
				run = r.Intn(6000)
			}
			for range run {
				src = append(src, byte(' '+r.Intn(95)))
			}
		}
		return src
	}
	check := func(t *testing.T, d, idx *Doc, off int) bool {
		l, c, ok := d.scanPosition(off)
		wl, wc := idx.Position(off)
		if _, _, was := scanPositionFromStart(d, off); was && !ok || ok && (l != wl || c != wc) {
			t.Errorf("offset %d of %d: %d:%d %v, want %d:%d (from the start: %v)", off, len(d.Src), l, c, ok, wl, wc, was)
			return false
		}
		return true
	}
	for trial := 0; trial < 200; trial += race.Stride(8) {
		src := random()
		d, idx := &Doc{Src: src}, &Doc{Src: src}
		idx.lineStarts()
		off := 0
		for q := 0; q < 300; q++ {
			switch k := r.Intn(10); {
			case k < 5: // onwards, as a finding's end after its start
				off = min(len(src), off+r.Intn(200))
			case k < 7:
				off = r.Intn(len(src) + 1)
			case k < 8:
				off = max(0, off-r.Intn(50))
			case k < 9:
				off = len(src)
			default:
				off = 0
			}
			if !check(t, d, idx, off) {
				t.FailNow()
			}
		}
	}
	// goroutines asking one document at once: every answer is the count
	// from the start whatever position another stored last
	src := random()
	for len(src) < 2000 {
		src = append(src, random()...)
	}
	d, idx := &Doc{Src: src}, &Doc{Src: src}
	idx.lineStarts()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			r := rand.New(rand.NewSource(seed))
			off := 0
			for range 2000 / race.Stride(8) {
				if r.Intn(4) == 0 {
					off = r.Intn(len(src) + 1)
				} else {
					off = min(len(src), off+r.Intn(300))
				}
				if !check(t, d, idx, off) {
					return
				}
			}
		}(int64(g))
	}
	wg.Wait()
}

// TestRuneCountSameAsUTF8: runeCount, which skips ASCII eight bytes at a
// time, is utf8.RuneCount on random joins of ASCII runs of every length,
// multi-byte characters, invalid, truncated and continuation bytes, and
// on every byte value at every position of a 20-byte buffer.
func TestRuneCountSameAsUTF8(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	pieces := [][]byte{[]byte("é"), []byte("日本"), []byte("🙂"), {0xff}, {0xe6, 0x97}, {0x80}, {0xf0, 0x9f}, {0xc3}, {0xed, 0xa0, 0x80}, {0x7f}}
	for trial := 0; trial < 50000; trial += race.Stride(8) {
		var b []byte
		for n := r.Intn(8); n > 0; n-- {
			if r.Intn(3) == 0 {
				b = append(b, pieces[r.Intn(len(pieces))]...)
				continue
			}
			for range r.Intn(40) {
				b = append(b, byte(r.Intn(128)))
			}
		}
		if got, want := runeCount(b), utf8.RuneCount(b); got != want {
			t.Fatalf("% x: %d, want %d", b, got, want)
		}
	}
	for at := 0; at < 20; at++ {
		for c := 0; c < 256; c++ {
			b := []byte("abcdefghijklmnopqrst")
			b[at] = byte(c)
			for _, s := range [][]byte{b, b[at:], b[:at+1]} {
				if got, want := runeCount(s), utf8.RuneCount(s); got != want {
					t.Fatalf("% x: %d, want %d", s, got, want)
				}
			}
		}
	}
}
