//go:build unix

package lint_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
)

// Benchmarks of issue 11 item 1: lint time must not depend on how the
// flow is laid out (one line or pretty-printed) and must grow linearly.
// They assert nothing about time; run them with
//
//	go test ./lint -run '^$' -bench Hostile -benchtime 1x -benchmem

func pretty(tb testing.TB, src []byte) []byte {
	out, err := hostile.Pretty(src)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// writeAgent writes src as the flow of a bare flow file (agentspec
// profile, no package around it) in a temp dir and returns its path.
func writeFlow(tb testing.TB, name string, src []byte) string {
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, src, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// benchLint loads and reviews path per op and reports, besides time and
// allocations, the findings and the live heap (MB) holding the loaded
// agent and its review, measured after a GC at the end.
func benchLint(b *testing.B, path string) {
	b.ReportAllocs()
	var a *compile.Agent
	var r lint.Review
	for b.Loop() {
		var err error
		a, err = compile.Load(path, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		r = lint.Run(a, lint.Options{})
	}
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(len(r.Findings)), "findings")
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-MB")
	runtime.KeepAlive(a)
}

func BenchmarkHostileMinified4k(b *testing.B) {
	benchLint(b, writeFlow(b, "flow.json", hostile.Flow(4000, false)))
}

func BenchmarkHostilePretty4k(b *testing.B) {
	benchLint(b, writeFlow(b, "flow.json", pretty(b, hostile.Flow(4000, false))))
}

func BenchmarkHostileValid50k(b *testing.B) {
	benchLint(b, writeFlow(b, "flow.json", hostile.Flow(50000, true)))
}

// benchText times the text format alone over the review of path (its
// excerpts cut the source line of every finding).
func benchText(b *testing.B, path string) {
	a, err := compile.Load(path, compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	r := lint.Run(a, lint.Options{})
	docs := report.Docs{}
	docs.AddAgent(a)
	b.ReportAllocs()
	for b.Loop() {
		if err := report.Write(io.Discard, report.Formats["text"], report.Report{Findings: r.Findings, Docs: docs, Files: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHostileTextMinified4k(b *testing.B) {
	benchText(b, writeFlow(b, "flow.json", hostile.Flow(4000, false)))
}

func BenchmarkHostileTextPretty4k(b *testing.B) {
	benchText(b, writeFlow(b, "flow.json", pretty(b, hostile.Flow(4000, false))))
}

func BenchmarkHostileYAMLFlowMapping20k(b *testing.B) {
	benchLint(b, writeFlow(b, "flow.yaml", hostile.YAMLFlowMapping(20000)))
}

// TestLoadConfigFIFO: a FIFO named .oastui.yaml is refused at once (issue
// 11 item 2; it used to block lint, compile, graph and the TUI forever).
// The 10 s timeout is a hang detector, not a speed assertion.
func TestLoadConfigFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".oastui.yaml")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	found, ok := lint.FindConfig(dir)
	if !ok || found != p {
		t.Fatalf("FindConfig = %q, %v", found, ok)
	}
	done := make(chan error, 1)
	go func() { _, err := lint.LoadConfig(p); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("LoadConfig of a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadConfig of a FIFO hangs")
	}
}

// TestReviewKeepsLoadingFindings: the loading findings of issue 11 items
// 7 and 8 reach the review (and block it) and a malformed package.json
// crashes no check.
func TestReviewKeepsLoadingFindings(t *testing.T) {
	flow := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","id":"g","name":"F","metadata":{"cinatra":{"type":"flow"}}}`
	for _, pkg := range []string{`[]`, `"x"`, `null`, `{"name":12,"version":"1.0.0","license":"MIT"}`, `{"name":"@acme/x","dependencies":[1]}`} {
		dir := filepath.Join(t.TempDir(), "agents", "acme", "x")
		if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(flow), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := lint.Run(a, lint.Options{})
		var invalid, dup bool
		for _, f := range r.Blockers {
			invalid = invalid || f.Code == "package_json_invalid"
			dup = dup || (f.Code == "duplicate_key" && f.Location == "/id")
		}
		if !invalid || !dup {
			t.Errorf("package.json %s: blockers %v", pkg, r.Blockers)
		}
	}
}
