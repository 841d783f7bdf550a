package lint

import (
	"slices"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Excerpt is the source around f in doc for every face (the CLI's text
// format, the TUI's Findings tab): doc.Excerpt with the value under a
// credential finding masked as a credential (SPEC §2: never a raw secret,
// even one the masker's patterns would not recognise). Empty when doc is
// nil or f's line is not in it.
func Excerpt(doc *compile.Doc, f Finding) compile.Excerpt {
	if doc == nil {
		return compile.Excerpt{}
	}
	return doc.Excerpt(f, masksValue(f.Code))
}

// masksValue reports whether the value under a finding of code is a
// credential to mask: the security rules about credentials.
func masksValue(code string) bool {
	r := LookupRule(code)
	return r != nil && slices.Contains(r.Tags, "security") && strings.Contains(code, "credential")
}
