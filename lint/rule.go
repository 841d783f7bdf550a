// Package lint holds every rule oastui checks: the validator cases, the
// Agent Spec flow-graph rules, the deterministic review scans and the
// context-slot contract. It is pure: plain functions over a loaded agent.
package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/prompts"
)

// Finding is the one finding type of the project (SPEC §2).
type Finding = compile.Finding

// Severity re-exported for callers that only import lint.
type Severity = compile.Severity

// Rule is one finding code: its metadata and the pass that reports it.
// Every rule is a package-level value (RuleXxx) listed once in All
// (rules.go); checks report through these values, so a misspelt rule does
// not compile.
type Rule struct {
	Code     string
	Severity compile.Severity // default severity; .oastui.yaml may override it
	Doc      string           // one line: what is wrong and why; F/E/D numbers of Agent Spec rules go here
	Group    string           // "loading", "validator", "flowgraph", "agentspec", "scan", "package", "slots", "review"
	Tags     []string         // "security" for the security rules only (SARIF security-severity, the notice when turned off)
	Secret   bool             // the finding is a literal credential: its ValueHash is the secret's, and an ignore must name it (value_hash)
	Fix      string           // how to fix a finding, when there is a known fix (docs/rules.md, SARIF help)
	// AutoFixes are the titles of the automatic fixes the rule's findings
	// may carry (Finding.Fixes; `oastui lint --fix` applies the first), in
	// order; empty for a rule without a safe mechanical fix.
	AutoFixes []string
	// FixTiers is the tier of each of AutoFixes (same order): what it may
	// change, so who may apply it (edit.Tier, docs/fixes.md). A fix a
	// finding carries declares its own tier, one of these.
	FixTiers []edit.Tier
	OK, Err  string // a minimal example without and with the finding, for docs/rules.md ("" = taken from the fixtures)
	Profiles []compile.Profile
	// Profiles the rule can be reported in; empty = every profile. For a
	// rule of a Check it is the Check's profiles (set when All is built).

	// Check is the pass that reports the rule. Several rules share one
	// Check (the validator reports thirty codes in one walk); the review
	// runs each Check once. nil for the rules raised while loading
	// (compile.Load) and for those Run adds itself (group "review").
	Check *Check

	listed bool // the rule is in All (set when All is built)
}

// Check is one pass over an agent that may report findings of several
// rules. A Check value is shared by the rules that name it; it has no
// rule list of its own: All says which rules it reports.
type Check struct {
	Name     string
	Profiles []compile.Profile // profiles it runs in; empty = every profile
	Run      func(p *Pass)
	// ByID says the check's messages name components by id (the cinatra
	// platform's word for a node), so a finding on a multi-line component
	// spans its "id" rather than its "name" (compile.Doc.AtNamed). The
	// checks that run in the cinatra profile only do so too.
	ByID bool
}

// nameKeys are the members that name a multi-line component in the
// findings of c, in order (compile.Doc.SpanNamed).
func (c *Check) nameKeys() []string {
	if c.ByID || slices.Equal(c.Profiles, []compile.Profile{compile.ProfileCinatra}) {
		return idFirst
	}
	return nameFirst
}

var (
	nameFirst = []string{"name", "id"}
	idFirst   = []string{"id", "name"}
)

// Fixable reports whether the rule's findings may carry automatic fixes.
func (r *Rule) Fixable() bool { return len(r.AutoFixes) > 0 }

// Security reports whether r is a security rule (tag "security").
func (r *Rule) Security() bool { return slices.Contains(r.Tags, "security") }

// ProfileNames returns the profiles a rule can be reported in, spelled
// out ("cinatra", "agentspec") when the rule runs in every profile.
func (r *Rule) ProfileNames() []string {
	ps := r.Profiles
	if len(ps) == 0 {
		ps = []compile.Profile{compile.ProfileCinatra, compile.ProfileAgentSpec}
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p)
	}
	return out
}

// group is the part of All one Check reports, or a set of rules that no
// Check reports (check nil).
type group struct {
	check *Check
	rules []*Rule
}

func reportedBy(c *Check, rs ...*Rule) group { return group{check: c, rules: rs} }
func reportedElsewhere(rs ...*Rule) group    { return group{rules: rs} }

// assemble concatenates the groups into the rule list, linking each rule
// to its Check. A code listed twice, a rule without a doc or group, or a
// Check-less group of non-loading/review rules is a programming error and
// panics at start-up (TestRuleList pins it too).
func assemble(groups ...group) []*Rule {
	var all []*Rule
	seen := map[string]bool{}
	for _, g := range groups {
		for _, r := range g.rules {
			if seen[r.Code] {
				panic("lint: rule listed twice: " + r.Code)
			}
			seen[r.Code] = true
			if r.Doc == "" || r.Group == "" {
				panic("lint: rule without doc or group: " + r.Code)
			}
			if g.check == nil && r.Group != groupLoading && r.Group != groupReview && r.Group != groupWorkspace && r.Group != GroupDryRun {
				panic("lint: rule without a check: " + r.Code)
			}
			r.Check = g.check
			if g.check != nil && len(r.Profiles) == 0 {
				r.Profiles = g.check.Profiles
			}
			r.listed = true
			all = append(all, r)
		}
	}
	return all
}

// checksOf returns the Checks of the rules in list order, each once.
func checksOf(rs []*Rule) []*Check {
	var out []*Check
	for _, r := range rs {
		if r.Check != nil && !slices.Contains(out, r.Check) {
			out = append(out, r.Check)
		}
	}
	return out
}

func indexOf(rs []*Rule) map[string]*Rule {
	m := make(map[string]*Rule, len(rs))
	for _, r := range rs {
		m[r.Code] = r
	}
	return m
}

// Rules lists the rules of the review (every rule of All except those
// raised while loading) sorted by code: the rule set SARIF describes.
func Rules() []Rule {
	out := make([]Rule, 0, len(All))
	for _, r := range All {
		if r.Group != groupLoading {
			out = append(out, *r)
		}
	}
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(a.Code, b.Code) })
	return out
}

// LookupRule returns the rule for code (any rule of All, loading rules
// included), or nil.
func LookupRule(code string) *Rule { return byCode[code] }

// Pass carries one agent through the checks and collects their findings.
type Pass struct {
	Agent   *compile.Agent
	Config  *Config
	found   []Finding
	names   []string        // the running check's nameKeys
	prompts *prompts.Report // the analysis's prompt report, when it computed one (Options.Prompts)
	comps   []scanComponent // the flow file's components (flowComponents), found once for every scan
	compsOK bool
	// flowModel is the flow file's model (model), read once per review.
	flowModel *compile.Model
	// plainPorts: Options.plainPorts.
	plainPorts bool
}

// Report records a finding of rule r at the value ptr names in doc, with
// the rule's default severity. A rule missing from All is reported as the
// internal_unregistered_rule warning so that the bug shows.
func (p *Pass) Report(doc *compile.Doc, ptr string, r *Rule, msg string) {
	if !r.listed {
		p.found = append(p.found, doc.At(ptr, RuleInternalUnregisteredRule.Code, RuleInternalUnregisteredRule.Severity,
			fmt.Sprintf("internal: unregistered rule %q: %s", r.Code, msg)))
		return
	}
	p.found = append(p.found, doc.AtNamed(ptr, r.Code, r.Severity, msg, p.names...))
}

// reportSlot is Report of a finding about the context slot slotID
// (Finding.Slot).
func (p *Pass) reportSlot(slotID string, doc *compile.Doc, ptr string, r *Rule, msg string) {
	p.Report(doc, ptr, r, msg)
	p.found[len(p.found)-1].Slot = slotID
}

// ReportByID is Report for a finding about a component's id: on a
// multi-line component it spans the "id" (Check.ByID for one report).
func (p *Pass) ReportByID(doc *compile.Doc, ptr string, r *Rule, msg string) {
	names := p.names
	p.names = idFirst
	p.Report(doc, ptr, r, msg)
	p.names = names
}

// ReportFix is Report with the finding's fixes (best first). Fixes that
// could not be built (nil edits) are dropped.
func (p *Pass) ReportFix(doc *compile.Doc, ptr string, r *Rule, msg string, fixes ...edit.Fix) {
	p.Report(doc, ptr, r, msg)
	f := &p.found[len(p.found)-1]
	for _, x := range fixes {
		if !x.Empty() {
			f.Fixes = append(f.Fixes, x)
		}
	}
}

// reportValue is Report with the finding's ValueHash taken from value (the
// secret, the URL) instead of the scalar at ptr.
func (p *Pass) reportValue(doc *compile.Doc, ptr string, r *Rule, msg, value string) {
	p.Report(doc, ptr, r, msg)
	p.found[len(p.found)-1].ValueHash = compile.HashValue(value)
}

// ReportFinding records a finding built by the check itself (a position in
// a sibling file, a non-default severity or source).
func (p *Pass) ReportFinding(f Finding) { p.found = append(p.found, f) }

// Findings returns what has been reported so far.
func (p *Pass) Findings() []Finding { return p.found }

func (c *Check) runsIn(profile compile.Profile) bool {
	return len(c.Profiles) == 0 || slices.Contains(c.Profiles, profile)
}

// RulesDocURL is the page that documents every rule (docs/rules.md,
// generated from All); HelpURI points into it.
const RulesDocURL = "https://github.com/oastui/oastui/blob/main/docs/rules.md"

// NoFixText is what the docs say of a rule without a known fix.
const NoFixText = "no automatic fix yet"

// Anchor is the rule's heading anchor in docs/rules.md (GitHub's slug of
// the code: lower case; letters, digits, "-" and "_" kept).
func (r *Rule) Anchor() string {
	var b strings.Builder
	for _, c := range strings.ToLower(r.Code) {
		if c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// HelpURI is the link to the rule's section of docs/rules.md.
func (r *Rule) HelpURI() string { return RulesDocURL + "#" + r.Anchor() }

// FixText is the rule's fix, or NoFixText; then, for a fixable rule, its
// automatic fixes. A rule without one says so, with or without a fix by
// hand.
func (r *Rule) FixText() string {
	if r.Fixable() {
		fixes := make([]string, len(r.AutoFixes))
		for i, t := range r.AutoFixes {
			tier := edit.Dangerous // undeclared: TestFixTiersDeclared fails
			if i < len(r.FixTiers) {
				tier = r.FixTiers[i]
			}
			fixes[i] = t + " [" + string(tier) + "]"
		}
		auto := "automatic, one alternative at most, the first its tier allows (safe: `oastui lint --fix`; unsafe: `--unsafe-fixes`; dangerous: `--fix-dangerous` on one finding; docs/fixes.md): " + strings.Join(fixes, "; or ")
		if r.Fix != "" {
			return r.Fix + ". " + auto
		}
		return auto
	}
	if r.Fix != "" {
		return r.Fix + " (by hand: " + NoFixText + ")"
	}
	return NoFixText
}

// MarkdownHelp is the rule's help in Markdown (SARIF help.markdown): what
// and why (the Doc), the fix, the default severity and the link to its
// section of docs/rules.md.
func (r *Rule) MarkdownHelp() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (default severity %s, profiles %s)\n\n", r.Code, r.Severity, strings.Join(r.ProfileNames(), ", "))
	fmt.Fprintf(&b, "%s\n\n", r.Doc)
	fmt.Fprintf(&b, "**Fix:** %s\n\n", r.FixText())
	fmt.Fprintf(&b, "Examples and details: [%s](%s)\n", "docs/rules.md#"+r.Anchor(), r.HelpURI())
	return b.String()
}
