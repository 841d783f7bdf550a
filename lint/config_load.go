package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/oastui/oastui/compile"
)

// ConfigFileNames are the names FindConfig looks for, in order.
var ConfigFileNames = []string{".oastui.yaml", ".oastui.yml"}

var (
	RuleUnusedIgnore = &Rule{Code: "unused_ignore", Severity: compile.Warning, Group: groupReview,
		Doc: "an ignore in .oastui.yaml matched no finding of the file it names; remove it or fix its rule, file or pointer"}
)

// FindConfig looks for .oastui.yaml in startDir (or the directory of
// startDir when it is a file) and each parent directory in turn, and
// returns the first one found.
func FindConfig(startDir string) (string, bool) {
	dir, err := filepath.Abs(startDir)
	if err != nil {
		return "", false
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		for _, name := range ConfigFileNames {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// ConfigError is a problem with a config file, positioned at the entry at
// fault. The CLI treats it as a usage error (exit 2).
type ConfigError struct {
	Path   string
	Line   int
	Column int // set for YAML syntax errors: path:line:col: message
	Msg    string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 && e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// LoadConfig reads and checks a config file: unknown keys, unknown rule
// codes, bad severities, malformed hosts or pointers and ignores without a
// reason are errors (*ConfigError), never silently dropped.
func LoadConfig(path string) (*Config, error) {
	src, err := compile.ReadFileLimited(path, compile.MaxFileBytes)
	if err != nil {
		return nil, &ConfigError{Path: path, Msg: "cannot read config: " + errors.Unwrap(err).Error()}
	}
	return ParseConfig(path, src)
}

// ParseConfig is LoadConfig over bytes already read.
func ParseConfig(path string, src []byte) (*Config, error) {
	return parseConfig(path, src, PolicyCostLimit)
}

// parseConfig is ParseConfig with the policies' cost budget (PolicyCostLimit;
// a test under -race lowers it to stop a runaway policy sooner, by the same path).
func parseConfig(path string, src []byte, costLimit uint64) (*Config, error) {
	c := &Config{Path: path, dir: filepath.Dir(absPath(path))}
	fail := func(n *yaml.Node, format string, args ...any) error {
		line := 0
		if n != nil {
			line = n.Line
		}
		return &ConfigError{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, yamlSyntaxError(path, src, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return c, nil // empty file: defaults
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return c, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, fail(root, "the config must be a mapping with allowed_hosts, rules and ignores")
	}
	// The policies first: rules: and ignores: may name their ids.
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "policies" {
			if err := c.parsePolicies(root.Content[i+1], src, costLimit, fail); err != nil {
				return nil, err
			}
			break
		}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, fail(k, "%q is given twice", k.Value)
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "allowed_hosts":
			err = c.parseHosts(v, fail)
		case "rules":
			err = c.parseRules(v, fail)
		case "ignores":
			err = c.parseIgnores(v, fail)
		case "default_license":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || strings.TrimSpace(v.Value) == "" {
				err = fail(v, "default_license must be a non-empty string (an SPDX expression, for example Apache-2.0)")
			}
			c.DefaultLicense = strings.TrimSpace(v.Value)
		case "budget":
			err = c.parseBudget(v, fail)
		case "diff":
			err = c.parseDiff(v, fail)
		case "policies": // read above
		default:
			err = fail(k, "unknown key %q (known: allowed_hosts, rules, ignores, default_license, budget, diff, policies)", k.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// yamlLineRe is the position yaml.v3 puts in its syntax errors.
var yamlLineRe = newLazyRegexp(`^(?:yaml: )?line (\d+): `)

// yamlParserProblems are the problems of yaml.v3's parser (parserc.go).
// For these it prints the 0-based line of the construct being parsed (and
// no line at all for the first one); for its scanner's problems, the
// 1-based line.
var yamlParserProblems = []string{
	"did not find expected", "found duplicate %", "found incompatible YAML document", "found undefined tag handle",
}

// yamlSyntaxError positions a YAML syntax error as path:line:col. yaml.v3
// gives a line only; the column is that of the line's first character
// other than a space (1 for a blank line).
func yamlSyntaxError(path string, src []byte, err error) *ConfigError {
	text := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		text = strings.TrimPrefix(err.Error(), m[0])
	}
	if strings.Contains(text, "cannot unmarshal") {
		return &ConfigError{Path: path, Line: line, Msg: "invalid YAML: " + text}
	}
	for _, p := range yamlParserProblems {
		if strings.HasPrefix(text, p) {
			line++ // 0-based
			break
		}
	}
	lines := strings.Split(string(src), "\n")
	line = max(1, min(line, len(lines)))
	for line > 1 && strings.TrimSpace(strings.Join(lines[line-1:], "")) == "" {
		line-- // the end of the stream: the last line
	}
	col := 1
	l := strings.TrimRight(lines[line-1], "\r")
	if i := strings.IndexFunc(l, func(r rune) bool { return r != ' ' }); i >= 0 {
		col = utf8.RuneCountInString(l[:i]) + 1 // a tab in the indentation is itself the problem
	}
	return &ConfigError{Path: path, Line: line, Column: col, Msg: "invalid YAML: " + text}
}

var valueHashRe = newLazyRegexp(`^[0-9a-f]{32}$`)

type failFunc func(n *yaml.Node, format string, args ...any) error

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func (c *Config) parseHosts(v *yaml.Node, fail failFunc) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return fail(v, "allowed_hosts must be a list of host names (\"api.example.com\" or \"*.example.com\")")
	}
	for _, h := range v.Content {
		if h.Kind != yaml.ScalarNode || h.Tag != "!!str" {
			return fail(h, "allowed_hosts entries must be strings")
		}
		s := strings.ToLower(strings.TrimSpace(h.Value))
		switch {
		case s == "":
			return fail(h, "allowed_hosts has an empty entry")
		case strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@ "):
			return fail(h, "allowed_hosts entry %q must be a bare host (like api.example.com or *.example.com), not a URL", h.Value)
		case strings.Contains(s[min(2, len(s)):], "*") || (strings.HasPrefix(s, "*") && !strings.HasPrefix(s, "*.")) || s == "*.":
			return fail(h, "allowed_hosts entry %q: a wildcard is allowed only as a leading \"*.\" followed by a domain", h.Value)
		}
		c.AllowedHosts = append(c.AllowedHosts, s)
	}
	return nil
}

func (c *Config) parseRules(v *yaml.Node, fail failFunc) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return fail(v, "rules must be a mapping of rule code to blocker, warning, suggestion or off")
	}
	c.Rules = map[string]string{}
	c.RuleReasons = map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, s := v.Content[i], v.Content[i+1]
		if err := c.checkRuleCode(k, fail); err != nil {
			return err
		}
		if _, dup := c.Rules[k.Value]; dup {
			return fail(k, "rule %q is configured twice", k.Value)
		}
		sevNode, reason := s, ""
		if s.Kind == yaml.MappingNode { // {severity: off, reason: "…"}
			sevNode = nil
			for j := 0; j+1 < len(s.Content); j += 2 {
				mk, mv := s.Content[j], s.Content[j+1]
				if mv.Kind != yaml.ScalarNode {
					return fail(mv, "rule %q: %s must be a string", k.Value, mk.Value)
				}
				switch mk.Value {
				case "severity":
					sevNode = mv
				case "reason":
					reason = strings.TrimSpace(mv.Value)
				default:
					return fail(mk, "rule %q: unknown key %q (known: severity, reason)", k.Value, mk.Value)
				}
			}
			if sevNode == nil {
				return fail(s, "rule %q: \"severity\" is required (blocker, warning, suggestion or off)", k.Value)
			}
		}
		val := sevNode.Value
		if sevNode.Kind == yaml.ScalarNode && sevNode.Tag == "!!bool" && (sevNode.Value == "off" || sevNode.Value == "false") {
			val = "off" // YAML 1.1 readers may take off for false
		}
		switch val {
		case "blocker", "warning", "suggestion", "off":
		default:
			return fail(sevNode, "rule %q: severity must be blocker, warning, suggestion or off, got %q", k.Value, sevNode.Value)
		}
		if r := LookupRule(k.Value); r != nil && val == "off" && r.Security() && reason == "" {
			return fail(k, "rule %q is a security rule: turning it off needs a reason, as in\n  rules:\n    %s: {severity: off, reason: \"why this is safe\"}", k.Value, k.Value)
		}
		c.Rules[k.Value] = val
		if reason != "" {
			c.RuleReasons[k.Value] = reason
		}
	}
	return nil
}

func (c *Config) checkRuleCode(k *yaml.Node, fail failFunc) error {
	if k.Kind != yaml.ScalarNode || k.Value == "" {
		return fail(k, "a rule code must be a non-empty string")
	}
	if LookupRule(k.Value) != nil || c.Policy(k.Value) != nil {
		return nil
	}
	return fail(k, "unknown rule %q%s", k.Value, suggestRule(k.Value))
}

// suggestRule proposes the registered code closest to a misspelt one.
func suggestRule(code string) string {
	best, bestD := "", 4
	for _, r := range Rules() {
		if d := editDistance(code, r.Code); d < bestD {
			best, bestD = r.Code, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (c *Config) parseIgnores(v *yaml.Node, fail failFunc) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return fail(v, "ignores must be a list of {rule, file, pointer, reason}")
	}
	for i, e := range v.Content {
		where := fmt.Sprintf("ignores[%d]", i)
		if e.Kind != yaml.MappingNode {
			return fail(e, "%s must be a mapping with rule, file, pointer and reason", where)
		}
		ig := Ignore{Line: e.Line, Column: e.Column}
		fields, err := scalarFields(e, where, fail, "rule", "file", "pointer", "value_hash", "reason")
		if err != nil {
			return err
		}
		get := func(k string) string {
			if n := fields[k]; n != nil {
				return n.Value
			}
			return ""
		}
		ig.Rule, ig.File, ig.Pointer, ig.Reason = get("rule"), get("file"), get("pointer"), strings.TrimSpace(get("reason"))
		ig.ValueHash = strings.ToLower(strings.TrimSpace(get("value_hash")))
		if ig.Rule == "" {
			return fail(e, "%s: \"rule\" is required (the finding code to ignore)", where)
		}
		if err := c.checkRuleCode(fields["rule"], fail); err != nil {
			return err
		}
		if ig.File == "" {
			return fail(e, "%s (rule %s): \"file\" is required (the file, relative to %s)", where, ig.Rule, filepath.Base(c.Path))
		}
		if ig.Pointer != "" && !strings.HasPrefix(ig.Pointer, "/") {
			return fail(fields["pointer"], "%s (rule %s): pointer %q must be a JSON Pointer starting with \"/\" (or be left out for the whole file)", where, ig.Rule, ig.Pointer)
		}
		if ig.Reason == "" {
			return fail(e, "%s (rule %s at %s%s): \"reason\" is required: say why this finding is accepted", where, ig.Rule, ig.File, ignorePointerText(ig.Pointer))
		}
		if ig.ValueHash != "" && !valueHashRe.MatchString(ig.ValueHash) {
			return fail(fields["value_hash"], "%s (rule %s): value_hash %q must be the 32 hex digits of the finding's valueHash (oastui lint --format json)", where, ig.Rule, ig.ValueHash)
		}
		if r := LookupRule(ig.Rule); r != nil && r.Secret && ig.ValueHash == "" {
			return fail(e, "%s (rule %s at %s%s): an ignore of a secret rule must name the secret it accepts with value_hash (the finding's \"valueHash\" in `oastui lint --format json`), so that a different secret at the same place is reported again", where, ig.Rule, ig.File, ignorePointerText(ig.Pointer))
		}
		p := filepath.FromSlash(ig.File)
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.dir, p)
		}
		if matches, err := doublestar.FilepathGlob(p); err != nil || len(matches) == 0 {
			ig.missing = true
		}
		c.Ignores = append(c.Ignores, ig)
	}
	return nil
}

// parseDiff reads the diff: section: check id → breaking|warn|info|off,
// or {level: …, reason: "…"} (the diff package requires the reason for
// lowering an approval-safety check: diff.ValidateReasons).
func (c *Config) parseDiff(v *yaml.Node, fail func(*yaml.Node, string, ...any) error) error {
	if v.Kind != yaml.MappingNode {
		return fail(v, "diff must be a mapping of check id to breaking, warn, info or off")
	}
	c.Diff = map[string]string{}
	c.DiffReasons = map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		levelNode, reason := val, ""
		if val.Kind == yaml.MappingNode { // {level: off, reason: "…"}
			levelNode = nil
			for j := 0; j+1 < len(val.Content); j += 2 {
				mk, mv := val.Content[j], val.Content[j+1]
				switch mk.Value {
				case "level":
					levelNode = mv
				case "reason":
					reason = strings.TrimSpace(mv.Value)
				default:
					return fail(mk, "diff: %s: unknown key %q (known: level, reason)", k.Value, mk.Value)
				}
			}
			if levelNode == nil {
				return fail(val, "diff: %s: level is required", k.Value)
			}
		}
		switch levelNode.Value {
		case "breaking", "warn", "info", "off":
		default:
			return fail(levelNode, "diff: %s: level %q is not breaking, warn, info or off", k.Value, levelNode.Value)
		}
		if !strings.HasPrefix(k.Value, "diff_") {
			return fail(k, "diff: %q is not a check id of oastui diff (they start with diff_; oastui diff --checks lists them)", k.Value)
		}
		c.Diff[k.Value] = levelNode.Value
		if reason != "" {
			c.DiffReasons[k.Value] = reason
		}
	}
	return nil
}

// policyIDRe is what a policy id may be: a finding code of its own.
var policyIDRe = newLazyRegexp(`^[a-z][a-z0-9_-]{0,63}$`)

// parsePolicies reads policies: and compiles every expression once, under
// the cost budget costLimit (PolicyCostLimit outside tests) (a
// PolicyError, exit 2, for one that does not parse or type-check).
func (c *Config) parsePolicies(v *yaml.Node, src []byte, costLimit uint64, fail failFunc) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return fail(v, "policies must be a list of {id, severity, message, match, assert, doc} (docs/policies.md)")
	}
	if len(v.Content) == 0 {
		return nil // policies: [] costs nothing: no CEL environment
	}
	env, err := policyEnv()
	if err != nil {
		return fail(v, "internal: the policies' CEL environment: %v", err)
	}
	seen := map[string]bool{}
	for i, e := range v.Content {
		where := fmt.Sprintf("policies[%d]", i)
		if e.Kind != yaml.MappingNode {
			return fail(e, "%s must be a mapping with id, severity, message, assert (and match, doc)", where)
		}
		fields, err := scalarFields(e, where, fail, "id", "severity", "message", "match", "assert", "doc")
		if err != nil {
			return err
		}
		get := func(k string) string {
			if n := fields[k]; n != nil {
				return strings.TrimSpace(n.Value)
			}
			return ""
		}
		p := &Policy{ID: get("id"), Message: get("message"), Match: get("match"), Assert: get("assert"), Doc: get("doc"), Line: e.Line, Column: e.Column}
		switch {
		case p.ID == "":
			return fail(e, "%s: \"id\" is required (the policy's finding code)", where)
		case !policyIDRe.MatchString(p.ID):
			return fail(fields["id"], "%s: id %q must be lower case letters, digits, _ and - (it is the findings' code)", where, p.ID)
		case LookupRule(p.ID) != nil:
			return fail(fields["id"], "%s: id %q is a built-in rule's code; give the policy its own", where, p.ID)
		case seen[p.ID]:
			return fail(fields["id"], "%s: policy %q is defined twice", where, p.ID)
		case p.Message == "":
			return fail(e, "%s (policy %s): \"message\" is required (what the finding says)", where, p.ID)
		case p.Assert == "":
			return fail(e, "%s (policy %s): \"assert\" is required (a CEL expression that must be true)", where, p.ID)
		}
		seen[p.ID] = true
		switch sev := get("severity"); sev {
		case "blocker", "warning", "suggestion":
			p.Severity = compile.Severity(sev)
		case "":
			p.Severity = compile.Warning
		default:
			return fail(fields["severity"], "%s (policy %s): severity must be blocker, warning or suggestion, got %q", where, p.ID, sev)
		}
		p.costLimit = costLimit
		if n := fields["match"]; n != nil {
			if p.match, err = compileExpr(env, costLimit, c.Path, p.ID, "match", n.Value, exprPosOf(n, src)); err != nil {
				return err
			}
		}
		if p.assert, err = compileExpr(env, costLimit, c.Path, p.ID, "assert", fields["assert"].Value, exprPosOf(fields["assert"], src)); err != nil {
			return err
		}
		c.Policies = append(c.Policies, p)
	}
	return nil
}

// exprPosOf is where the text of a scalar starts in the file: after the
// quote of a quoted one; on the next line, at the block's indentation, for
// a literal or folded block.
func exprPosOf(n *yaml.Node, src []byte) exprPos {
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		lines := strings.Split(string(src), "\n")
		indent := 0
		if n.Line < len(lines) { // n.Line is the indicator's line; the text starts below it
			l := lines[n.Line]
			indent = len(l) - len(strings.TrimLeft(l, " "))
		}
		return exprPos{line: n.Line + 1, col: indent + 1, block: true, indent: indent}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		return exprPos{line: n.Line, col: n.Column + 1}
	}
	return exprPos{line: n.Line, col: n.Column}
}

// scalarFields reads a mapping whose values are all strings, keyed by one
// of known: an unknown key, a key given twice or a value that is not a
// string is an error at its line (an ignore entry and a policy are read
// the same way).
func scalarFields(e *yaml.Node, where string, fail func(*yaml.Node, string, ...any) error, known ...string) (map[string]*yaml.Node, error) {
	fields := map[string]*yaml.Node{}
	for j := 0; j+1 < len(e.Content); j += 2 {
		k, val := e.Content[j], e.Content[j+1]
		if !slices.Contains(known, k.Value) {
			return nil, fail(k, "%s: unknown key %q (known: %s)", where, k.Value, strings.Join(known, ", "))
		}
		if _, dup := fields[k.Value]; dup {
			return nil, fail(k, "%s: %q is given twice", where, k.Value)
		}
		if val.Kind != yaml.ScalarNode || isNull(val) {
			return nil, fail(val, "%s: %s must be a string", where, k.Value)
		}
		fields[k.Value] = val
	}
	return fields, nil
}
