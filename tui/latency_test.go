package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/tui/watch"
)

// largestCorpusAgent is the biggest agent of the shared corpus (176 KiB).
func largestCorpusAgent(t testing.TB) string {
	return testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "blog-pipeline-agent")
}

// BenchmarkAnalyzeLargest measures one full analysis (load, review,
// compile, every flow's graph) of the largest corpus agent.
func BenchmarkAnalyzeLargest(b *testing.B) {
	dir := largestCorpusAgent(b)
	for i := 0; i < b.N; i++ {
		Analyze(dir, Options{}, uint64(i))
	}
}

// TestLatency measures write-to-frame latency: 100 saves of the largest
// corpus agent (copied to a temp dir), each through the real watcher, the
// analysis off the UI goroutine and the real renderer drawing into a
// terminal emulator. It reports p50/p95; it asserts nothing about time.
// Run with: OASTUI_LATENCY=1 go test ./tui -run TestLatency -v
func TestLatency(t *testing.T) {
	if os.Getenv("OASTUI_LATENCY") == "" {
		t.Skip("set OASTUI_LATENCY=1 to measure")
	}
	src := largestCorpusAgent(t)
	dir := copyDir(t, src)
	flow := filepath.Join(dir, "cinatra", "oas.json")
	orig, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := watch.New(WatchConfig(analysis.WatchSetOf(a, "")))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	var trace syncBuffer
	frameCh := make(chan struct {
		seq uint64
		at  time.Time
	}, 64)
	tr := NewTracer(&trace)
	tr.OnFrame = func(seq uint64, at time.Time) {
		frameCh <- struct {
			seq uint64
			at  time.Time
		}{seq, at}
	}
	cfg := Config{Path: dir, Tracer: tr, Batches: w.Batches(), WatchErrors: w.Errors()}
	m := New(cfg)
	emu := vt.NewSafeEmulator(160, 50)
	p := tea.NewProgram(m, tea.WithInput(emu), tea.WithOutput(onlcr{emu}), tea.WithWindowSize(160, 50),
		tea.WithoutSignals(), tea.WithFPS(120))
	done := make(chan struct{})
	go func() { p.Run(); close(done) }()
	defer func() { p.Quit(); <-done }()

	waitFrame := func(after uint64) (uint64, time.Time) {
		deadline := time.After(10 * time.Second)
		for {
			select {
			case f := <-frameCh:
				if f.seq > after {
					return f.seq, f.at
				}
			case <-deadline:
				t.Fatalf("no frame after seq %d within 10s", after)
			}
		}
	}
	last, _ := waitFrame(0) // first analysis on screen
	first := last

	const saves = 100
	var lat []time.Duration
	for i := 0; i < saves; i++ {
		body := strings.Replace(string(orig), `"description": "`, fmt.Sprintf(`"description": "save %d · `, i), 1)
		t0 := time.Now()
		if i%2 == 0 {
			err = os.WriteFile(flow, []byte(body), 0o644) // write in place
		} else {
			tmp := flow + ".tmp"
			if err = os.WriteFile(tmp, []byte(body), 0o644); err == nil {
				err = os.Rename(tmp, flow) // rename-and-replace
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		seq, at := waitFrame(last)
		last = seq
		lat = append(lat, at.Sub(t0))
		time.Sleep(30 * time.Millisecond) // let the renderer settle between saves
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1)+0.5)] }
	an := Analyze(dir, Options{}, 0)
	msg := fmt.Sprintf("write→frame over %d saves of %s (%d KiB): p50 %s, p95 %s, max %s (min %s); debounce %s; one analysis %s; %d analyses for %d saves",
		saves, filepath.Base(src), len(orig)/1024, pct(0.5).Round(time.Microsecond), pct(0.95).Round(time.Microsecond),
		lat[len(lat)-1].Round(time.Microsecond), lat[0].Round(time.Microsecond), watch.DefaultDebounce, an.Took.Round(time.Microsecond),
		last-first, saves)
	t.Log(msg)
	fmt.Println(msg)
	fmt.Println(breakdown(trace.String()))
	if p := os.Getenv("OASTUI_LATENCY_TRACE"); p != "" {
		os.WriteFile(p, []byte(trace.String()), 0o644)
	}
}

// syncBuffer is a goroutine-safe strings.Builder for the trace.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// breakdown reads the trace (write-detected, analysis-done, frame per seq)
// and reports the medians of each stage.
func breakdown(trace string) string {
	at := map[string]map[uint64]int64{}
	for _, l := range strings.Split(trace, "\n") {
		var ns int64
		var ev string
		var seq uint64
		if n, _ := fmt.Sscanf(l, "%d %s seq=%d", &ns, &ev, &seq); n == 3 {
			if at[ev] == nil {
				at[ev] = map[uint64]int64{}
			}
			at[ev][seq] = ns
		}
	}
	var toDone, toFrame []time.Duration
	for seq, w := range at["write-detected"] {
		d, ok1 := at["analysis-done"][seq]
		f, ok2 := at["frame"][seq]
		if ok1 && ok2 {
			toDone = append(toDone, time.Duration(d-w))
			toFrame = append(toFrame, time.Duration(f-d))
		}
	}
	med := func(ds []time.Duration) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2].Round(time.Microsecond)
	}
	return fmt.Sprintf("medians: first event→analysis done %s (debounce + analysis), analysis done→frame %s", med(toDone), med(toFrame))
}
