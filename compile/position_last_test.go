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
// position answered: every newline from the document's start (the oracle
// of TestScanPositionFromLast).
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

// TestScanPositionFromLast: scanPosition, which counts the newlines from
// the last offset it answered when that is not after the offset asked,
// answers as the count from the document's start, on one document asked
// for random runs of offsets (rising, falling, repeated, the ends, offsets
// whose line starts too far back), and from several goroutines at once.
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
	check := func(t *testing.T, d *Doc, off int) {
		l, c, ok := d.scanPosition(off)
		wl, wc, wok := scanPositionFromStart(d, off)
		if l != wl || c != wc || ok != wok {
			t.Fatalf("offset %d of %d: %d:%d %v, want %d:%d %v", off, len(d.Src), l, c, ok, wl, wc, wok)
		}
	}
	for trial := 0; trial < 400; trial += race.Stride(8) {
		src := random()
		d := &Doc{Src: src}
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
			check(t, d, off)
		}
	}
	// goroutines asking one document at once: every answer is the count
	// from the start whatever position another stored last
	src := random()
	for len(src) < 2000 {
		src = append(src, random()...)
	}
	d := &Doc{Src: src}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			r := rand.New(rand.NewSource(seed))
			for range 2000 / race.Stride(8) {
				off := r.Intn(len(src) + 1)
				l, c, ok := d.scanPosition(off)
				if wl, wc, wok := scanPositionFromStart(d, off); l != wl || c != wc || ok != wok {
					t.Errorf("offset %d: %d:%d %v, want %d:%d %v", off, l, c, ok, wl, wc, wok)
					return
				}
			}
		}(int64(g))
	}
	wg.Wait()
}
