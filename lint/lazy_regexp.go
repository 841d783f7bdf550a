package lint

import (
	"regexp"
	"sync"
)

// lazyRegexp is a package-level regular expression compiled on its first
// use, not when the package initialises: every oastui process (a
// one-agent lint, the servers, `oastui version`) pays lint's
// initialisation, and most runs use few of these expressions (the
// config's, the parity rules', the CRM check's are asked only of the
// documents that have those fields). Safe for concurrent use.
type lazyRegexp struct {
	get func() *regexp.Regexp
}

func newLazyRegexp(expr string) *lazyRegexp {
	return &lazyRegexp{get: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (r *lazyRegexp) MatchString(s string) bool { return r.get().MatchString(s) }

func (r *lazyRegexp) FindStringSubmatch(s string) []string { return r.get().FindStringSubmatch(s) }

func (r *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.get().ReplaceAllStringFunc(src, repl)
}
