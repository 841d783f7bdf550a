// Package lsp is oastui's language server: the review engine behind the
// Language Server Protocol. It keeps the editor's open buffers, reviews
// the agent of a changed buffer with every open buffer overlaid on the
// disk (compile.LoadOptions.Overlay: the flow file, package.json,
// cinatra.json, the registry), exactly as `oastui lint` would review those
// files saved, and publishes the findings as diagnostics; it answers code
// actions (the findings' fixes), definition, references, hover, the
// document outline, rename and completion from the same snapshot (package
// locate).
//
// It is a face: it converts positions (byte offsets ↔ UTF-16 line and
// character), findings ↔ diagnostics and fixes ↔ workspace edits, and
// derives nothing itself.
package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// DefaultDebounce is how long the server waits after the last change of a
// buffer before reviewing it: typing bursts are reviewed once, and a
// review of the largest corpus agent (~6 ms) still publishes well within
// 50 ms of the last keystroke (BenchmarkKeystrokeP95).
const DefaultDebounce = 20 * time.Millisecond

// Options of a server.
type Options struct {
	Mode       lint.Mode           // the review mode (default deterministic)
	Load       compile.LoadOptions // --registry, --profile (Overlay is the server's)
	ConfigPath string              // --config; else the .oastui.yaml found upward, as `oastui lint` does
	Debounce   time.Duration       // 0: DefaultDebounce; negative: review at once
	Version    string              // serverInfo.version
	Log        io.Writer           // diagnostics of the server itself (stderr); nil: discarded
}

// Server is one language-server session.
type Server struct {
	opts Options
	out  io.Writer

	outMu sync.Mutex // one message at a time on out

	mu          sync.Mutex // guards everything below
	initialized bool
	shutdown    bool
	docs        map[string]*document // open buffers by absolute path
	results     map[string]*result   // last review by flow path
	published   map[string][]string  // flow path → files it published non-empty diagnostics for
	pending     map[string]bool      // flow paths waiting for the debounce
	gen         map[string]uint64    // flow path → reviews queued so far: a review in flight is stale once it moves
	timer       *time.Timer
	docChanges  bool            // the client applies documentChanges in a WorkspaceEdit
	renames     bool            // the client applies RenameFile operations (in documentChanges)
	watchFiles  bool            // the client registers file watchers on request
	hoverMD     bool            // the client renders markdown in hovers
	prepRename  bool            // the client sends textDocument/prepareRename
	folders     []string        // the workspace: edits name no file outside it (workspace.go)
	realRoots   map[string]bool // folders with symlinks resolved; nil: not yet (rootSet)

	runMu sync.Mutex // one review at a time (a large buffer's whole review runs beside the next one's first answer: fast.go)
	pubMu sync.Mutex // one review's publications at a time, each checking that it is not stale

	fastBytes int // flow buffers this large are answered in two steps (fast.go)

	// test hooks
	panicOn  string            // a method that panics (tests of the recovery)
	hookFast func(flow string) // called after a first answer is published
}

// document is one open buffer.
type document struct {
	uri     protocol.DocumentURI
	path    string
	version int32
	src     []byte
	// The ranged edits applied since the buffer's text was last replaced
	// whole, numbered: edits[i] is edit editBase+i, and seq (editBase +
	// len(edits)) counts them. A review notes the seq it read; the edits
	// after it carry its findings to the present text (fast.go).
	edits    []byteEdit
	editBase int
}

// maxEditLog bounds a buffer's log of edits: past it, the older half goes
// (a review that old is not carried; it is replaced soon anyway).
const maxEditLog = 4096

func (d *document) seq() int { return d.editBase + len(d.edits) }

// logEdits records a didChange's edits (a whole-text change starts the
// log afresh: nothing before it can be carried).
func (d *document) logEdits(edits []byteEdit, full bool) {
	if full {
		d.editBase, d.edits = d.seq()+1, nil
	}
	d.edits = append(d.edits, edits...)
	if len(d.edits) > maxEditLog {
		half := len(d.edits) / 2
		d.editBase += half
		d.edits = slices.Clone(d.edits[half:])
	}
}

// editsSince are the edits after seq, a copy; false when they are no
// longer all known (a whole-text change since, or the log trimmed).
func (d *document) editsSince(seq int) ([]byteEdit, bool) {
	if seq < d.editBase || seq > d.seq() {
		return nil, false
	}
	return slices.Clone(d.edits[seq-d.editBase:]), true
}

// New returns a server writing to out.
func New(out io.Writer, opts Options) *Server {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	return &Server{opts: opts, out: out, docs: map[string]*document{}, results: map[string]*result{},
		published: map[string][]string{}, pending: map[string]bool{}, gen: map[string]uint64{}, fastBytes: FastPathBytes}
}

// ErrExitWithoutShutdown is Serve's error for an exit notification that
// came before shutdown (the process then exits with 1, as the protocol says).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Serve reads messages from in until the exit notification or the end of
// in, answering each. It returns nil after shutdown and exit,
// ErrExitWithoutShutdown after exit alone, and io.EOF when in ends first.
func (s *Server) Serve(ctx context.Context, in io.Reader) error {
	r := bufio.NewReaderSize(in, 64<<10)
	defer s.stopTimer()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		body, err := readMessage(r)
		if err != nil {
			switch {
			case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
				return io.EOF
			case !errors.Is(err, errFraming):
				return err // the input cannot be read any more
			}
			s.logf("%v", err)
			s.send(responseErr{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{Code: codeParseError, Message: err.Error()}})
			continue
		}
		if exit, err := s.Handle(body); exit {
			return err
		}
	}
}

// Handle answers one message body (a request, a notification or a
// response); exit reports the exit notification. It never panics: a panic
// while answering a request is that request's InternalError, one in a
// notification is logged.
func (s *Server) Handle(body []byte) (exit bool, err error) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		s.send(responseErr{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{Code: codeParseError, Message: "parse error: " + err.Error()}})
		return false, nil
	}
	switch {
	case m.Method == "exit" && !m.isRequest():
		s.mu.Lock()
		down := s.shutdown
		s.mu.Unlock()
		if !down {
			return true, ErrExitWithoutShutdown
		}
		return true, nil
	case m.isRequest() && !validID(m.ID):
		s.send(responseErr{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{Code: codeInvalidRequest, Message: "invalid request id: " + string(m.ID)}})
	case m.isRequest():
		result, rerr := s.request(&m)
		if rerr != nil {
			s.send(responseErr{JSONRPC: "2.0", ID: m.ID, Error: rerr})
		} else {
			s.send(response{JSONRPC: "2.0", ID: m.ID, Result: result})
		}
	case m.isNotification():
		s.notification(&m)
	case m.Method == "" && len(m.ID) > 0 && (m.Result != nil || m.Error != nil):
		// a response to a request of ours: none is awaited
	default:
		id := m.ID
		if len(id) == 0 || !validID(id) {
			id = json.RawMessage("null")
		}
		s.send(responseErr{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: codeInvalidRequest, Message: "invalid request: neither a request, a notification nor a response"}})
	}
	return false, nil
}

func validID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// request answers one request, turning a panic into InternalError.
func (s *Server) request(m *message) (result any, rerr *rpcError) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic answering %s: %v\n%s", m.Method, r, debug.Stack())
			result, rerr = nil, &rpcError{Code: codeInternalError, Message: fmt.Sprintf("internal error answering %s: %v", m.Method, r)}
		}
	}()
	if !validID(m.ID) {
		return nil, &rpcError{Code: codeInvalidRequest, Message: "invalid request id"}
	}
	if m.Method == s.panicOn {
		panic("test panic in " + m.Method)
	}
	s.mu.Lock()
	inited, down := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize":
		return s.initialize(m.Params)
	case !inited:
		return nil, &rpcError{Code: codeServerNotInitialized, Message: "the server is not initialized"}
	case down:
		return nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shutting down"}
	}
	switch m.Method {
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.stopTimer()
		return nil, nil
	case "textDocument/codeAction":
		var p protocol.CodeActionParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.codeActions(&p)
	case "textDocument/definition":
		var p protocol.DefinitionParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.definition(&p)
	case "textDocument/references":
		var p protocol.ReferenceParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.references(&p)
	case "textDocument/hover":
		var p protocol.HoverParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.hover(&p)
	case "textDocument/prepareRename":
		var p protocol.PrepareRenameParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.prepareRename(&p)
	case "textDocument/rename":
		var p protocol.RenameParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.rename(&p)
	case "textDocument/completion":
		var p protocol.CompletionParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.completion(&p)
	case "textDocument/documentSymbol":
		var p protocol.DocumentSymbolParams
		if err := decode(m.Params, &p); err != nil {
			return nil, err
		}
		return s.documentSymbols(&p)
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "method not found: " + m.Method}
}

func decode(params json.RawMessage, v any) *rpcError {
	if len(params) == 0 {
		return &rpcError{Code: codeInvalidParams, Message: "missing params"}
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return nil
}

// notification handles one notification; a panic is logged.
func (s *Server) notification(m *message) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic handling %s: %v\n%s", m.Method, r, debug.Stack())
		}
	}()
	if m.Method == s.panicOn {
		panic("test panic in " + m.Method)
	}
	s.mu.Lock()
	inited := s.initialized
	s.mu.Unlock()
	if !inited {
		return // the protocol drops notifications before initialize (but exit)
	}
	switch m.Method {
	case "textDocument/didOpen":
		var p protocol.DidOpenTextDocumentParams
		if decode(m.Params, &p) == nil {
			s.didOpen(&p)
		}
	case "textDocument/didChange":
		var p didChangeParams
		if decode(m.Params, &p) == nil {
			s.didChange(&p)
		}
	case "textDocument/didSave":
		var p protocol.DidSaveTextDocumentParams
		if decode(m.Params, &p) == nil {
			s.didSave(&p)
		}
	case "textDocument/didClose":
		var p protocol.DidCloseTextDocumentParams
		if decode(m.Params, &p) == nil {
			s.didClose(&p)
		}
	case "initialized":
		s.registerWatchers()
	case "workspace/didChangeWorkspaceFolders":
		var p protocol.DidChangeWorkspaceFoldersParams
		if decode(m.Params, &p) == nil {
			s.foldersChanged(&p)
		}
	case "workspace/didChangeWatchedFiles":
		var p protocol.DidChangeWatchedFilesParams
		if decode(m.Params, &p) == nil {
			s.watchedFilesChanged(&p)
		}
	}
	// $/cancelRequest (requests are answered in order, at once),
	// workspace/didChangeConfiguration, $/setTrace, …: nothing to do
}

func (s *Server) initialize(params json.RawMessage) (any, *rpcError) {
	var p protocol.InitializeParams
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &rpcError{Code: codeInvalidParams, Message: "invalid params: " + err.Error()}
		}
	}
	s.mu.Lock()
	s.initialized = true
	s.folders = workspaceDirs(&p)
	s.realRoots = nil
	if w := p.Capabilities.Workspace; w != nil && w.WorkspaceEdit != nil {
		s.docChanges = w.WorkspaceEdit.DocumentChanges
		// as gopls: "rename" among the resource operations, which only
		// documentChanges carry (Neovim lists them without documentChanges)
		s.renames = slices.Contains(w.WorkspaceEdit.ResourceOperations, string(protocol.RenameResourceOperation))
	}
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil {
		s.watchFiles = w.DidChangeWatchedFiles.DynamicRegistration
	}
	if td := p.Capabilities.TextDocument; td != nil && td.Rename != nil {
		s.prepRename = td.Rename.PrepareSupport
	}
	if td := p.Capabilities.TextDocument; td != nil && td.Hover != nil {
		for _, k := range td.Hover.ContentFormat {
			if k == protocol.Markdown {
				s.hoverMD = true
			}
		}
	}
	// renameProvider's options only for a client that said it sends
	// prepareRename (the protocol's rule; gopls does the same)
	var renameProvider any = true
	if s.prepRename {
		renameProvider = protocol.RenameOptions{PrepareProvider: true}
	}
	s.mu.Unlock()
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{IncludeText: false},
			},
			CodeActionProvider:     protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, FixAll}},
			DefinitionProvider:     true,
			ReferencesProvider:     true,
			HoverProvider:          true,
			DocumentSymbolProvider: true,
			RenameProvider:         renameProvider,
			// '"' opens a string value: the ids, ports or types it may hold
			CompletionProvider: &protocol.CompletionOptions{TriggerCharacters: []string{`"`}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "oastui", Version: s.opts.Version},
	}, nil
}

// didChangeParams is protocol.DidChangeTextDocumentParams with the range
// of a change optional, as the protocol has it: a change without a range
// is the whole text (protocol's struct cannot tell the two apart).
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

func (s *Server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	s.docs[path] = &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, src: []byte(p.TextDocument.Text)}
	s.mu.Unlock()
	s.schedule(path)
}

func (s *Server) didChange(p *didChangeParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	if !s.applyChanges(path, p) {
		s.logf("didChange of %s, which is not open", p.TextDocument.URI)
		return
	}
	s.schedule(path)
}

// applyChanges applies a didChange to the open buffer of path (false when
// it is not open). The lock is released by defer: a panic here must not
// leave the server locked.
func (s *Server) applyChanges(path string, p *didChangeParams) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return false
	}
	// a new slice: reviews in flight keep the text they read
	src, edits, full := applyContentChanges(d.src, p.ContentChanges)
	d.src = src
	d.logEdits(edits, full)
	d.version = p.TextDocument.Version
	return true
}

func (s *Server) didSave(p *protocol.DidSaveTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	if d := s.docs[path]; d != nil && p.Text != "" {
		d.src = []byte(p.Text)
		d.logEdits(nil, true)
	}
	s.mu.Unlock()
	s.schedule(path)
}

func (s *Server) didClose(p *protocol.DidCloseTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	delete(s.docs, path)
	s.mu.Unlock()
	s.closed(path, p.TextDocument.URI)
}

// pathOf is the absolute, clean file path of a file: URI.
func pathOf(u protocol.DocumentURI) (string, bool) {
	pu, err := url.Parse(string(u))
	if err != nil || pu.Scheme != uri.FileScheme || pu.Path == "" {
		return "", false
	}
	p := pu.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // file:///C:/x on Windows
		p = p[1:]
	}
	return filepath.Clean(filepath.FromSlash(p)), true
}

// uriFor is the URI of a file as the client named it when it is open
// (clients compare URIs as strings; their percent-encoding may differ
// from ours), else uriOf's.
func (s *Server) uriFor(path string) protocol.DocumentURI {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil {
		return d.uri
	}
	return uriOf(path)
}

// uriOf is the file: URI of a path (absolute when it can be made so).
func uriOf(path string) protocol.DocumentURI {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return uri.File(path)
}

func (s *Server) send(v any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if err := writeMessage(s.out, v); err != nil {
		s.logf("writing a message: %v", err)
	}
}

func (s *Server) notify(method string, params any) {
	s.send(notification{JSONRPC: "2.0", Method: method, Params: params})
}

func (s *Server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	s.outMu.Lock() // the log writer may be shared; keep lines whole
	defer s.outMu.Unlock()
	_, _ = io.WriteString(s.opts.Log, "oastui lsp: "+msg)
}

// watchedGlobs are the files whose changes on disk (outside the editor)
// change a review: the package files, the registry and the config.
var watchedGlobs = []string{"**/package.json", "**/cinatra.json", "**/_shared/cinatra/components.json", "**/.oastui.yaml", "**/cinatra/oas.json"}

// registerWatchers asks a client that can to watch the files beside an
// agent (gopls and ruff do the same), so a package.json changed on disk
// (a git checkout) is reviewed again.
func (s *Server) registerWatchers() {
	s.mu.Lock()
	watch := s.watchFiles
	s.mu.Unlock()
	if !watch {
		return
	}
	var ws []protocol.FileSystemWatcher
	for _, g := range watchedGlobs {
		ws = append(ws, protocol.FileSystemWatcher{GlobPattern: g})
	}
	s.send(map[string]any{"jsonrpc": "2.0", "id": "oastui-watch", "method": "client/registerCapability",
		"params": protocol.RegistrationParams{Registrations: []protocol.Registration{{ID: "oastui-watch", Method: "workspace/didChangeWatchedFiles",
			RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: ws}}}}})
}

// watchedFilesChanged reviews again the agents that read a file changed
// on disk (every agent for a .oastui.yaml); an open buffer keeps the
// upper hand over its file.
func (s *Server) watchedFilesChanged(p *protocol.DidChangeWatchedFilesParams) {
	s.mu.Lock()
	for _, ev := range p.Changes {
		if ev == nil {
			continue
		}
		path, ok := pathOf(ev.URI)
		if !ok {
			continue
		}
		if _, open := s.docs[path]; open {
			continue
		}
		for flow, r := range s.results {
			if _, read := r.srcs[path]; read || filepath.Base(path) == ".oastui.yaml" || filepath.Dir(filepath.Dir(flow)) == filepath.Dir(path) {
				s.queueLocked(flow)
			}
		}
	}
	s.mu.Unlock()
	s.kick()
}
