package lint

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/prompts"
)

// Config is the content of .oastui.yaml (SPEC §6); LoadConfig reads it. The
// zero value means "defaults". A Config is never modified by a review, so
// one may serve several reviews at once.
type Config struct {
	Path         string            `yaml:"-"` // where it was read from; "" for defaults
	AllowedHosts []string          `yaml:"allowed_hosts"`
	Rules        map[string]string `yaml:"rules"` // code → blocker|warning|suggestion|off
	RuleReasons  map[string]string `yaml:"-"`     // code → the reason given with its setting (required to turn a security rule off)
	Ignores      []Ignore          `yaml:"ignores"`
	// DefaultLicense is the license the agent_package_missing_license fix
	// writes ("" = UNLICENSED).
	DefaultLicense string `yaml:"default_license"`
	// Budget is the team's token budget of one LLM call (budget: keys):
	// only the limits it sets are checked; without budget: none is.
	Budget prompts.Budget `yaml:"-"`
	// Diff overrides the levels of `oastui diff`'s checks (diff: keys):
	// check id → breaking|warn|info|off; the diff package checks the ids.
	Diff map[string]string `yaml:"-"`
	// Policies are the team's policies (policies:), compiled when the
	// config was read; checked on every agent (docs/policies.md).
	Policies []*Policy `yaml:"-"`
	// DiffReasons: check id → the reason given with its diff: level
	// ({level: off, reason: "…"}); required to lower an approval-safety check.
	DiffReasons map[string]string `yaml:"-"`
	dir         string            // absolute directory of Path; ignore files are relative to it
}

// Ignore silences one rule at one place, with a reason.
type Ignore struct {
	Rule    string `yaml:"rule"`
	File    string `yaml:"file"`    // relative to the config file's directory (a glob is allowed)
	Pointer string `yaml:"pointer"` // JSON Pointer; "" = the whole file; also silences findings below it
	// ValueHash binds the ignore to one value (the finding's valueHash, as
	// `oastui lint --format json` shows it). Required for the secret rules
	// (Rule.Secret): such an ignore silences that secret only, so a
	// different secret at the same place is reported again.
	ValueHash string `yaml:"value_hash"`
	Reason    string `yaml:"reason"` // required
	Line      int    `yaml:"-"`      // position of the entry in the config file
	Column    int    `yaml:"-"`
	missing   bool   // LoadConfig found no file (nor glob match) at File
}

// blockerSources may carry blocker severity (SPEC §2); any other source is
// downgraded to warning.
var blockerSources = map[string]bool{compile.SourceDeterministic: true, "agent-lint-policy": true}

// SuppressedFinding is a finding an ignore silenced: it counts for no exit
// code and no format shows it, except SARIF (as a result with a
// suppression and the reason).
type SuppressedFinding struct {
	Finding
	Reason   string
	InSource bool // silenced by an x-oastui-ignore member of the file (SARIF kind inSource), not by the config (external)
}

// apply turns the raw findings of one agent into what the review shows:
// ignores (the config's, then the inline x-oastui-ignore members of the
// flow file) set aside the findings they match, per-rule overrides change
// severity or drop a rule, a blocker from a source that may not block
// becomes a warning, and each ignore aimed at one of this agent's files
// that matched nothing is reported as unused_ignore.
func (c *Config) apply(a *compile.Agent, ii *inlineIgnores, fs []Finding) ([]Finding, []SuppressedFinding) {
	if c == nil {
		c = &Config{}
	}
	inline := ii.unsettled()
	fs = inline.dropInside(fs)
	used := make([]bool, len(c.Ignores))
	out := make([]Finding, 0, len(fs))
	var suppressed []SuppressedFinding
	for _, f := range fs {
		c.settle(f, inline, used, &out, &suppressed)
	}
	for _, f := range inline.findings() {
		if f, keep := c.override(f); keep {
			out = append(out, f)
		}
	}
	// An ignore is judged in the review of the agent whose file it names;
	// one naming a file that does not exist is reported in every review
	// (the CLI's merge of all findings keeps one copy). An ignore of a rule
	// raised across a tree (the workspace rules) is judged where those
	// findings are raised (ApplyOutside), not here.
	out = append(out, c.unused(used, func(ig Ignore) bool {
		return ig.missing || (!outsideRule(ig.Rule) && c.ignoreTargets(ig, a))
	})...)
	return out, suppressed
}

// settle is what the config does to one finding: the first ignore that
// matches it (the config's, then an inline x-oastui-ignore member) sets it
// aside as suppressed, else the per-rule override changes its severity or
// drops it. used marks the config's ignores that matched.
func (c *Config) settle(f Finding, inline *inlineIgnores, used []bool, out *[]Finding, suppressed *[]SuppressedFinding) {
	if i := c.matchIgnore(f); i >= 0 {
		used[i] = true
		if f, keep := c.override(f); keep {
			*suppressed = append(*suppressed, SuppressedFinding{Finding: f, Reason: c.Ignores[i].Reason})
		}
		return
	}
	if ig := inline.match(f); ig != nil {
		if f, keep := c.override(f); keep {
			*suppressed = append(*suppressed, SuppressedFinding{Finding: f, Reason: ig.reason, InSource: true})
		}
		return
	}
	if f, keep := c.override(f); keep {
		*out = append(*out, f)
	}
}

// unused reports, as unused_ignore, each of the config's ignores that
// matched nothing (used) and that judge says this run can judge, and
// marks it used (reported once).
func (c *Config) unused(used []bool, judge func(Ignore) bool) []Finding {
	var out []Finding
	for i, ig := range c.Ignores {
		if used[i] || !judge(ig) {
			continue
		}
		used[i] = true
		msg := fmt.Sprintf("unused ignore: no %s finding at %s%s%s (reason given: %q); remove the entry or fix its file/pointer",
			ig.Rule, ig.File, ignorePointerText(ig.Pointer), ignoreValueText(ig.ValueHash), ig.Reason)
		if ig.missing {
			msg = fmt.Sprintf("unused ignore: %s names no existing file (rule %s, reason given: %q); remove the entry or fix its file", ig.File, ig.Rule, ig.Reason)
		}
		f := Finding{Code: RuleUnusedIgnore.Code, Severity: RuleUnusedIgnore.Severity, Source: compile.SourceDeterministic,
			File: c.Path, Line: ig.Line, Column: ig.Column, Location: compile.AppendIndex("/ignores", i), Message: msg}
		if f.Line < 1 {
			f.Line, f.Column = 1, 1
		}
		if f, keep := c.override(f); keep {
			out = append(out, f)
		}
	}
	return out
}

func ignoreValueText(h string) string {
	if h == "" {
		return ""
	}
	return " with value_hash " + h
}

// Notices are what a run must say on every run about this config: each
// security rule it turns off, with the reason given.
func (c *Config) Notices() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, r := range All {
		if c.Rules[r.Code] == "off" && r.Security() {
			out = append(out, fmt.Sprintf("notice: security rule %s is turned off by %s (reason: %q)", r.Code, c.Path, c.RuleReasons[r.Code]))
		}
	}
	return out
}

func ignorePointerText(p string) string {
	if p == "" {
		return ""
	}
	return " " + p
}

// override applies the per-rule severity from Rules and the SPEC §2 rule
// that only deterministic and agent-lint-policy findings may block. It
// returns false when the rule is off.
func (c *Config) override(f Finding) (Finding, bool) {
	switch s := c.Rules[f.Code]; s {
	case "":
	case "off":
		return f, false
	default:
		f.Severity = compile.Severity(s)
	}
	if f.Severity == compile.Blocker && !blockerSources[f.Source] {
		f.Severity = compile.Warning
	}
	return f, true
}

// matchIgnore returns the index of the first ignore that silences f, or -1.
func (c *Config) matchIgnore(f Finding) int {
	if len(c.Ignores) == 0 {
		return -1
	}
	abs := absPath(f.File)
	for i, ig := range c.Ignores {
		if ig.Rule != f.Code || !c.fileMatches(ig.File, abs) {
			continue
		}
		if ig.ValueHash != "" && ig.ValueHash != f.ValueHash {
			continue // bound to another value: a new secret is reported
		}
		if ig.Pointer == "" || ig.Pointer == f.Location || strings.HasPrefix(f.Location, ig.Pointer+"/") {
			return i
		}
	}
	return -1
}

// fileMatches compares an ignore's file (relative to the config's
// directory, or absolute; a glob is allowed) with an absolute path.
func (c *Config) fileMatches(pattern, abs string) bool {
	if pattern == "" || abs == "" {
		return false
	}
	p := filepath.FromSlash(pattern)
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.dirOrCwd(), p)
	}
	p = filepath.Clean(p)
	if p == abs {
		return true
	}
	// doublestar: "*" stays within a path segment, "**" crosses them
	ok, err := doublestar.Match(filepath.ToSlash(p), filepath.ToSlash(abs))
	return err == nil && ok
}

func (c *Config) dirOrCwd() string {
	if c.dir != "" {
		return c.dir
	}
	return absPath(".")
}

// ignoreTargets reports whether ig names one of a's files (the flow file,
// package.json, cinatra.json, or any file of the package directory), so
// that its being unused in a's review is a fact about a.
func (c *Config) ignoreTargets(ig Ignore, a *compile.Agent) bool {
	if a == nil {
		return false
	}
	var files []string
	for _, d := range []*compile.Doc{a.Flow, a.Package, a.CinatraJSON} {
		if d != nil && d.Path != "" {
			files = append(files, absPath(d.Path))
		}
	}
	return c.targets(ig, files, a.Dir)
}

// targets reports whether ig names one of files (absolute) or, without a
// glob, any file below the directory dir.
func (c *Config) targets(ig Ignore, files []string, dir string) bool {
	for _, f := range files {
		if c.fileMatches(ig.File, f) {
			return true
		}
	}
	if dir == "" || strings.ContainsAny(ig.File, "*?[{") {
		return false
	}
	p := filepath.FromSlash(ig.File)
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.dirOrCwd(), p)
	}
	return strings.HasPrefix(filepath.Clean(p), absPath(dir)+string(filepath.Separator))
}

func absPath(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return abs
}

// Policy is the team policy with that id, or nil.
func (c *Config) Policy(id string) *Policy {
	if c == nil {
		return nil
	}
	for _, p := range c.Policies {
		if p.ID == id {
			return p
		}
	}
	return nil
}
