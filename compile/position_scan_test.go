package compile

import (
	"math/rand"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// TestScanPositionSameAsIndex: a position answered without the index
// (scanPosition) is the index's, and lineEndAt (the next newline, back
// over "\r"s) is LineSpan's end of Position's line bounded by the offset,
// at every offset of random sources: lines short and long (past
// posScanLine and runeMarkStep), multi-byte, invalid and truncated
// characters, "\r\n" and lone "\r"s. Past posScanMax positions a fresh
// document answers from its index.
func TestScanPositionSameAsIndex(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	pieces := [][]byte{[]byte("é"), []byte("日本"), []byte("🙂"), {0xff}, {0xe6, 0x97}, {0x80}, []byte("\n"), []byte("\r\n"), []byte("\r"), []byte("\r\r\n")}
	for trial := 0; trial < 40/race.Stride(4); trial++ {
		var src []byte
		for n := r.Intn(9000); len(src) < n; {
			if r.Intn(4) == 0 {
				src = append(src, pieces[r.Intn(len(pieces))]...)
				continue
			}
			run := r.Intn(40)
			if r.Intn(12) == 0 {
				run = r.Intn(6000)
			}
			for range run {
				src = append(src, byte(' '+r.Intn(95)))
			}
		}
		idx := &Doc{Src: src}
		idx.lineStarts()
		for off := 0; off <= len(src); off += 1 + r.Intn(9) {
			wl, wc := idx.Position(off)
			if l, c, ok := (&Doc{Src: src}).scanPosition(off); ok && (l != wl || c != wc) {
				t.Fatalf("trial %d, offset %d: scan %d:%d, index %d:%d", trial, off, l, c, wl, wc)
			}
			_, end := idx.LineSpan(wl)
			if want, got := max(end, off), idx.lineEndAt(off); got != want {
				t.Fatalf("trial %d, offset %d: lineEndAt %d, want %d", trial, off, got, want)
			}
		}
		fresh := &Doc{Src: src}
		for k := range posScanMax + 2 {
			off := r.Intn(len(src) + 1)
			wl, wc := idx.Position(off)
			if l, c := fresh.Position(off); l != wl || c != wc {
				t.Fatalf("trial %d, query %d at %d: %d:%d, index %d:%d", trial, k, off, l, c, wl, wc)
			}
		}
		if !fresh.posBuilt.Load() {
			t.Fatalf("trial %d: %d positions asked and no index", trial, posScanMax+2)
		}
	}
	for _, off := range []int{-5, 1 << 30} { // clamped, as Position clamps
		d := &Doc{Src: []byte("a\r\nb\r")}
		d.lineStarts()
		l, _ := d.Position(off)
		_, end := d.LineSpan(l)
		if want, got := max(end, min(off, len(d.Src))), d.lineEndAt(off); got != want {
			t.Errorf("lineEndAt(%d) = %d, want %d", off, got, want)
		}
	}
}
