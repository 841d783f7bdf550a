package lsp

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
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
	r.once.Do(func() { r.index = locate.New(r.snap.Agent) })
	return r.index
}

// flowsOf are the flow files a change of path asks to review: the flow
// file itself; for a package.json or cinatra.json, the package's flow
// file; for a registry, every reviewed agent that read it. It takes the
// server's lock only to look at the buffers and the reviews: the disk is
// looked at without it (a FIFO or a device must never stop the server).
func (s *Server) flowsOf(path string) []string {
	base := filepath.Base(path)
	dir := filepath.Dir(path)
	switch {
	case base == "package.json" || base == "cinatra.json":
		for _, rel := range compile.FlowCandidates {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if s.isOpen(p) {
				return []string{p}
			}
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return []string{p}
			}
		}
		return nil
	case isRegistry(path):
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
	s.mu.Unlock()
	if reviewed || s.isFlowFile(path) {
		return []string{path}
	}
	// another file a review read (a README the credential scan reads):
	// the agents that read it
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

func (s *Server) isOpen(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, open := s.docs[path]
	return open
}

// isFlowFile: a package's flow file (cinatra/oas.json, or a legacy
// place), or a .json/.yaml/.yml file that reads as an Agent Spec document
// (it mentions agentspec_version or component_type). Editors hand the
// server every JSON file; a tsconfig.json gets no diagnostics. A file not
// open is read as loading reads (a regular file within the size limit),
// without the server's lock.
func (s *Server) isFlowFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".yaml", ".yml":
	default:
		return false
	}
	slash := filepath.ToSlash(path)
	for _, rel := range compile.FlowCandidates {
		if strings.HasSuffix(slash, "/"+rel) && rel != "agent.json" {
			return true
		}
	}
	s.mu.Lock()
	var src []byte
	d := s.docs[path]
	if d != nil {
		src = d.src
	}
	s.mu.Unlock()
	if d == nil {
		src, _ = compile.ReadFileLimited(path, compile.MaxFileBytes)
	}
	return bytes.Contains(src, []byte("agentspec_version")) || bytes.Contains(src, []byte("component_type"))
}

// legacyPackage is the package directory whose flow file flow is, when
// flow sits at a legacy place (compile.FlowCandidates after the first)
// with none of the places before it taken (on disk or in a buffer), beside
// a package.json; else "".
func legacyPackage(flow string, overlay map[string][]byte) string {
	exists := func(p string) bool {
		if _, open := overlay[p]; open {
			return true
		}
		_, err := os.Lstat(p)
		return err == nil
	}
	dir := filepath.Dir(flow)
	if filepath.Base(dir) == "cinatra" {
		dir = filepath.Dir(dir)
	}
	if !exists(filepath.Join(dir, "package.json")) {
		return ""
	}
	for i, rel := range compile.FlowCandidates {
		if filepath.Join(dir, filepath.FromSlash(rel)) == flow {
			if i == 0 {
				return ""
			}
			return dir
		}
		if exists(filepath.Join(dir, filepath.FromSlash(rel))) {
			return ""
		}
	}
	return ""
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

// schedule queues the review of what a change of path touches and
// (re)starts the debounce timer.
func (s *Server) schedule(path string) {
	flows := s.flowsOf(path)
	s.mu.Lock()
	for _, f := range flows {
		s.pending[f] = true
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
// request's review is guarded by the request's recover).
func (s *Server) safeReview(flow string) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic reviewing %s: %v\n%s", flow, r, debug.Stack())
		}
	}()
	s.review(flow)
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
	return s.review(flow)
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
func (s *Server) review(flow string) *result {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	s.mu.Lock()
	overlay := map[string][]byte{}
	versions := map[string]int32{}
	for p, d := range s.docs {
		overlay[p] = d.src
		versions[p] = d.version
	}
	delete(s.pending, flow) // this review covers a change queued so far
	s.mu.Unlock()

	opts := analysis.Options{Mode: s.opts.Mode, Load: s.opts.Load, ConfigPath: s.opts.ConfigPath, Stages: analysis.ReviewOnly}
	opts.Load.Overlay = overlay
	var snap *analysis.Snapshot
	if dir := legacyPackage(flow, overlay); dir != "" {
		// the package's flow file at a legacy place: the package is
		// reviewed, as `oastui lint DIR` reviews it (with the
		// legacy_agent_filename warning and its move fix)
		if snap = analysis.Run(dir, opts); snap.Agent == nil || absPath(snap.Agent.FlowPath) != flow {
			snap = nil
		}
	}
	if snap == nil {
		snap = analysis.Run(flow, opts)
	}
	if snap.Config.Err != nil {
		s.logf("config %s: %v (the defaults apply)", snap.Config.Path, snap.Config.Err)
	}
	r := &result{flow: flow, snap: snap, versions: map[string]int32{}, srcs: map[string][]byte{}, texts: map[string]*text{}}
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
	r.diags = s.diagnostics(r)

	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return r
	}
	s.results[flow] = r
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
		params := protocol.PublishDiagnosticsParams{URI: s.uriFor(p), Diagnostics: []protocol.Diagnostic{}}
		if v, ok := r.versions[p]; ok && v >= 0 {
			params.Version = uint32(v)
		}
		for _, pd := range r.diags[p] {
			params.Diagnostics = append(params.Diagnostics, pd.d)
		}
		s.notify("textDocument/publishDiagnostics", params)
	}
	return r
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
		s.pending[flow] = true
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
	docs := r.snap.Docs()
	for _, f := range r.snap.Review.Findings {
		path := absPath(f.File)
		var doc *compile.Doc
		for p, d := range docs {
			if absPath(p) == path {
				doc = d
			}
		}
		d := protocol.Diagnostic{
			Range:           s.rangeOf(r, doc, path, f),
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

// rangeOf is the range a finding covers: from its position (the same line
// and column as `oastui lint` prints) over the offending value: the whole
// value its pointer names when it starts there (a string with its quotes,
// a number, a one-line object; a multi-line object or array is narrowed to
// its "name" or "id" value, else its first line), the span the finding
// names (EndLine/EndColumn), a key when the finding is on one (duplicate_key),
// else the token or the rest of the line. A pointer that names a missing
// member (the finding then sits on the nearest ancestor) or the document
// root covers the first line only, not the whole object.
func (s *Server) rangeOf(r *result, doc *compile.Doc, path string, f compile.Finding) protocol.Range {
	t := r.text(path)
	if t == nil {
		// a file the review holds no text of (one too large to scan)
		line, col := uint32(max(f.Line-1, 0)), uint32(max(f.Column-1, 0))
		return protocol.Range{Start: protocol.Position{Line: line, Character: col}, End: protocol.Position{Line: line, Character: col}}
	}
	if doc == nil {
		// a sibling file the credential scan read (README, .env): the span
		// the finding names, else the rest of its line
		start := runeOffset(t.src, f.Line, f.Column)
		end := lineEnd(t.src, start)
		if f.EndLine > 0 {
			end = runeOffset(t.src, f.EndLine, f.EndColumn)
		}
		if end < start {
			end = start
		}
		return t.rangeOf(start, end)
	}
	start := doc.Offset(max(f.Line, 1), max(f.Column, 1))
	end := -1
	if f.EndLine > 0 {
		end = max(doc.Offset(f.EndLine, max(f.EndColumn, 1)), start)
	} else if doc.Root != nil {
		exact := f.Location != "" && doc.Lookup(f.Location) != nil
		n, onKey := doc.NodeAt(start)
		switch {
		case n != nil && onKey:
			if ks, ke, ok := doc.KeySpan(n); ok && ks == start {
				end = ke
			}
		case n != nil && n.Offset == start && (exact || (n.Kind != compile.Object && n.Kind != compile.Array)) && n != doc.Root:
			end = doc.ValueEnd(n)
			if (n.Kind == compile.Object || n.Kind == compile.Array) && bytes.IndexByte(doc.Src[start:end], '\n') >= 0 {
				start, end = narrow(doc, n, f)
			}
		}
	}
	if end < 0 {
		end = tokenEnd(doc.Src, start)
	}
	return t.rangeOf(start, end)
}

// narrow is the range of a finding on a multi-line object or array (a
// whole component: flow_duplicate_node_name), as gopls and eslint narrow
// such ranges to the identifying token: the object's "name" or "id" value,
// the one the message quotes (the key the rule code names when both are
// quoted, or neither; else "name"), and the container's first line when it
// has neither.
func narrow(doc *compile.Doc, n *compile.Node, f compile.Finding) (start, end int) {
	var best *compile.Node
	score := 0
	for _, key := range []string{"name", "id"} {
		v := n.Get(key)
		if v == nil || v.Kind != compile.String || v.Text == "" || v.Offset < 0 {
			continue
		}
		sc := 0
		if strings.Contains(f.Message, v.Text) {
			sc += 2
		}
		if slices.Contains(strings.Split(f.Code, "_"), key) {
			sc++
		}
		if best == nil || sc > score {
			best, score = v, sc
		}
	}
	if best != nil {
		return best.Offset, doc.ValueEnd(best)
	}
	end = lineEnd(doc.Src, n.Offset)
	for end > n.Offset+1 && (doc.Src[end-1] == ' ' || doc.Src[end-1] == '\t') {
		end--
	}
	return n.Offset, end
}

// runeOffset is the byte offset of the col-th character (1-based, in
// runes, as findings count) of 1-based line n of src ("\n" ends a line),
// or of the line's end (before a "\r\n") when the line is shorter.
func runeOffset(src []byte, n, col int) int {
	off := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	end := lineEnd(src, off)
	for c := 1; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(src[off:end])
		off += size
	}
	return off
}

// lineEnd is the end of the line holding off, before its "\n" or "\r\n".
func lineEnd(src []byte, off int) int {
	i := off
	for i < len(src) && src[i] != '\n' {
		i++
	}
	if i > off && src[i-1] == '\r' {
		i--
	}
	return i
}

// tokenEnd is the end of the JSON token at start: a string, a literal,
// one bracket, else the rest of the line (at least one character).
func tokenEnd(src []byte, start int) int {
	if start >= len(src) {
		return start
	}
	switch c := src[start]; {
	case c == '"':
		for i := start + 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			case '\n':
				return i
			}
		}
		return len(src)
	case c == '{' || c == '[' || c == '}' || c == ']':
		return start + 1
	}
	i := start
	for i < len(src) && src[i] != '\n' && src[i] != '\r' && src[i] != ',' && src[i] != '}' && src[i] != ']' {
		i++
	}
	if i == start {
		i = start + 1
	}
	return i
}
