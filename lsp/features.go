package lsp

import (
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/locate"
)

// resultFor is the current review of the agent a document belongs to
// (reviewing it now when a buffer changed since the last one), or nil.
func (s *Server) resultFor(u protocol.DocumentURI) (string, *result) {
	path, ok := pathOf(u)
	if !ok {
		return "", nil
	}
	flows := s.flowsOf(path)
	s.mu.Lock()
	if isRegistry(path) || len(flows) == 0 {
		// a registry (or an odd file): any review that read it
		for flow, r := range s.results {
			if _, read := r.srcs[path]; read {
				flows = append(flows, flow)
			}
		}
		sort.Strings(flows)
	}
	s.mu.Unlock()
	if len(flows) == 0 {
		return path, nil
	}
	return path, s.current(flows[0])
}

// codeActions: the fixes of the findings of this document whose ranges
// meet the requested range, as quick fixes, then one "fix all" source
// action. Each fix is one WorkspaceEdit over the texts the review read
// (edits to package.json included; a file move as a RenameFile operation
// for clients that apply them); with documentChanges an open buffer's
// edit names the version the review saw, so a client refuses it once the
// buffer has moved on.
func (s *Server) codeActions(p *protocol.CodeActionParams) (any, *rpcError) {
	path, r := s.resultFor(p.TextDocument.URI)
	actions := []codeAction{}
	if r == nil {
		return actions, nil
	}
	wants := func(kind protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, k := range p.Context.Only {
			if k == kind || strings.HasPrefix(string(kind), string(k)+".") {
				return true
			}
		}
		return false
	}
	if wants(protocol.QuickFix) {
		for _, pd := range r.diags[path] {
			if len(pd.f.Fixes) == 0 || !overlaps(pd.d.Range, p.Range) {
				continue
			}
			for i, fx := range pd.f.Fixes {
				we, ok := s.workspaceEdit(r, fx)
				if !ok {
					continue
				}
				title := clean(fx.Title)
				if fx.Tier != edit.Safe { // the editor's user applies it knowingly (docs/fixes.md)
					title = "(" + string(tierOf(fx)) + ") " + title
				}
				actions = append(actions, codeAction{
					Title:       title,
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{pd.d},
					IsPreferred: i == 0 && fx.Tier == edit.Safe,
					Edit:        we,
				})
			}
		}
	}
	if wants(FixAll) {
		if a, ok := s.fixAll(r, path); ok {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// FixAll is the code action kind of "apply every automatic fix of this
// file" (ruff's source.fixAll.ruff; editors run it on save with
// "editor.codeActionsOnSave": {"source.fixAll.oastui": "explicit"}).
const FixAll protocol.CodeActionKind = "source.fixAll.oastui"

// tierOf is a fix's tier as shown: an undeclared one counts as dangerous.
func tierOf(fx edit.Fix) edit.Tier {
	if !fx.Tier.Valid() {
		return edit.Dangerous
	}
	return fx.Tier
}

// fixAll is one action applying the first safe fix of every finding of
// the document, as `oastui lint --fix` chooses them (gopls: only the
// indisputably safe fixes are "fix all"; unsafe and dangerous ones stay
// quick fixes the user picks one at a time). A fix touching bytes an
// earlier chosen fix touches waits for the next run (edit.Plan). Fixes
// that move files are left out (a quick fix each, never applied on save).
func (s *Server) fixAll(r *result, path string) (codeAction, bool) {
	var cands []edit.Candidate
	n := 0
	for _, pd := range r.diags[path] {
		i := edit.FirstWithin(pd.f.Fixes, edit.Safe)
		if i < 0 || len(pd.f.Fixes[i].Moves) > 0 {
			continue
		}
		cands = append(cands, edit.Candidate{ID: fmt.Sprintf("%d:%d %s", pd.f.Line, pd.f.Column, pd.f.Code), Fixes: pd.f.Fixes[i : i+1]})
		n++
	}
	if n == 0 {
		return codeAction{}, false
	}
	b := edit.Plan(cands)
	we, ok := s.workspaceEdit(r, edit.Fix{Edits: b.Edits()})
	if !ok {
		return codeAction{}, false
	}
	return codeAction{Title: fmt.Sprintf("oastui: apply %d safe automatic fix(es)", len(b.Chosen)), Kind: FixAll, Edit: we}, true
}

// overlaps: two ranges share a position (an empty range at the cursor
// counts when it touches the other).
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(x, y protocol.Position) bool {
	return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
}

// workspaceEdit is protocol.WorkspaceEdit whose documentChanges may hold
// resource operations besides text document edits, as the protocol has it
// (go.lsp.dev/protocol v0.12.0 types them as []TextDocumentEdit only).
type workspaceEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []any                                        `json:"documentChanges,omitempty"` // protocol.TextDocumentEdit, protocol.RenameFile
}

// codeAction is protocol.CodeAction with a workspaceEdit.
type codeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool                    `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit          `json:"edit,omitempty"`
}

// workspaceEdit converts a fix: its text edits, then its file moves as
// RenameFile operations (edit.Fix applies moves after edits). False for a
// fix the client cannot apply (moves, unless it advertised the "rename"
// resource operation, as gopls requires) or whose files the review did
// not read, and for one naming a file outside the workspace
// (outsideWorkspace).
func (s *Server) workspaceEdit(r *result, fx edit.Fix) (*workspaceEdit, bool) {
	if fx.Empty() || s.outsideWorkspace(fx) != nil {
		return nil, false
	}
	s.mu.Lock()
	docChanges, renames := s.docChanges, s.renames
	s.mu.Unlock()
	if len(fx.Moves) > 0 {
		if !renames {
			return nil, false
		}
		docChanges = true // a move is a resource operation: documentChanges only
	}
	we := &workspaceEdit{}
	for _, file := range fx.Files() {
		path := absPath(file)
		t := r.text(path)
		if t == nil {
			return nil, false
		}
		var edits []protocol.TextEdit
		for _, e := range edit.EditsOf(fx.Edits, file) {
			if e.Start < 0 || e.End < e.Start || e.End > len(t.src) {
				return nil, false
			}
			edits = append(edits, protocol.TextEdit{Range: t.rangeOf(e.Start, e.End), NewText: e.New})
		}
		u := s.uriFor(path)
		if docChanges {
			tde := protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}, Edits: edits}
			if v, open := r.versions[path]; open {
				tde.TextDocument.Version = &v
			}
			we.DocumentChanges = append(we.DocumentChanges, tde)
		} else {
			if we.Changes == nil {
				we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
			}
			we.Changes[u] = edits
		}
	}
	for _, m := range fx.Moves {
		// no overwrite, no ignoreIfExists: the client refuses the move when
		// the target exists, as edit.MoveFile does
		we.DocumentChanges = append(we.DocumentChanges, protocol.RenameFile{Kind: protocol.RenameResourceOperation,
			OldURI: s.uriFor(absPath(m.From)), NewURI: uriOf(m.To)})
	}
	return we, true
}

// symbolAt is the locate symbol under a position of a document.
func (s *Server) symbolAt(pos protocol.TextDocumentPositionParams) (*result, locate.Symbol, bool) {
	path, r := s.resultFor(pos.TextDocument.URI)
	if r == nil || r.snap.Agent == nil {
		return nil, locate.Symbol{}, false
	}
	t := r.text(path)
	if t == nil {
		return nil, locate.Symbol{}, false
	}
	sym, ok := r.locate().At(docPath(r, path), t.offset(pos.Position))
	return r, sym, ok
}

// docPath is the path under which the agent knows the file at path.
func docPath(r *result, path string) string {
	for _, d := range r.snap.Agent.Docs() {
		if absPath(d.Path) == path {
			return d.Path
		}
	}
	return path
}

func (s *Server) location(r *result, sp locate.Span) (protocol.Location, bool) {
	path := absPath(sp.File)
	t := r.text(path)
	if t == nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: s.uriFor(path), Range: t.rangeOf(sp.Start, sp.End)}, true
}

// definition: a $component_ref value (an edge's node id included) → the
// key of its component (own scope, outer scope, or the registry file).
func (s *Server) definition(p *protocol.DefinitionParams) (any, *rpcError) {
	r, sym, ok := s.symbolAt(p.TextDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	sp, ok := r.locate().Definition(sym)
	if !ok {
		return nil, nil
	}
	loc, ok := s.location(r, sp)
	if !ok {
		return nil, nil
	}
	return []protocol.Location{loc}, nil
}

// references: the $component_refs naming a component (from its key, from
// any ref to it, or from inside a node's component).
func (s *Server) references(p *protocol.ReferenceParams) (any, *rpcError) {
	r, sym, ok := s.symbolAt(p.TextDocumentPositionParams)
	out := []protocol.Location{}
	if !ok {
		return out, nil
	}
	for _, sp := range r.locate().References(sym, p.Context.IncludeDeclaration) {
		if loc, ok := s.location(r, sp); ok {
			out = append(out, loc)
		}
	}
	return out, nil
}

// hover: a node's kind, step in the compiled order, approval gate,
// inputs/outputs and data edges.
func (s *Server) hover(p *protocol.HoverParams) (any, *rpcError) {
	r, sym, ok := s.symbolAt(p.TextDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	s.mu.Lock()
	md := s.hoverMD
	s.mu.Unlock()
	var text func(md bool) string
	if f, ok := r.locate().Hover(sym); ok {
		text = func(md bool) string { return hoverText(f, md) }
	} else if c, ok := r.locate().ComponentFacts(sym); ok {
		text = func(md bool) string { return componentText(c, md) }
	} else {
		return nil, nil
	}
	h := protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.PlainText, Value: text(false)}}
	if md {
		h.Contents = protocol.MarkupContent{Kind: protocol.Markdown, Value: text(true)}
	}
	if loc, ok := s.location(r, sym.Span); ok {
		h.Range = &loc.Range
	}
	return h, nil
}

// hoverText lays the facts out (markdown or plain text). Every string in
// Facts is already sanitised with credentials masked; markdown gets its
// special characters escaped.
func hoverText(f locate.Facts, md bool) string {
	esc := func(s string) string { return s }
	code := func(s string) string { return s }
	bold := func(s string) string { return s }
	if md {
		esc = mdEscape
		code = func(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }
		bold = func(s string) string { return "**" + s + "**" }
	}
	var b strings.Builder
	title := bold("node "+code(f.ID)) + " — " + esc(f.Name)
	b.WriteString(title + "\n\n")
	item := func(k, v string) { fmt.Fprintf(&b, "- %s: %s\n", k, v) }
	item("kind", esc(string(f.Kind))+" ("+code(f.ComponentType)+")")
	item("flow", code(f.Flow))
	switch {
	case len(f.Steps) == 1:
		item("step", fmt.Sprintf("%d in the compiled order", f.Steps[0]))
	case len(f.Steps) > 1:
		s := make([]string, len(f.Steps))
		for i, x := range f.Steps {
			s[i] = fmt.Sprint(x)
		}
		item("steps", strings.Join(s, ", ")+" in the compiled order")
	default:
		item("step", "none (not an approval step)")
	}
	item("BFS position", fmt.Sprint(f.BFS+1))
	gate := "no"
	if f.Approval {
		gate = "yes, requires approval"
	}
	if f.Risk != "" {
		gate += " (riskClass " + code(f.Risk) + ")"
	}
	item("approval gate", gate)
	if f.Subflow != "" {
		item("subflow", code(f.Subflow))
	}
	list := func(title string, xs []string) {
		if len(xs) == 0 {
			item(title, "none")
			return
		}
		fmt.Fprintf(&b, "- %s:\n", title)
		for _, x := range xs {
			fmt.Fprintf(&b, "  - %s\n", esc(x))
		}
	}
	list("inputs", f.Inputs)
	list("outputs", f.Outputs)
	list("data in", f.DataIn)
	list("data out", f.DataOut)
	return strings.TrimRight(b.String(), "\n")
}

// componentText lays out a component that is not a node.
func componentText(c locate.Component, md bool) string {
	code, esc := func(s string) string { return s }, func(s string) string { return s }
	title := "component " + c.ID
	if md {
		code = func(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }
		esc = mdEscape
		title = "**component " + code(c.ID) + "**"
	}
	if c.Name != "" {
		title += " — " + esc(c.Name)
	}
	return fmt.Sprintf("%s\n\n- type: %s\n- defined in: %s\n- references: %d", title, code(c.ComponentType), esc(c.Scope), c.Refs)
}

func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()#+-.!|<>~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// documentSymbols: the flows and their nodes as an outline.
func (s *Server) documentSymbols(p *protocol.DocumentSymbolParams) (any, *rpcError) {
	path, r := s.resultFor(p.TextDocument.URI)
	out := []protocol.DocumentSymbol{}
	if r == nil || r.snap.Agent == nil || r.snap.Agent.Flow == nil || absPath(r.snap.Agent.Flow.Path) != path {
		return out, nil
	}
	var conv func(items []locate.Item) []protocol.DocumentSymbol
	conv = func(items []locate.Item) []protocol.DocumentSymbol {
		var syms []protocol.DocumentSymbol
		for _, it := range items {
			full, ok1 := s.location(r, it.Span)
			sel, ok2 := s.location(r, it.Select)
			if !ok1 || !ok2 {
				continue
			}
			kind := protocol.SymbolKindObject
			if it.Kind == locate.OutlineFlow {
				kind = protocol.SymbolKindModule
			}
			name := it.Name
			if name == "" {
				name = "(unnamed)"
			}
			syms = append(syms, protocol.DocumentSymbol{Name: name, Detail: it.Detail, Kind: kind,
				Range: full.Range, SelectionRange: sel.Range, Children: conv(it.Children)})
		}
		return syms
	}
	if syms := conv(r.locate().Outline()); syms != nil {
		out = syms
	}
	return out, nil
}
