package lint

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/compile"
)

// TestSiblingScanLendsKeyClasses: the scan of a sibling JSON file (every
// agent's package.json) borrows its key-class table from the pool the
// flow's scan lends, instead of making a table of its own per file: the
// scans of one package.json allocate, on average, well under a table's
// size each (under -race the pool drops a quarter of what it is given).
func TestSiblingScanLendsKeyClasses(t *testing.T) {
	src := []byte(`{"name": "@acme/agent", "version": "1.0.0", "description": "an agent that does things for people",
  "keywords": ["agent", "cinatra"], "license": "MIT", "repository": {"type": "git", "url": "https://example.com/acme/agent.git"},
  "cinatra": {"type": "agent", "title": "The agent", "entry": "cinatra/oas.json"}}`)
	d := compile.ParseDoc("/pkg/package.json", src)
	if d.Root == nil {
		t.Fatal("package.json does not parse")
	}
	scan := func() {
		if out := scanSiblingContent("package.json", "/pkg/package.json", src, d, false); len(out) != 0 {
			t.Fatalf("findings in a clean package.json: %+v", out)
		}
	}
	scan() // the pool's first table
	const runs = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		scan()
	}
	runtime.ReadMemStats(&after)
	table := uint64(unsafe.Sizeof(keyClasses{}))
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > table/2 {
		t.Errorf("a sibling scan allocates %d bytes on average; a key-class table is %d", per, table)
	}
}
