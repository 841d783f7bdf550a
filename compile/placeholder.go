package compile

import "strings"

// Template placeholders. The platform reads the pattern \{\{\s*(\w+)\s*\}\}
// in two places: pyagentspec's templating, over a template's text with
// Python's \s, and the Cinatra runtime invariant OAS-RUNTIME-001, over
// JSON.stringify of an ApiNode with JavaScript's \s, where the space is
// the only ASCII whitespace left unescaped (reference cinatra.md, the
// OAS-RUNTIME-001 row). One matcher serves both; space says which bytes \s
// matches. \w is ASCII word characters: names in the corpus are ASCII, and
// a non-ASCII name is not taken for a placeholder.

// TemplateSpace is Python's \s on ASCII: space, tab, newline, carriage
// return, form feed, vertical tab.
func TemplateSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// StringifiedSpace is the whitespace JSON.stringify leaves as it is.
func StringifiedSpace(c byte) bool { return c == ' ' }

// IsWordByte is \w on ASCII.
func IsWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// MatchPlaceholder matches a placeholder at s[start:] and returns its name
// and the offset just past its closing braces.
func MatchPlaceholder(s string, start int, space func(byte) bool) (name string, end int, ok bool) {
	if start < 0 || start+1 >= len(s) || s[start] != '{' || s[start+1] != '{' {
		return "", 0, false
	}
	j := start + 2
	for j < len(s) && space(s[j]) {
		j++
	}
	ns := j
	for j < len(s) && IsWordByte(s[j]) {
		j++
	}
	if j == ns {
		return "", 0, false
	}
	name = s[ns:j]
	for j < len(s) && space(s[j]) {
		j++
	}
	if j+1 < len(s) && s[j] == '}' && s[j+1] == '}' {
		return name, j + 2, true
	}
	return "", 0, false
}

// EachPlaceholder calls fn with every placeholder of s, left to right and
// not overlapping, as a regexp's FindAll would find them.
func EachPlaceholder(s string, space func(byte) bool, fn func(name string, start, end int)) {
	for i := 0; i+1 < len(s); {
		k := strings.Index(s[i:], "{{")
		if k < 0 {
			return
		}
		start := i + k
		if name, end, ok := MatchPlaceholder(s, start, space); ok {
			fn(name, start, end)
			i = end
		} else {
			i = start + 1
		}
	}
}
