package tui

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/compile"
)

// scaleProbe wraps the workspace screen in a program and records, on the
// program's goroutine, when its first frame shows, when reviews finish,
// and when the frame after each key is drawn.
type scaleProbe struct {
	m        tea.Model
	ws       *wsModel
	mu       sync.Mutex
	first    chan struct{}
	idle     chan struct{} // signalled each time no review is pending
	keySent  []time.Time
	keyDone  []time.Time
	waitView bool
	firstOK  bool
	busy     bool
	settled  chan struct{} // signalled when a pass is over, its index in and its memory given back
	upd      []float64     // ms each Update took (while reviewing)
	views    []float64     // ms each View took
	slowest  string        // the message type of the slowest Update
	slowMs   float64
}

func (p *scaleProbe) Init() tea.Cmd { return p.m.Init() }

func (p *scaleProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	t0 := time.Now()
	_, cmd := p.m.Update(msg)
	if d := float64(time.Since(t0).Microseconds()) / 1000; p.busy {
		p.upd = append(p.upd, d)
		if d > p.slowMs {
			p.slowMs, p.slowest = d, fmt.Sprintf("%T", msg)
		}
	}
	if _, ok := msg.(tea.KeyPressMsg); ok {
		p.waitView = true
	}
	busy := p.ws.done < p.ws.total || len(p.ws.queued) > 0
	if p.busy && !busy { // a review (the first, or all again) is over
		select {
		case p.idle <- struct{}{}:
		default:
		}
	}
	p.busy = busy
	if !busy && !p.ws.dirty && !p.ws.building && !p.ws.releaseDue {
		select {
		case p.settled <- struct{}{}:
		default:
		}
	}
	return p, cmd
}

func (p *scaleProbe) View() tea.View {
	t0 := time.Now()
	v := p.m.View()
	p.views = append(p.views, float64(time.Since(t0).Microseconds())/1000)
	if !p.firstOK {
		p.firstOK = true
		close(p.first)
	}
	if p.waitView {
		p.waitView = false
		p.mu.Lock()
		p.keyDone = append(p.keyDone, time.Now())
		p.mu.Unlock()
	}
	return v
}

func rssMB(b *testing.B) float64 {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(s), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

// BenchmarkWorkspaceTree measures the workspace screen on a big agents/
// tree (OASTUI_TREE, e.g. the corpus ×400 made by `oastbench -n 400
// -keep`): the first frame, the first full review, RSS after it and
// after two full re-reviews, and how long keys (sort, a filter
// keystroke) wait for their frame while the first review runs.
//
//	OASTUI_TREE=/tmp/x/agents go test ./tui -run '^$' -bench WorkspaceTree -benchtime 1x
func BenchmarkWorkspaceTree(b *testing.B) {
	root := os.Getenv("OASTUI_TREE")
	if root == "" {
		b.Skip("set OASTUI_TREE to an agents/ tree")
	}
	for range b.N {
		t0 := time.Now()
		dirs, err := compile.FindAgents(root, 0)
		if err != nil {
			b.Fatal(err)
		}
		ws := newWorkspace(root, dirs, Options{})
		p := &scaleProbe{m: scaleRoot(ws), ws: ws, first: make(chan struct{}), idle: make(chan struct{}, 1), settled: make(chan struct{}, 1)}
		prog := tea.NewProgram(p, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30), tea.WithoutSignals())
		done := make(chan struct{})
		go func() { prog.Run(); close(done) }()
		<-p.first
		firstScreen := time.Since(t0)
		// Keys while the first review runs: sort, and a filter keystroke
		// (typed, then cleared).
		stopKeys := make(chan struct{})
		keysDone := make(chan struct{})
		go func() {
			defer close(keysDone)
			seq := []string{"s", "/", "a", "esc"}
			for i := 0; ; i++ {
				select {
				case <-stopKeys:
					return
				case <-time.After(100 * time.Millisecond):
				}
				p.mu.Lock()
				if len(p.keySent) != len(p.keyDone) {
					p.mu.Unlock()
					continue // the last key is not on screen yet
				}
				p.keySent = append(p.keySent, time.Now())
				p.mu.Unlock()
				prog.Send(keyMsg(seq[i%len(seq)]))
			}
		}()
		<-p.idle
		review := time.Since(t0)
		reviewCPU := cpuSeconds()
		close(stopKeys)
		<-keysDone
		settle := func() { // RSS as it stays once the pass is over
			for len(p.settled) > 0 {
				<-p.settled
			}
			prog.Send(tea.WindowSizeMsg{Width: 100, Height: 30}) // a message: the probe looks again
			<-p.settled
			time.Sleep(time.Second)
		}
		settle()
		rss1 := rssMB(b)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live := float64(ms.HeapAlloc) / (1 << 20)
		prog.Send(keyMsg("esc")) // out of a filter the last keys may have left open
		prog.Send(keyMsg("esc"))
		for range 2 {
			prog.Send(keyMsg("r"))
			<-p.idle
		}
		settle()
		rss3 := rssMB(b)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		live3 := float64(ms.HeapAlloc) / (1 << 20)
		if f := os.Getenv("OASTUI_HEAPPROFILE"); f != "" {
			if out, err := os.Create(f); err == nil {
				pprof.WriteHeapProfile(out)
				out.Close()
			}
		}
		prog.Quit()
		<-done
		scaleStop(ws)
		p.mu.Lock()
		var lat []float64
		for i := range min(len(p.keySent), len(p.keyDone)) {
			lat = append(lat, float64(p.keyDone[i].Sub(p.keySent[i]).Microseconds())/1000)
		}
		p.mu.Unlock()
		sort.Float64s(lat)
		p95 := 0.0
		if len(lat) > 0 {
			p95 = lat[int(0.95*float64(len(lat)-1)+0.5)]
		}
		b.ReportMetric(firstScreen.Seconds(), "first-screen-s")
		b.ReportMetric(review.Seconds(), "first-review-s")
		b.ReportMetric(reviewCPU, "first-review-cpu-s")
		b.ReportMetric(rss1, "rss-review-MB")
		b.ReportMetric(rss3, "rss-3reviews-MB")
		b.ReportMetric(live, "heap-live-MB")
		b.ReportMetric(live3, "heap-live-3reviews-MB")
		b.ReportMetric(p95, "key-p95-ms")
		b.ReportMetric(float64(len(lat)), "keys")
		b.ReportMetric(pctl(p.upd, 0.95), "update-p95-ms")
		b.ReportMetric(pctl(p.views, 0.95), "view-p95-ms")
		b.Logf("slowest Update %.0f ms (%s)", p.slowMs, p.slowest)
		b.Logf("%d agents; first screen %v, first review %v, RSS %.0f MB then %.0f MB, key p95 %.0f ms over %d keys",
			len(dirs), firstScreen, review, rss1, rss3, p95, len(lat))
	}
}

func pctl(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = append([]float64(nil), xs...)
	sort.Float64s(xs)
	return xs[int(q*float64(len(xs)-1)+0.5)]
}

// cpuSeconds is the CPU time (user and system) the process used so far:
// less sensitive than wall time to a machine shared with other work.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
