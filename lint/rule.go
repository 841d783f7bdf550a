// Package lint holds every rule oastui checks: the validator cases, the
// Agent Spec flow-graph rules, the deterministic review scans and the
// context-slot contract. It is pure: plain functions over a loaded agent.
package lint

import (
	"fmt"
	"sort"

	"github.com/oastui/oastui/compile"
)

// Finding is the one finding type of the project (SPEC §2).
type Finding = compile.Finding

// Severity re-exported for callers that only import lint.
type Severity = compile.Severity

// Rule is the metadata of one finding code. Every code a check reports must
// be registered, with its default severity and a one-line doc.
type Rule struct {
	Code     string
	Severity compile.Severity
	Doc      string   // one line: what is wrong and why; F/E/D numbers of Agent Spec rules go here
	Group    string   // "validator", "flowgraph", "agentspec", "scan", "package", "slots", "review"
	Tags     []string // e.g. "security" for the secret and URL scans (SARIF)
}

// Check is one pass over an agent that may report findings of several codes.
type Check struct {
	Name     string
	Profiles []compile.Profile // profiles it runs in; empty = every profile
	Run      func(p *Pass)
}

var (
	rules  = map[string]*Rule{}
	checks []Check
)

// registerRules adds rule metadata; called from init functions only.
func registerRules(rs ...Rule) {
	for _, r := range rs {
		if _, dup := rules[r.Code]; dup {
			panic("lint: rule registered twice: " + r.Code)
		}
		r := r
		rules[r.Code] = &r
	}
}

// registerCheck adds a check; called from init functions only.
func registerCheck(c Check) { checks = append(checks, c) }

// Rules lists every registered rule sorted by code.
func Rules() []Rule {
	out := make([]Rule, 0, len(rules))
	for _, r := range rules {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// LookupRule returns the rule for code, or nil.
func LookupRule(code string) *Rule { return rules[code] }

// Pass carries one agent through the checks and collects their findings.
type Pass struct {
	Agent  *compile.Agent
	Config *Config
	found  []Finding
}

// Report records a finding of a registered code at the value ptr names in
// doc, with the rule's default severity. An unregistered code is reported
// as the internal_unregistered_rule warning so that the bug shows.
func (p *Pass) Report(doc *compile.Doc, ptr, code, msg string) {
	r := rules[code]
	if r == nil {
		p.found = append(p.found, doc.At(ptr, "internal_unregistered_rule", compile.Warning,
			fmt.Sprintf("internal: unregistered rule %q: %s", code, msg)))
		return
	}
	p.found = append(p.found, doc.At(ptr, code, r.Severity, msg))
}

// ReportFinding records a finding built by the check itself (a position in
// a sibling file, a non-default severity or source).
func (p *Pass) ReportFinding(f Finding) { p.found = append(p.found, f) }

// Findings returns what has been reported so far.
func (p *Pass) Findings() []Finding { return p.found }

func (c Check) runsIn(profile compile.Profile) bool {
	if len(c.Profiles) == 0 {
		return true
	}
	for _, pr := range c.Profiles {
		if pr == profile {
			return true
		}
	}
	return false
}
