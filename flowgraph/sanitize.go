package flowgraph

import "github.com/oastui/oastui/compile/safetext"

// Sanitize makes a string taken from an agent file safe to draw in a
// terminal: it is safetext.Clean, the project's one sanitiser.
func Sanitize(s string) string { return safetext.Clean(s) }
