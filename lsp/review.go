package lsp

import (
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/locate"
	"github.com/oastui/oastui/present"
)

// result is the review of one agent at the buffer versions it saw.
type result struct {
	flow     string             // the flow file reviewed
	snap     *analysis.Snapshot //
	versions map[string]int32   // path → version of every open buffer overlaid
	srcs     map[string][]byte  // path → the text reviewed, for every file the agent read
	texts    map[string]*text   // built on demand from srcs
	diags    map[string][]protoDiag
	index    *locate.Index // built on demand
	seq      int           // the flow buffer's edit count when reviewed (document.seq), -1: not open
	gen      uint64        // the flow's review generation it began at (Server.gen)
	once     sync.Once
	textMu   sync.Mutex
}

// protoDiag is a diagnostic with the finding it came from.
type protoDiag struct {
	d protocol.Diagnostic
	f compile.Finding
}

func (r *result) text(path string) *text {
	r.textMu.Lock()
	defer r.textMu.Unlock()
	if t, ok := r.texts[path]; ok {
		return t
	}
	src, ok := r.srcs[path]
	if !ok {
		return nil
	}
	t := newText(src)
	r.texts[path] = t
	return t
}

func (r *result) locate() *locate.Index {
	r.once.Do(func() {
		r.index = locate.NewWith(r.snap.Agent, func(ptr string) (*flowgraph.Graph, error) { return r.snap.Flow(ptr).Model() })
	})
	return r.index
}

// flowsOf are the flow files a change of path asks to review: the flow
// file of the agent that owns it (compile.OwnerOf: a package.json's or
// cinatra.json's package, a flow file itself); for a registry, every
// reviewed agent that read it; for another file, the reviewed agents that
// read it (a README the credential scan reads). It takes the server's lock
// only to look at the buffers and the reviews: the disk is looked at
// without it (a FIFO or a device must never stop the server), and only
// through loading's limited, regular-file-only reader.
func (s *Server) flowsOf(path string) []string {
	if isRegistry(path) {
		var out []string
		s.mu.Lock()
		for flow, r := range s.results {
			if r.snap.Agent != nil && samePath(r.snap.Agent.RegistryPath, path) {
				out = append(out, flow)
			}
		}
		s.mu.Unlock()
		sort.Strings(out)
		return out
	}
	s.mu.Lock()
	_, reviewed := s.results[path]
	overlay := s.overlayLocked()
	s.mu.Unlock()
	if reviewed {
		return []string{path}
	}
	if o, ok := compile.OwnerOf(path, overlay); ok {
		return []string{o.Flow}
	}
	var out []string
	s.mu.Lock()
	for flow, r := range s.results {
		if _, read := r.srcs[path]; read {
			out = append(out, flow)
		}
	}
	s.mu.Unlock()
	sort.Strings(out)
	return out
}

// overlayLocked is the text of every open buffer, by path (s.mu held).
func (s *Server) overlayLocked() map[string][]byte {
	overlay := make(map[string][]byte, len(s.docs))
	for p, d := range s.docs {
		overlay[p] = d.src
	}
	return overlay
}

func isRegistry(path string) bool {
	return strings.HasSuffix(filepath.ToSlash(path), "/_shared/cinatra/components.json")
}

func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// queueLocked queues a review of flow, which makes any review of it in
// flight stale (s.mu held).
func (s *Server) queueLocked(flow string) {
	s.pending[flow] = true
	s.gen[flow]++
}

// schedule queues the review of what a change of path touches and
// (re)starts the debounce timer.
func (s *Server) schedule(path string) {
	flows := s.flowsOf(path)
	s.mu.Lock()
	for _, f := range flows {
		s.queueLocked(f)
	}
	s.mu.Unlock()
	s.kick()
}

// kick starts (or restarts) the debounce timer when reviews are pending.
func (s *Server) kick() {
	s.mu.Lock()
	if len(s.pending) == 0 || s.shutdown {
		s.mu.Unlock()
		return
	}
	if s.opts.Debounce < 0 {
		s.mu.Unlock()
		s.Flush()
		return
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(s.opts.Debounce, s.Flush)
	} else {
		s.timer.Reset(s.opts.Debounce)
	}
	s.mu.Unlock()
}

func (s *Server) stopTimer() {
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
}

// Flush reviews every pending agent now and publishes its diagnostics
// (the debounce timer calls it; tests call it to skip the wait).
func (s *Server) Flush() {
	s.mu.Lock()
	var flows []string
	for f := range s.pending {
		flows = append(flows, f)
	}
	clear(s.pending)
	s.mu.Unlock()
	sort.Strings(flows)
	for _, f := range flows {
		s.safeReview(f)
	}
}

// safeReview is review for the timer's goroutine: a panic is logged (a
// request's review is guarded by the request's recover). It may be
// abandoned for a newer change (review's background).
func (s *Server) safeReview(flow string) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic reviewing %s: %v\n%s", flow, r, debug.Stack())
		}
	}()
	s.review(flow, true)
}

// current returns the review of flow at the open buffers' present
// versions, reviewing again (and publishing) when a buffer changed since.
func (s *Server) current(flow string) *result {
	s.mu.Lock()
	r := s.results[flow]
	fresh := r != nil && s.freshLocked(r)
	s.mu.Unlock()
	if fresh {
		return r
	}
	return s.review(flow, false)
}

// freshLocked: every open buffer the review overlaid is at the same
// version, and no buffer of its files was opened since.
func (s *Server) freshLocked(r *result) bool {
	for p, d := range s.docs {
		v, seen := r.versions[p]
		if seen && v != d.version {
			return false
		}
		if _, read := r.srcs[p]; read && !seen {
			return false
		}
	}
	for p := range r.versions {
		if _, open := s.docs[p]; !open {
			return false
		}
	}
	return true
}

// review runs the engine over flow with every open buffer overlaid,
// stores the result and publishes its diagnostics.
//
// A background review (the debounce's, not a request's) of a large flow
// buffer (fast.go) answers in two steps: first the loading findings of the
// new text (its syntax and structure) with the previous review's other
// findings carried to their new places, published at once; then the whole
// review. A newer change of any buffer arriving meanwhile makes it stale:
// it stops before the whole review, or between two of its checks, or
// keeps its result unpublished — the newest version's review publishes,
// and nothing older is published after it (publications are made under
// pubMu, each checking it is not stale). The whole review of a large
// buffer runs without runMu: the next change's first answer need not wait
// for the check a stale review is finishing.
func (s *Server) review(flow string, background bool) *result {
	s.runMu.Lock()
	running := true
	defer func() {
		if running {
			s.runMu.Unlock()
		}
	}()
	s.mu.Lock()
	overlay := s.overlayLocked()
	versions := map[string]int32{}
	for p, d := range s.docs {
		versions[p] = d.version
	}
	delete(s.pending, flow) // this review covers a change queued so far
	var carry *carrier
	if background {
		carry = s.carrierLocked(flow)
	}
	seq := -1
	if d := s.docs[flow]; d != nil {
		seq = d.seq()
	}
	gen := s.gen[flow]
	s.mu.Unlock()
	stale := func() bool { return s.stale(flow, gen) }

	opts := analysis.Options{Mode: s.opts.Mode, Load: s.opts.Load, ConfigPath: s.opts.ConfigPath, Stages: analysis.ReviewOnly}
	opts.Load.Overlay = overlay
	// The package's flow file is reviewed as its package, as `oastui lint
	// DIR` reviews it (at a legacy place, with the legacy_agent_filename
	// warning and its move fix); any other file as itself.
	target := flow
	if o, ok := compile.OwnerOf(flow, overlay); ok && o.Flow == flow {
		target = o.Load
	}
	var texts map[string]*text
	if carry != nil {
		first := analysis.Load(target, opts)
		fr := s.newResult(flow, first, overlay, versions, nil)
		fr.diags = s.diagnostics(fr)
		s.publishFast(flow, fr, carry, gen)
		if s.hookFast != nil {
			s.hookFast(flow)
		}
		if stale() {
			return nil // a newer change: its review runs next
		}
		opts.Agent, opts.Config = first.Agent, &first.Config
		texts = fr.texts // the line tables of the same texts, made once
		s.runMu.Unlock()
		running = false
	}
	if background {
		opts.Stop = stale
	}
	snap := analysis.Run(target, opts)
	if snap.Stopped {
		return nil // stopped for a newer change: its review runs next
	}
	if snap.Config.Err != nil {
		s.logf("config %s: %v (the defaults apply)", snap.Config.Path, snap.Config.Err)
	}
	r := s.newResult(flow, snap, overlay, versions, texts)
	r.seq, r.gen = seq, gen
	r.diags = s.diagnostics(r)

	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return r
	}
	if cur := s.results[flow]; cur == nil || cur.gen <= gen { // never an older one over a newer
		s.results[flow] = r
	}
	if background && s.gen[flow] != gen {
		// stale: a newer change is queued, whose review publishes (this
		// one is kept: requests and the next fast answer may use it)
		s.mu.Unlock()
		return r
	}
	prev := s.published[flow]
	var now []string
	for p, ds := range r.diags {
		if len(ds) > 0 {
			now = append(now, p)
		}
	}
	sort.Strings(now)
	s.published[flow] = now
	s.mu.Unlock()

	// publish every open buffer the review read (its diagnostics at the
	// version reviewed, even when there are none), every file with
	// findings, and clear the ones that had some
	files := slices.Clone(now)
	for p := range r.versions {
		files = append(files, p)
	}
	files = append(files, prev...)
	sort.Strings(files)
	files = slices.Compact(files)
	for _, p := range files {
		s.publish(r, p, r.diags[p])
	}
	return r
}

// stale: a newer change of flow's files was queued since its review
// began (at generation gen), or the server is shutting down.
func (s *Server) stale(flow string, gen uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen[flow] != gen || s.shutdown
}

// newResult is the result of a snapshot: the texts the review read, and
// the versions of the open buffers among them. texts are line tables
// already made of the same texts (nil: none).
func (s *Server) newResult(flow string, snap *analysis.Snapshot, overlay map[string][]byte, versions map[string]int32, texts map[string]*text) *result {
	if texts == nil {
		texts = map[string]*text{}
	}
	r := &result{flow: flow, snap: snap, versions: map[string]int32{}, srcs: map[string][]byte{}, texts: texts, seq: -1}
	if snap.Agent != nil {
		for _, d := range snap.Agent.Docs() {
			if d != nil {
				p := absPath(d.Path)
				r.srcs[p] = d.Src
				if v, open := versions[p]; open {
					r.versions[p] = v
				}
			}
		}
		if sib := snap.Agent.Siblings; sib != nil {
			// the package's other files, as the credential scan read them
			// (an open buffer's text included): the ranges of their findings
			for _, f := range sib.Files {
				p := absPath(f.Path)
				if _, seen := r.srcs[p]; seen || f.Data == nil {
					continue
				}
				r.srcs[p] = f.Data
				if v, open := versions[p]; open {
					r.versions[p] = v
				}
			}
		}
	} else if src, open := overlay[flow]; open {
		r.srcs[flow] = src
		r.versions[flow] = versions[flow]
	}
	for p, t := range r.texts { // a table of another text is not reused
		if src, ok := r.srcs[p]; !ok || len(src) != len(t.src) || (len(src) > 0 && &src[0] != &t.src[0]) {
			delete(r.texts, p)
		}
	}
	return r
}

// publish sends the diagnostics of file p of review r (at the version of
// its buffer the review read).
func (s *Server) publish(r *result, p string, ds []protoDiag) {
	params := protocol.PublishDiagnosticsParams{URI: s.uriFor(p), Diagnostics: make([]protocol.Diagnostic, 0, len(ds))}
	if v, ok := r.versions[p]; ok && v >= 0 {
		params.Version = uint32(v)
	}
	for _, pd := range ds {
		params.Diagnostics = append(params.Diagnostics, pd.d)
	}
	s.notify("textDocument/publishDiagnostics", params)
}

// closed forgets the review of a closed flow when none of its files is
// open any more, clearing its diagnostics, and reviews the agents whose
// package.json or registry buffer closed (the disk file applies again).
func (s *Server) closed(path string, u protocol.DocumentURI) {
	s.mu.Lock()
	var clearFiles []string
	for flow, r := range s.results {
		if _, read := r.srcs[path]; !read && flow != path {
			continue
		}
		stillOpen := false
		for p := range r.srcs {
			if _, open := s.docs[p]; open {
				stillOpen = true
			}
		}
		if !stillOpen {
			clearFiles = append(append(clearFiles, flow), s.published[flow]...)
			delete(s.results, flow)
			delete(s.published, flow)
			delete(s.pending, flow)
			continue
		}
		s.queueLocked(flow)
	}
	s.mu.Unlock()
	sort.Strings(clearFiles)
	for _, p := range slices.Compact(clearFiles) {
		pu := s.uriFor(p)
		if p == path {
			pu = u // as the client named it
		}
		s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: pu, Diagnostics: []protocol.Diagnostic{}})
	}
	s.schedule(path)
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// RuleDocURL is the documentation of a rule code: its section of
// docs/rules.md (lint.Rule.HelpURI, the link SARIF output carries too).
func RuleDocURL(code string) string {
	if r := lint.LookupRule(code); r != nil {
		return r.HelpURI()
	}
	return lint.RulesDocURL
}

// severity maps a finding's severity: blocker → Error, warning → Warning,
// suggestion → Information.
func severity(s compile.Severity) protocol.DiagnosticSeverity {
	switch s {
	case compile.Blocker:
		return protocol.DiagnosticSeverityError
	case compile.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// diagData is the Data of a diagnostic: what identifies the finding again
// (the code action's look-up) and the rule's fingerprint ingredients.
type diagData struct {
	Pointer   string `json:"pointer,omitempty"`
	ValueHash string `json:"valueHash,omitempty"`
	Fixes     int    `json:"fixes,omitempty"`
}

// diagnostics turns the review's findings into diagnostics per file.
func (s *Server) diagnostics(r *result) map[string][]protoDiag {
	out := map[string][]protoDiag{}
	for _, f := range r.snap.Review.Findings {
		path := absPath(f.File)
		d := protocol.Diagnostic{
			Range:           s.rangeOf(r, path, f),
			Severity:        severity(f.Severity),
			Code:            f.Code,
			CodeDescription: &protocol.CodeDescription{Href: protocol.URI(RuleDocURL(f.Code))},
			Source:          "oastui",
			Message:         clean(f.Message),
			Data:            diagData{Pointer: clean(f.Location), ValueHash: f.ValueHash, Fixes: len(f.Fixes)},
		}
		out[path] = append(out[path], protoDiag{d: d, f: f})
	}
	return out
}

func clean(s string) string { return present.Text(s) }

// rangeOf is the range a finding covers: its span (the offsets the
// engine gave it when it was made, in the bytes the review read), else,
// for a finding on a whole file, the rest of its line.
func (s *Server) rangeOf(r *result, path string, f compile.Finding) protocol.Range {
	t := r.text(path)
	if t == nil {
		// a file the review holds no text of (one too large to scan)
		line, col := uint32(max(f.Line-1, 0)), uint32(max(f.Column-1, 0))
		return protocol.Range{Start: protocol.Position{Line: line, Character: col}, End: protocol.Position{Line: line, Character: col}}
	}
	if f.HasSpan() {
		return t.rangeOf(f.Start, f.End)
	}
	start := t.runeOffset(f.Line, f.Column)
	return t.rangeOf(start, t.lineEnd(t.lineAt(start)))
}
