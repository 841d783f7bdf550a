package workspace

import (
	"strconv"
	"strings"
)

// The version ranges the platform's package manifests use (reference
// cinatra.md §11.10 and the corpus's package.json files): the
// `cinatra.agentDependencies` map holds npm ranges ("^0.1.1"); the
// `cinatra.dependencies[]` list holds versionConstraint objects of kind
// "semver-range" ({"range": "^0.1.0"} or {"range": "*"}) or "exact"
// ({"version": "0.1.2"}). This is the subset of npm's node-semver grammar
// that covers them and their neighbours: "*", "x", "" (any), exact
// versions with an optional "=" or "v", caret and tilde ranges, partial
// versions ("1.2", "1.x", "1.2.*"), the comparators < <= > >= joined by
// spaces, hyphen ranges "1.2.3 - 2.3.4", and alternatives joined by "||".
// Prereleases follow npm: a prerelease version satisfies a range only when
// a comparator of the same alternative names a prerelease of the same
// major.minor.patch.

// Version is a parsed semantic version.
type Version struct {
	Major, Minor, Patch int
	Pre                 string // prerelease ("" for a release); build metadata is dropped
}

// ParseVersion parses "1.2.3", "v1.2.3", "1.2.3-beta.1+build".
func ParseVersion(s string) (Version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "=")
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	var v Version
	core := s
	if i := strings.IndexByte(s, '-'); i >= 0 {
		core, v.Pre = s[:i], s[i+1:]
		if v.Pre == "" {
			return Version{}, false
		}
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return Version{}, false
	}
	nums := [3]*int{&v.Major, &v.Minor, &v.Patch}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || (len(p) > 1 && p[0] == '0') {
			return Version{}, false
		}
		*nums[i] = n
	}
	return v, true
}

// Compare orders versions: -1, 0 or 1 (semver precedence).
func (v Version) Compare(w Version) int {
	for _, d := range [3]int{v.Major - w.Major, v.Minor - w.Minor, v.Patch - w.Patch} {
		if d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
	}
	return comparePre(v.Pre, w.Pre)
}

func comparePre(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := as[i], bs[i]
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		switch {
		case xerr == nil && yerr == nil:
			if xn != yn {
				if xn < yn {
					return -1
				}
				return 1
			}
		case xerr == nil:
			return -1 // numeric identifiers sort first
		case yerr == nil:
			return 1
		case x != y:
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(as) < len(bs):
		return -1
	case len(as) > len(bs):
		return 1
	}
	return 0
}

// comparator is one "op version" of a range.
type comparator struct {
	op string // "<", "<=", ">", ">=", "="
	v  Version
}

func (c comparator) ok(v Version) bool {
	d := v.Compare(c.v)
	switch c.op {
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	}
	return d == 0
}

// Range is a parsed version range: alternatives of comparator sets.
type Range struct {
	alts [][]comparator // an empty set matches every release
}

// ParseRange parses a range of the subset described above; false for
// anything else (a tag such as "latest", a URL, a file: or workspace: spec).
func ParseRange(s string) (Range, bool) {
	r := Range{}
	for _, alt := range strings.Split(s, "||") {
		set, ok := parseSet(strings.TrimSpace(alt))
		if !ok {
			return Range{}, false
		}
		r.alts = append(r.alts, set)
	}
	return r, true
}

// partial is a version with x/*/missing parts (-1).
type partial struct {
	maj, min, pat int
	pre           string
}

func parsePartial(s string) (partial, bool) {
	s = strings.TrimPrefix(s, "v")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	p := partial{-1, -1, -1, ""}
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s, p.pre = s[:i], s[i+1:]
		if p.pre == "" {
			return p, false
		}
	}
	if s == "" {
		return p, false
	}
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return p, false
	}
	dst := [3]*int{&p.maj, &p.min, &p.pat}
	wild := false
	for i, x := range parts {
		if x == "x" || x == "X" || x == "*" {
			wild = true
			continue
		}
		if wild {
			return p, false // "1.x.3"
		}
		n, err := strconv.Atoi(x)
		if err != nil || n < 0 || x == "" {
			return p, false
		}
		*dst[i] = n
	}
	if p.pre != "" && p.pat < 0 {
		return p, false
	}
	return p, true
}

func (p partial) floor() Version {
	return Version{max(p.maj, 0), max(p.min, 0), max(p.pat, 0), p.pre}
}

func parseSet(s string) ([]comparator, bool) {
	if s == "" || s == "*" || s == "x" || s == "X" {
		return nil, true
	}
	// Hyphen range.
	if a, b, ok := strings.Cut(s, " - "); ok {
		lo, ok1 := parsePartial(strings.TrimSpace(a))
		hi, ok2 := parsePartial(strings.TrimSpace(b))
		if !ok1 || !ok2 {
			return nil, false
		}
		set := []comparator{{">=", lo.floor()}}
		switch {
		case hi.maj < 0:
		case hi.min < 0:
			set = append(set, comparator{"<", Version{hi.maj + 1, 0, 0, "0"}})
		case hi.pat < 0:
			set = append(set, comparator{"<", Version{hi.maj, hi.min + 1, 0, "0"}})
		default:
			set = append(set, comparator{"<=", hi.floor()})
		}
		return set, true
	}
	var set []comparator
	fields := strings.Fields(s)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		op := ""
		for _, o := range []string{">=", "<=", ">", "<", "=", "^", "~"} {
			if strings.HasPrefix(f, o) {
				op = o
				break
			}
		}
		rest := f[len(op):]
		if rest == "" && i+1 < len(fields) { // "^ 1.2.3", ">= 1.2"
			i++
			rest = fields[i]
		}
		cs, ok := expand(op, rest)
		if !ok {
			return nil, false
		}
		set = append(set, cs...)
	}
	return set, true
}

// expand turns one operator and partial version into comparators (npm's
// desugaring of caret, tilde and x-ranges).
func expand(op, s string) ([]comparator, bool) {
	if s == "*" || s == "x" || s == "X" {
		if op == "<" || op == ">" {
			return []comparator{{"<", Version{0, 0, 0, "0"}}}, true // matches nothing
		}
		return nil, true
	}
	p, ok := parsePartial(s)
	if !ok {
		return nil, false
	}
	lo := p.floor()
	switch op {
	case "^":
		var hi Version
		switch {
		case p.maj > 0 || p.min < 0:
			hi = Version{p.maj + 1, 0, 0, "0"}
		case p.min > 0 || p.pat < 0:
			hi = Version{0, p.min + 1, 0, "0"}
		default:
			hi = Version{0, 0, p.pat + 1, "0"}
		}
		return []comparator{{">=", lo}, {"<", hi}}, true
	case "~":
		hi := Version{p.maj, p.min + 1, 0, "0"}
		if p.min < 0 {
			hi = Version{p.maj + 1, 0, 0, "0"}
		}
		return []comparator{{">=", lo}, {"<", hi}}, true
	case "", "=":
		switch {
		case p.min < 0:
			return []comparator{{">=", lo}, {"<", Version{p.maj + 1, 0, 0, "0"}}}, true
		case p.pat < 0:
			return []comparator{{">=", lo}, {"<", Version{p.maj, p.min + 1, 0, "0"}}}, true
		}
		return []comparator{{"=", lo}}, true
	case ">":
		switch {
		case p.min < 0:
			return []comparator{{">=", Version{p.maj + 1, 0, 0, "0"}}}, true
		case p.pat < 0:
			return []comparator{{">=", Version{p.maj, p.min + 1, 0, "0"}}}, true
		}
		return []comparator{{">", lo}}, true
	case "<=":
		switch {
		case p.min < 0:
			return []comparator{{"<", Version{p.maj + 1, 0, 0, "0"}}}, true
		case p.pat < 0:
			return []comparator{{"<", Version{p.maj, p.min + 1, 0, "0"}}}, true
		}
		return []comparator{{"<=", lo}}, true
	case "<":
		if p.pat < 0 || p.min < 0 {
			lo.Pre = "0"
		}
		return []comparator{{"<", lo}}, true
	case ">=":
		return []comparator{{">=", lo}}, true
	}
	return nil, false
}

// Allows says whether v satisfies the range.
func (r Range) Allows(v Version) bool {
	for _, set := range r.alts {
		if setAllows(set, v) {
			return true
		}
	}
	return false
}

func setAllows(set []comparator, v Version) bool {
	for _, c := range set {
		if !c.ok(v) {
			return false
		}
	}
	if v.Pre == "" {
		return true
	}
	// A prerelease only matches a comparator naming a prerelease of the
	// same major.minor.patch (npm); the "-0" floors of our desugaring do not count.
	for _, c := range set {
		if c.v.Pre != "" && c.v.Pre != "0" && c.v.Major == v.Major && c.v.Minor == v.Minor && c.v.Patch == v.Patch {
			return true
		}
	}
	return false
}
