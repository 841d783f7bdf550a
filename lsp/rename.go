package lsp

import (
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/locate"
)

// Rename and completion: the face maps positions; what is renamed and
// what is proposed is locate's (Rename, PrepareRename, Complete).

// offsetAt is the review of a document and the byte offset of a position
// in the text it reviewed, with the path under which the agent knows it.
func (s *Server) offsetAt(pos protocol.TextDocumentPositionParams) (*result, *text, string, int, bool) {
	path, r := s.resultFor(pos.TextDocument.URI)
	if r == nil || r.snap.Agent == nil {
		return nil, nil, "", 0, false
	}
	t := r.text(path)
	if t == nil {
		return nil, nil, "", 0, false
	}
	return r, t, docPath(r, path), t.offset(pos.Position), true
}

// prepareRenameResult is the protocol's {range, placeholder} answer.
type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}

// renameError is the ResponseError of a refused rename: RequestFailed
// (the request was valid; the message says why it cannot be done), as
// gopls answers a rename it refuses.
func renameError(err error) *rpcError {
	return &rpcError{Code: codeRequestFailed, Message: clean(err.Error())}
}

// prepareRename: the name under the cursor (without its quotes) when it
// names a component of the document; null where there is nothing to
// rename; an error, shown by the client, for a name that cannot be
// renamed (a registry component, an unresolved reference).
func (s *Server) prepareRename(p *protocol.PrepareRenameParams) (any, *rpcError) {
	r, t, file, off, ok := s.offsetAt(p.TextDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	rn, err := r.locate().PrepareRename(file, off)
	switch {
	case errors.Is(err, locate.ErrNothingToRename):
		return nil, nil
	case err != nil:
		return nil, renameError(err)
	}
	return prepareRenameResult{Range: t.rangeOf(rn.Span.Start, rn.Span.End), Placeholder: clean(rn.ID)}, nil
}

// rename: one WorkspaceEdit renaming the component's key, every
// reference resolving to it and its id when equal to the key; a
// ResponseError (RequestFailed) for an invalid or colliding name, as the
// protocol asks.
func (s *Server) rename(p *protocol.RenameParams) (any, *rpcError) {
	r, _, file, off, ok := s.offsetAt(p.TextDocumentPositionParams)
	if !ok {
		return nil, renameError(locate.ErrNothingToRename)
	}
	fx, err := r.locate().Rename(file, off, p.NewName)
	if err != nil {
		return nil, renameError(err)
	}
	if fx.Empty() { // the same name
		return workspaceEdit{}, nil
	}
	if err := s.outsideWorkspace(fx); err != nil {
		var oe *outsideError
		if errors.As(err, &oe) {
			return nil, &rpcError{Code: codeRequestFailed, Message: "cannot rename: it edits " + oe.message()}
		}
		return nil, renameError(err)
	}
	we, ok := s.workspaceEdit(r, fx)
	if !ok {
		return nil, renameError(fmt.Errorf("cannot rename %s: its file changed", r.flow))
	}
	return we, nil
}

// completion: inside a string value of the flow file, the proposals of
// locate.Complete, each replacing the whole string content.
func (s *Server) completion(p *protocol.CompletionParams) (any, *rpcError) {
	list := protocol.CompletionList{Items: []protocol.CompletionItem{}}
	r, t, file, off, ok := s.offsetAt(p.TextDocumentPositionParams)
	if !ok {
		return list, nil
	}
	c, ok := r.locate().Complete(file, off)
	if !ok {
		return list, nil
	}
	rng := t.rangeOf(c.Span.Start, c.Span.End)
	for i, it := range c.Items {
		ci := protocol.CompletionItem{
			Label:      it.Text, // Complete keeps only texts that sanitising leaves as they are
			FilterText: it.Text,
			SortText:   fmt.Sprintf("%04d", i),
			TextEdit:   &protocol.TextEdit{Range: rng, NewText: jsonContent(it.Text)},
		}
		switch c.Context {
		case locate.CompleteRef:
			ci.Kind = componentKind(it)
			ci.Detail = it.ComponentType
			if it.Name != "" && it.Name != it.Text {
				ci.Detail += " · " + it.Name
			}
			ci.Detail += " — " + it.Scope
		case locate.CompletePort:
			ci.Kind = protocol.CompletionItemKindField
			ci.Detail = it.ComponentType
		case locate.CompleteType:
			ci.Kind = protocol.CompletionItemKindClass
			ci.Detail = "component type"
		}
		list.Items = append(list.Items, ci)
	}
	return list, nil
}

// componentKind is the icon of a component proposal.
func componentKind(c locate.Candidate) protocol.CompletionItemKind {
	ct := c.ComponentType
	switch {
	case ct == "Flow":
		return protocol.CompletionItemKindModule
	case c.Node:
		return protocol.CompletionItemKindFunction
	case strings.Contains(ct, "Tool"):
		return protocol.CompletionItemKindMethod
	case strings.Contains(ct, "Agent"):
		return protocol.CompletionItemKindInterface
	case strings.HasSuffix(ct, "Config") || strings.HasSuffix(ct, "Transport"):
		return protocol.CompletionItemKindProperty
	}
	return protocol.CompletionItemKindReference
}

// jsonContent is s as the content of a JSON string (escaped, no quotes).
func jsonContent(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
