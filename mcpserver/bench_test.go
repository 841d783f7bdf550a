package mcpserver

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/internal/hostile"
)

// BenchmarkToolCall is one tools/call round trip over the in-memory
// transport for each tool on the example agent (the engine's work plus
// the SDK's schema validation, JSON and masking).
func BenchmarkToolCall(b *testing.B) {
	dir := tempDir(b)
	workspace(b, dir, "a", true)
	cs := connect(b, []string{dir}, nil, "")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"agent_source_review", map[string]any{"path": "agents/oastui/a"}},
		{"agent_compile", map[string]any{"path": "agents/oastui/a"}},
		{"agent_graph", map[string]any{"path": "agents/oastui/a"}},
		{"agent_fix", map[string]any{"path": "agents/oastui/a", "fix": "all"}},
		{"context_resolve", map[string]any{"path": "agents/oastui/a", "slot": "styleContext"}},
	} {
		b.Run(c.tool, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}

// BenchmarkGraphLarge: agent_graph on a minified 4,000-node flow, and the
// engine's work alone (what `oastui graph` does) for comparison.
func BenchmarkGraphLarge(b *testing.B) {
	dir := tempDir(b)
	flow := filepath.Join(dir, "big.json")
	if err := os.WriteFile(flow, hostile.Flow(4000, true), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			s := analysis.Run(flow, analysis.Options{Stages: analysis.StageGraphs})
			if g := s.Flow("").Drawn(); g == nil || g.Graph == nil {
				b.Fatal("no graph")
			}
			_ = flowgraph.Text(s.Flow("").Drawn().Graph, flowgraph.Options{})
		}
	})
	cs := connect(b, []string{dir}, nil, "")
	b.Run("agent_graph", func(b *testing.B) {
		for b.Loop() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "agent_graph", Arguments: map[string]any{"path": "big.json"}})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}

// BenchmarkGraphLargeWire: agent_graph on the 4,000-node flow through
// Serve, the client reading the reply's bytes without decoding them (the
// server's work alone).
func BenchmarkGraphLargeWire(b *testing.B) {
	dir := tempDir(b)
	if err := os.WriteFile(filepath.Join(dir, "big.json"), hostile.Flow(4000, true), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Roots: []string{dir}, Version: "test"})
	if err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = s.Serve(context.Background(), inR, outW); outW.Close() }()
	defer inW.Close()
	r := bufio.NewReaderSize(outR, 1<<20)
	roundTrip := func(line string) int {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			frag, err := r.ReadSlice('\n')
			n += len(frag)
			if err == nil {
				return n
			}
			if err != bufio.ErrBufferFull {
				b.Fatal(err)
			}
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	size := 0
	for b.Loop() {
		size = roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"agent_graph","arguments":{"path":"big.json"}}}`)
	}
	b.ReportMetric(float64(size), "reply-bytes")
}
