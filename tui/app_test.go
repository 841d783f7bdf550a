package tui

import (
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/compile"
)

// TestTreeProgramStopsItsGoroutines: one program holds both screens; the
// review pool, the watcher forwarders, the agent view's watcher and every
// command waiting on them stop with it — after opening an agent, going
// back and quitting, no goroutine the program started is left.
func TestTreeProgramStopsItsGoroutines(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	boss := writeWSAgent(t, root, "boss", "1.0.0", []string{"@acme/worker"}, `"@acme/worker": "^1.0.0"`)
	writeWSAgent(t, root, "worker", "1.4.0", nil, "")
	dirs, err := compile.FindAgents(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	before := goroutines()

	a, stop := startTree(root, dirs, RunConfig{}, nil)
	states := make(chan string, 64)
	a.after = func(a *app) {
		st := "table"
		if a.agent != nil {
			st = "agent"
		}
		if a.ws.done >= a.ws.total {
			st += " reviewed"
		}
		select {
		case states <- st:
		default:
		}
	}
	p := tea.NewProgram(a, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30), tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	await := func(want string) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case st := <-states:
				if strings.HasPrefix(st, want) {
					return
				}
			case <-deadline:
				t.Fatalf("the program never reached %q", want)
			}
		}
	}
	await("table reviewed")
	p.Send(openAgentMsg{boss})
	await("agent")
	p.Send(keyMsg("esc"))
	await("table")
	p.Send(openAgentMsg{boss})
	await("agent")
	p.Quit()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	stop()

	deadline := time.Now().Add(10 * time.Second)
	for len(goroutines()) > len(before) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if after := goroutines(); len(after) > len(before) {
		t.Fatalf("%d goroutines outlive the program (%d before):\n%s", len(after)-len(before), len(before), strings.Join(after, "\n\n"))
	}
}

// goroutines are the stacks of the live goroutines but the runtime's
// signal loop (started once per process, by the first program, for good).
func goroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "os/signal.loop") {
			out = append(out, g)
		}
	}
	return out
}
