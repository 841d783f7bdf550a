//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFIFOInPlaceOfAgentFiles: a FIFO in place of the flow file or of
// package.json is an agent_read_failed finding in lint and compile (graph
// of a FIFO flow exits 2 with it; of a FIFO package.json draws the flow),
// never a hang (issue 11 item 2). The 10 s timeout is a hang detector.
func TestFIFOInPlaceOfAgentFiles(t *testing.T) {
	for _, fifo := range []string{"cinatra/oas.json", "package.json"} {
		dir := filepath.Join(t.TempDir(), "agents", "acme", "pipe-agent")
		if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
			t.Fatal(err)
		}
		leaf := filepath.Join("..", "..", "testdata", "agents", "oastui", "leaf-agent")
		for _, f := range []string{"cinatra/oas.json", "package.json"} {
			if f == fifo {
				mkfifo(t, filepath.Join(dir, f))
				continue
			}
			b, err := os.ReadFile(filepath.Join(leaf, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, args := range [][]string{{"lint", dir}, {"compile", dir}, {"graph", dir}} {
			type result struct {
				code     int
				out, err string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errOut := runCLI(t, args...)
				done <- result{code, out, errOut}
			}()
			select {
			case r := <-done:
				if args[0] == "graph" && fifo == "package.json" {
					// the flow is fine: graph draws it (the review's
					// finding is on package.json, not on a node)
					if r.code != 0 || !strings.Contains(r.out, "flow leaf-agent-flow") {
						t.Errorf("graph with a FIFO package.json: exit %d\n%s%s", r.code, r.out, r.err)
					}
					continue
				}
				if r.code == 0 || !strings.Contains(r.out+r.err, "not a regular file (a FIFO)") {
					t.Errorf("%s with a FIFO %s: exit %d\n%s%s", args[0], fifo, r.code, r.out, r.err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s with a FIFO %s hangs", args[0], fifo)
			}
		}
	}
}
