// Package mcpserver is oastui's MCP face: a Model Context Protocol server
// (the official Go SDK, github.com/modelcontextprotocol/go-sdk) that gives
// AI coding agents the engine the CLI and the TUI run, as typed tools with
// JSON Schemas for their inputs and structured outputs:
//
//   - agent_source_review: the review (analysis.Run) as the lint JSON
//     formatter's document, with the severity buckets, the fixes on offer
//     and the compile gate;
//   - agent_compile: the {"ok":…} document `oastui compile` prints;
//   - agent_graph: a flow's nodes, edges, BFS step order and the drawing
//     `oastui graph` prints;
//   - agent_fix: the unified diff of a named fix (analysis.PlanFixes, as
//     `oastui lint --diff`), written through edit.Batch only when asked;
//   - context_resolve: a context slot's refs, as `oastui resolve`.
//
// It is a protocol adapter only: nothing here loads, lints, compiles or
// draws on its own. Every path a client names must resolve (symlinks
// followed) inside the workspace roots (the client's roots/list, else the
// server's own); every string of every result passes the one presentation
// function (present.Line: sanitise, then mask); a panic in a tool becomes that call's error result.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/oastui/oastui/lint/report"
	"github.com/oastui/oastui/present"
)

// Options configure a server.
type Options struct {
	// Roots are the directories paths are confined to when the client
	// gives no roots of its own (default: the working directory).
	Roots []string
	// Version is reported as the server's version.
	Version string
	// Registry is the global component registry file (lint --registry);
	// "" finds it around each agent as the CLI does.
	Registry string
	// Logger receives the SDK's log (nil: none).
	Logger *slog.Logger
	// BeforeCall, when set, runs at the start of every tool call (inside
	// the call's panic recovery) with the tool's name and its raw
	// arguments. Tests inject faults with it; `oastui mcp` sets it from no
	// flag and no environment variable.
	BeforeCall func(tool string, args []byte)
}

// Server is the oastui MCP server.
type Server struct {
	*mcp.Server
	roots      Roots // the server's own roots
	registry   string
	beforeCall func(tool string, args []byte) // Options.BeforeCall
	lineLimit  int                            // the longest message line read: maxLine (TestLongLines lowers it under -race)

	mu     sync.Mutex
	client map[*mcp.ServerSession]Roots // roots the client listed, until it says they changed
	gen    map[*mcp.ServerSession]int   // roots/list_changed notifications seen per session
}

// New builds the server with its tools.
func New(opts Options) (*Server, error) {
	dirs := opts.Roots
	if len(dirs) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dirs = []string{wd}
	}
	roots, err := NewRoots(dirs)
	if err != nil {
		return nil, err
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	s := &Server{roots: roots, registry: opts.Registry, beforeCall: opts.BeforeCall, lineLimit: maxLine, client: map[*mcp.ServerSession]Roots{}, gen: map[*mcp.ServerSession]int{}}
	s.Server = mcp.NewServer(&mcp.Implementation{Name: "oastui", Title: "oastui: OAS Flow agent review", Version: version},
		&mcp.ServerOptions{
			Instructions: instructions,
			Logger:       opts.Logger,
			Capabilities: &mcp.ServerCapabilities{}, // no logging capability: tools only
			RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) {
				s.mu.Lock()
				delete(s.client, req.Session)
				if _, ok := s.gen[req.Session]; ok { // a roots/list in flight is now stale
					s.gen[req.Session]++
				}
				s.mu.Unlock()
			},
		})
	s.addTools()
	return s, nil
}

const instructions = `oastui reviews, compiles and draws agents written as OAS Flow files (agents/<vendor>/<slug>/cinatra/oas.json, or today's extensions/<vendor>/<slug>/cinatra/oas.json).
Paths are relative to the first workspace root, or absolute inside a root; results name the files of the first root relative to it.
agent_source_review reviews a path (or inline JSON) and lists findings with positions and fixes; agent_fix previews a fix as a diff and applies it only with apply=true; agent_compile, agent_graph and context_resolve show the compiled output, the flow graph and a context slot's candidates.`

// Run serves the client on stdin/stdout until it disconnects (Serve: a
// malformed or oversize line is answered with an error, not the end).
func (s *Server) Run(ctx context.Context) error {
	return s.Serve(ctx, os.Stdin, os.Stdout)
}

// rootsFor are the roots of a call: the client's (roots/list, cached per
// session until roots/list_changed), else the server's own.
func (s *Server) rootsFor(ctx context.Context, ss *mcp.ServerSession) Roots {
	if ss == nil {
		return s.roots
	}
	s.mu.Lock()
	r, ok := s.client[ss]
	gen, seen := s.gen[ss]
	if !seen {
		s.gen[ss] = 0
		go s.forget(ss)
	}
	s.mu.Unlock()
	if ok {
		return r
	}
	r, ok = clientRoots(ctx, ss)
	if !ok {
		// No roots from the client (none declared, none listed, or no
		// answer within rootsTimeout): the server's own, remembered too, so
		// that a client that never answers costs one timeout, not one per
		// call; roots/list_changed asks again.
		r = s.roots
	}
	s.mu.Lock()
	if g, alive := s.gen[ss]; alive && g == gen { // no roots/list_changed since the request, nor the end of the session: keep the answer
		s.client[ss] = r
	}
	s.mu.Unlock()
	return r
}

// forget drops a session's cached roots when it ends.
func (s *Server) forget(ss *mcp.ServerSession) {
	_ = ss.Wait()
	s.mu.Lock()
	delete(s.client, ss)
	delete(s.gen, ss)
	s.mu.Unlock()
}

// call is what a tool handler gets besides its input.
type call struct {
	roots Roots

	mu      sync.Mutex
	refused []string // files loading was refused (allow)
}

// allow is compile.LoadOptions.Allow of a call: loading reads no file
// whose real path lies outside the roots (a flow file, package.json,
// registry or child agent that is a symlink out of them), and the call
// remembers the refusal: the tool then fails (refusal) rather than review
// an agent with a file missing.
func (c *call) allow(real string) error {
	if c.roots.Contains(real) {
		return nil
	}
	c.mu.Lock()
	c.refused = append(c.refused, real)
	c.mu.Unlock()
	return ErrOutsideRoots
}

// refusal is the error of a call whose loading was refused a file.
func (c *call) refusal() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.refused) == 0 {
		return nil
	}
	return proseErr("%s: %w (%s): a file the agent reads resolves there", c.refused[0], ErrOutsideRoots, strings.Join(c.roots.Dirs, ", "))
}

// handler is a tool's body: its output, optionally the text content to
// return instead of the SDK's JSON of the output (a JSON document; "" for
// the SDK's), or an error (a tool error result, IsError).
type handler[In, Out any] func(ctx context.Context, c *call, in In) (out Out, text string, err error)

// addTool registers h under name with the input and output schemas
// inferred from In and Out (registerTool). The wrapper is the same for every tool: it
// recovers a panic into an error result (the server stays up), resolves
// the roots, and masks every string of the result and of the error.
func addTool[In, Out any](s *Server, name, title, desc string, readOnly bool, h handler[In, Out]) {
	t := &mcp.Tool{Name: name, Title: title, Description: desc,
		Annotations: &mcp.ToolAnnotations{Title: title, ReadOnlyHint: readOnly, OpenWorldHint: ptr(false),
			IdempotentHint: readOnly, DestructiveHint: ptr(false)}}
	registerTool(s.Server, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if r := recover(); r != nil {
				var zero Out
				res, out = nil, zero
				msg := fmt.Sprintf("internal error in %s: %v", name, r)
				if os.Getenv("OASTUI_DEBUG") != "" {
					msg += "\n" + string(debug.Stack())
				}
				err = errors.New(maskText(msg))
			}
		}()
		if s.beforeCall != nil {
			var args []byte
			if req != nil && req.Params != nil {
				args = req.Params.Arguments
			}
			s.beforeCall(name, args)
		}
		var ss *mcp.ServerSession
		if req != nil {
			ss = req.Session
		}
		c := &call{roots: s.rootsFor(ctx, ss)}
		out, text, err := h(ctx, c, in)
		if err != nil {
			var zero Out
			return nil, zero, errors.New(presentError(err, func(s string) string { return maskText(c.roots.Relative(s)) }))
		}
		// paths relative to the first root, before the masker sees them
		mapStrings(reflect.ValueOf(&out), func(s string) string { return maskText(c.roots.Relative(s)) })
		if text != "" {
			res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: maskJSON(c.roots.Relative(text))}}}
		}
		return res, out, nil
	})
}

func ptr[T any](v T) *T { return &v }

// maskText is the one presentation function, line by line: present.Line,
// sanitise then mask (a "key: value" line is judged under
// its key, so a multi-line text is masked one line at a time; a client may
// show a result in a terminal, so escape sequences, controls, bidi and
// zero-width characters go, tabs and newlines stay). The
// "--- a" and "+++ b" of a unified diff's file header are kept out of the
// masker's sight: they are not the file's text, and the masker reads
// "a/tmp/Test123…" as a token where it passes "/tmp/Test123…".
func maskText(s string) string {
	if !strings.Contains(s, "\n") {
		return maskLine(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = maskLine(l)
	}
	return strings.Join(lines, "\n")
}

// maskJSON is the one presentation function over an encoded JSON document
// (the text content of agent_compile: the document byte for byte but for
// its strings): each string literal — member names and values — is
// decoded, passed through present (sanitise, then mask: present.Value
// judges a member's value under its name, present.Lines the others) and
// encoded again; everything between the strings is kept. What remains
// that a terminal may act on is escaped as \uXXXX (report.EscapeInvisible,
// as `oastui lint --format json` writes). Masking the encoded text instead
// would let an escape (\n, \u001b[0m) or a zero-width character inside a
// string split a token so the masker does not see it; the client then
// decodes the token whole.
func maskJSON(doc string) string {
	var b strings.Builder
	b.Grow(len(doc))
	key, afterColon := "", false
	for i := 0; i < len(doc); {
		c := doc[i]
		if c != '"' {
			switch c {
			case ':':
				afterColon = true
			case ' ', '\t', '\n', '\r':
			default:
				afterColon = false
			}
			b.WriteByte(c)
			i++
			continue
		}
		j := i + 1
		for j < len(doc) && doc[j] != '"' {
			if doc[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(doc) { // not a document we encoded: mask it as text
			b.WriteString(present.Lines(doc[i:]))
			break
		}
		lit := doc[i : j+1]
		i = j + 1
		var s string
		if err := json.Unmarshal([]byte(lit), &s); err != nil {
			b.WriteString(present.Lines(lit))
			continue
		}
		k := i
		for k < len(doc) && (doc[k] == ' ' || doc[k] == '\t' || doc[k] == '\n' || doc[k] == '\r') {
			k++
		}
		isKey := k < len(doc) && doc[k] == ':'
		switch {
		case isKey:
			key = s
			s = present.Lines(s)
		case afterColon:
			s = present.Value(key, s)
		default:
			s = present.Lines(s)
		}
		afterColon = false
		b.Write(encodeString(s))
	}
	return string(report.EscapeInvisible([]byte(b.String())))
}

// encodeString is s as a JSON string literal, HTML characters kept (as
// compile.IndentJSON writes).
func encodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func maskLine(l string) string {
	if strings.HasPrefix(l, "--- a") || strings.HasPrefix(l, "+++ b") {
		return l[:5] + present.Line(l[5:])
	}
	return present.Line(l)
}

// mapStrings replaces every string s reachable from v by f(s), in place.
func mapStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			if v.Kind() == reflect.Interface {
				switch e.Kind() {
				case reflect.String:
					v.Set(reflect.ValueOf(f(e.String())).Convert(e.Type()))
				case reflect.Map, reflect.Slice:
					mapStrings(e, f)
				}
				return
			}
			mapStrings(e, f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if field := v.Field(i); field.CanSet() {
				mapStrings(field, f)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			mapStrings(v.Index(i), f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			mapStrings(c, f)
			v.SetMapIndex(k, c)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(f(v.String()))
		}
	}
}
