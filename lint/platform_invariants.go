package lint

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/oastui/oastui/edit"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint/fix"
)

// The platform's repository-wide invariant tests and CI gates that read an
// agent package (reference cinatra.md §17.3). Each is a blocker: the
// platform's CI fails on it. The messages are ours; the sources:
//
//   - skill-free invariant: cinatra-ai/cinatra
//     packages/agents/src/__tests__/oas-skill-free.test.ts @4761c48a
//   - no skill bundle: packages/extensions/src/__tests__/blog-text-parity.test.ts
//     @01fc5eed (cinatra#2086/#2090 S3)
//   - produces dependency edge: scripts/audit/extension-produces-deps-gate.mjs
//     @73049e5c (cinatra#2537)
//   - the two dependency vocabularies: packages/extensions/src/manifest-dependencies.ts
//     @496336f8 (parseManifestDependencyEdges), enumerations from
//     packages/extensions/src/canonical-types.ts
//   - retired CRM primitives: scripts/audit/oas-banned-primitives-gate.mjs @a75fee7c

var (
	RuleOASSkillIDs = &Rule{Code: "oas_skill_ids", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc: `the flow file names "skillIds" or "skill_ids" (as a key or a string); skills are resolved from the catalog, never from oas.json (the platform's skill-free invariant; lint-policy-agent, auditor-agent and skill-recommender-agent are exempt)`}
	RuleCreationAgentPromptTooLong = &Rule{Code: "creation_agent_prompt_too_long", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc: "a system / user / prompt_template / instructions string over 400 characters in one of the four creation agents (security-reviewer, code-reviewer, planner, author): their methodology lives in catalog skills (Jinja-only strings are exempt)"}
	RuleAgentSkillBundle = &Rule{Code: "agent_skill_bundle", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc:       "an agent package ships a skills/ bundle (or package.json#files lists it for the three blog text agents the platform pins): an agent extension folds its rules into its own bridge node's data.system (cinatra#2090 S3)",
		AutoFixes: []string{`remove "skills" from package.json#files`},
		FixTiers:  []edit.Tier{edit.Safe}}
	RuleProducesDependencyMissing = &Rule{Code: "produces_dependency_missing", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc:       `a cinatra.produces extension that the package does not declare in cinatra.dependencies as a required, non-peer edge of kind "artifact", so installing the agent never installs the artifact (cinatra#2537)`,
		AutoFixes: []string{`add a required runtime artifact edge (range "*") to cinatra.dependencies`},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RuleManifestDependenciesConflict = &Rule{Code: "manifest_dependencies_conflict", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc:       "package.json's cinatra.agentDependencies (legacy map) names a package that cinatra.dependencies (canonical) drops or declares as optional or peer; the installer refuses the manifest (CONFLICT)",
		AutoFixes: []string{"add the legacy entry to cinatra.dependencies as a required runtime edge with its range"},
		FixTiers:  []edit.Tier{edit.Safe}}
	RuleManifestDependenciesMalformed = &Rule{Code: "manifest_dependencies_malformed", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc: "package.json's cinatra.dependencies or cinatra.agentDependencies is null or of the wrong shape, has an entry the installer cannot read, names the package itself, or names a package twice (MALFORMED)"}
	RuleOutputMessageUnreadInput = &Rule{Code: "output_message_unread_input", Severity: compile.Blocker, Group: groupPlatform,
		Doc: "an OutputMessageNode declares an input its message template never names ({# … #} comments do not count); pyagentspec refuses the unknown input descriptor at mount (the platform's mount contract)"}
	RuleRetiredCRMPrimitive = &Rule{Code: "retired_crm_primitive", Severity: compile.Blocker, Group: groupPlatformCI,
		Doc: "a system / user / description string names a retired CRM primitive (lists_*, accounts_*, contacts_*), a legacy @cinatra-ai/entity-{accounts,contacts} typeHint, or objects_list over one; route through the crm_* facade"}
)

// groupPlatformCI is the group of the rules of the platform's CI gates,
// invariant tests and install-time manifest reader: blockers the compile
// gate does not count (gateBlockers).
const groupPlatformCI = "platform-ci"

func checkPlatformInvariants(p *Pass) {
	a := p.Agent
	if a.Flow.Root != nil {
		if creationAgents[platformSlug(a)] {
			checkCreationPrompts(p)
		}
		checkOutputMessageInputs(p)
	}
	checkSkillBundle(p)
	deps := checkManifestDependencies(p)
	checkProducesDependency(p, deps)
}

// platformSlug is the agent's folder name (extensions/<vendor>/<slug>), the
// name the platform's tests scope by; without a folder, package.json's name
// after its scope.
func platformSlug(a *compile.Agent) string {
	if a.Dir != "" {
		return filepath.Base(a.Dir)
	}
	if a.Package != nil {
		if n, ok := a.Package.Root.Get("name").Str(); ok {
			return packageSlug(n)
		}
	}
	return ""
}

var (
	skillIDsExempt = map[string]bool{"lint-policy-agent": true, "auditor-agent": true, "skill-recommender-agent": true}
	creationAgents = map[string]bool{"security-reviewer-agent": true, "code-reviewer-agent": true, "planner-agent": true, "author-agent": true}
	// blogTextAgents are the agents whose package.json#files the platform's
	// blog-text parity test holds free of "skills".
	blogTextAgents = map[string]bool{"blog-idea-generator-agent": true, "blog-draft-writer-agent": true, "blog-linkedin-writer-agent": true}
)

const creationPromptCap = 400 // UTF-16 code units, as JavaScript counts

var (
	creationPromptKeys = map[string]bool{"system": true, "user": true, "prompt_template": true, "prompttemplate": true, "instructions": true}
)

func checkCreationPrompts(p *Pass) {
	var walk func(n *compile.Node, depth int)
	walk = func(n *compile.Node, depth int) {
		if n == nil || depth > 12 {
			return
		}
		switch n.Kind {
		case compile.Array:
			for _, it := range n.Items {
				walk(it, depth+1)
			}
		case compile.Object:
			for _, m := range n.Members {
				v := m.Value
				if v.Kind != compile.String {
					walk(v, depth+1)
					continue
				}
				// A string of at most the cap in bytes is at most the cap in
				// UTF-16 code units: most strings stop here.
				if len(v.Text) <= creationPromptCap || !creationPromptKeys[strings.ToLower(m.Key)] {
					continue
				}
				if l := utf16Len(v.Text); l > creationPromptCap && !jinjaOnly(v.Text) {
					p.Report(p.Agent.Flow, compile.PointerOf(v), RuleCreationAgentPromptTooLong,
						strconv.Quote(m.Key)+" is "+strconv.Itoa(l)+" characters; the four creation agents keep their prompts under "+strconv.Itoa(creationPromptCap)+
							" characters and load their methodology from catalog skills (the platform's skill-free invariant). Move the methodology into a skill and keep a thin dispatcher here.")
				}
			}
		}
	}
	walk(p.Agent.Flow.Root, 0)
}

// jinjaOnly: s is Jinja placeholders and white space only (the exemption
// of the creation agents' cap), as removing every (?s)\{\{.*?\}\} and
// trimming white space leaves nothing, without building that string: each
// "{{" up to the first "}}" after it is a placeholder (an unclosed one is
// text), anything else must be space (TestJinjaOnlyIsTheRegexp).
func jinjaOnly(s string) bool {
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "{{") {
			k := strings.Index(s[i+2:], "}}")
			if k < 0 {
				return false
			}
			i += 2 + k + 2
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			return false
		}
		i += size
	}
	return true
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func checkSkillBundle(p *Pass) {
	a := p.Agent
	if a.Siblings != nil {
		for _, f := range a.Siblings.Files {
			if strings.HasPrefix(f.Rel, "skills/") {
				p.ReportFinding(Finding{Code: RuleAgentSkillBundle.Code, Severity: RuleAgentSkillBundle.Severity,
					Message: "the package ships a skills/ bundle (" + f.Rel + "); an agent extension may not: fold the rules into the agent's own bridge node (data.system) and keep shared methodology in the skills catalog",
					Source:  compile.SourceDeterministic, File: f.Path, Line: 1, Column: 1})
				break
			}
		}
	}
	if a.Package == nil || a.Package.Root == nil || !blogTextAgents[platformSlug(a)] {
		return
	}
	files := a.Package.Root.Get("files")
	if !files.Is(compile.Array) {
		return
	}
	for _, it := range files.Items {
		if s, _ := it.Str(); s == "skills" {
			ptr := compile.PointerOf(it)
			// Tier: safe — it only stops npm from packing a folder the
			// platform forbids; the folder itself is the user's to delete.
			p.ReportFix(a.Package, ptr, RuleAgentSkillBundle,
				`package.json#files lists "skills": an agent extension may not re-admit a skill bundle (cinatra#2090 S3)`,
				newFix(edit.Safe, `remove "skills" from package.json#files`).add(fix.Remove(a.Package, ptr)).fix())
		}
	}
}

var (
	retiredCRMPrimitives = []string{"lists_list", "lists_get", "lists_create", "lists_update", "lists_delete",
		"lists_members_add", "lists_members_remove", "lists_members_count", "accounts_list", "accounts_get",
		"accounts_create", "accounts_update", "accounts_delete", "contacts_list", "contacts_get", "contacts_create",
		"contacts_update", "contacts_delete", "contacts_sources_list"}
	retiredTypeHints = []string{"@cinatra-ai/entity-accounts:account", "@cinatra-ai/entity-contacts:contact"}
	objectsListCRMRe = newLazyRegexp(`objects_list[\s\S]{0,120}@cinatra-ai/entity-(accounts:account|contacts:contact)`)
)

// wordIndex reports whether tok occurs in s with no letter, digit or "_"
// on either side.
func wordIndex(s, tok string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], tok)
		if k < 0 {
			return false
		}
		at := i + k
		end := at + len(tok)
		if (at == 0 || !isWordByte(s[at-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = at + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// checkManifestDependencies reports what the installer refuses in
// package.json's two dependency vocabularies (MALFORMED, CONFLICT), as
// compile.ManifestDependencies reads them, and returns that reading.
func checkManifestDependencies(p *Pass) compile.ManifestDeps {
	pkg := p.Agent.Package
	deps := compile.ManifestDependencies(pkg)
	for _, pr := range deps.Problems {
		var msg string
		switch pr.Reason {
		case compile.DepNotList:
			msg = `cinatra.dependencies must be an array (spell "no dependencies" as [])`
		case compile.DepBadEntry:
			probs := make([]string, len(pr.Faults))
			for i, f := range pr.Faults {
				probs[i] = manifestFaultText(f, pr.Edge)
			}
			msg = "this cinatra.dependencies entry is malformed: " + strings.Join(probs, "; ")
		case compile.DepDuplicate:
			msg = "cinatra.dependencies names " + strconv.Quote(pr.Package) + " twice"
		case compile.DepLegacyNotMap:
			msg = "cinatra.agentDependencies must be a { name: range } map"
		case compile.DepLegacyBadEntry:
			msg = "this cinatra.agentDependencies entry needs a non-empty name and range"
		case compile.DepLegacySelf:
			msg = "cinatra.agentDependencies names the package itself"
		case compile.DepMissing:
			// Tier: safe — the canonical edge restates exactly what the
			// legacy map already means to the installer.
			edge := map[string]any{"packageName": pr.Package, "edgeType": "runtime",
				"versionConstraint": map[string]any{"kind": "semver-range", "range": pr.Edge.Range}, "requirement": "required"}
			p.ReportFix(pkg, pr.Pointer, RuleManifestDependenciesConflict,
				strconv.Quote(pr.Package)+" is in cinatra.agentDependencies but not in cinatra.dependencies; the canonical list wins and must restate every legacy edge, so the installer refuses the manifest",
				newFix(edit.Safe, "add "+strconv.Quote(pr.Package)+" to cinatra.dependencies as a required runtime edge").add(fix.Append(pkg, compile.PointerOf(pkg.Root.Path("cinatra", "dependencies")), edge)).fix())
			continue
		case compile.DepWeakened:
			p.Report(pkg, pr.Pointer, RuleManifestDependenciesConflict,
				strconv.Quote(pr.Package)+" is a required runtime edge in cinatra.agentDependencies but "+pr.Edge.EdgeType+"/"+pr.Edge.Requirement+" in cinatra.dependencies; the installer refuses the manifest until the two agree")
			continue
		default:
			msg = pr.Message
		}
		p.Report(pkg, pr.Pointer, RuleManifestDependenciesMalformed, msg+"; the platform's installer refuses the manifest")
	}
	return deps
}

// manifestFaultText words one fault of the canonical entry e.
func manifestFaultText(fault string, e compile.DependencyEdge) string {
	switch fault {
	case compile.DepFaultNotObject:
		return "not an object"
	case compile.DepFaultPackageName:
		return "packageName must be a non-empty string"
	case compile.DepFaultSelf:
		return "it names the package itself"
	case compile.DepFaultEdgeType:
		return "edgeType must be runtime, install-time or peer"
	case compile.DepFaultRequirement:
		return "requirement must be required or optional"
	case compile.DepFaultKind:
		return "kind must be agent, connector, artifact, skill or workflow"
	case compile.DepFaultRole:
		return "role must be matcher or authoring"
	case compile.DepFaultRoleOffSkill:
		return `role only applies to a kind "skill" edge`
	case compile.DepFaultConstraint:
		return "versionConstraint must be an object"
	case compile.DepFaultConstraintKind:
		return "versionConstraint.kind must be semver-range, exact or git-ref"
	case compile.DepFaultConstraintValue:
		return "versionConstraint." + compile.ConstraintValueKey(e.Constraint) + " must be a non-empty string"
	}
	return fault
}

// checkProducesDependency: every produced extension (package.json and the
// flow's metadata.cinatra mirror) needs a required, non-peer, kind
// "artifact" edge in cinatra.dependencies. Whether the target is a real
// artifact with the claimed object type needs the extension catalog, which
// a lint of one package does not have: that half is not checked.
func checkProducesDependency(p *Pass, deps compile.ManifestDeps) {
	a := p.Agent
	if a.Package == nil || a.Package.Root == nil {
		return
	}
	var edges []compile.DependencyEdge
	if deps.Source == compile.DepsCanonical {
		edges = deps.Edges // a legacy edge never declares a kind
	}
	ok := map[string]bool{}
	for _, e := range edges {
		if e.Kind == "artifact" && e.Requirement == "required" && e.EdgeType != "peer" {
			ok[e.Package] = true
		}
	}
	reported := map[string]bool{}
	check := func(d *compile.Doc, arr *compile.Node, where string) {
		if !arr.Is(compile.Array) {
			return
		}
		for _, it := range arr.Items {
			ext, isStr := it.Get("extension").Str()
			if !isStr || ext == "" || ok[ext] || reported[ext] {
				continue
			}
			reported[ext] = true
			msg := where + " produces " + strconv.Quote(ext) + " but cinatra.dependencies has no required artifact edge to it, so installing this agent never installs the artifact and every run fails to store it (cinatra#2537)"
			canon := a.Package.Root.Path("cinatra", "dependencies")
			var already bool
			for _, e := range edges {
				already = already || e.Package == ext
			}
			if canon.Is(compile.Array) && !already {
				// Tier: unsafe — the range "*" is a guess the author should narrow.
				edge := map[string]any{"packageName": ext, "edgeType": "runtime",
					"versionConstraint": map[string]any{"kind": "semver-range", "range": "*"}, "requirement": "required", "kind": "artifact"}
				p.ReportFix(d, compile.PointerOf(it.Get("extension")), RuleProducesDependencyMissing, msg,
					newFix(edit.Unsafe, "add "+strconv.Quote(ext)+" to cinatra.dependencies as a required artifact edge").add(fix.Append(a.Package, compile.PointerOf(canon), edge)).fix())
				continue
			}
			p.Report(d, compile.PointerOf(it.Get("extension")), RuleProducesDependencyMissing, msg)
		}
	}
	check(a.Package, a.Package.Root.Path("cinatra", "produces"), "package.json")
	if a.Flow.Root != nil {
		check(a.Flow, a.Flow.Root.Path("metadata", "cinatra", "produces"), "metadata.cinatra")
	}
}

// stripJinjaComments is (?s)\{#.*?#\} replaced by "" in s (the oracle of
// TestStripJinjaComments), by hand:
// each "{#" and the text up to the first "#}" after it taken out, left to
// right; a "{#" with no "#}" after it, and the text after it, stay. ('#'
// and '}' are ASCII, so a search of the bytes finds what the expression's
// search of the characters does, invalid UTF-8 included.)
func stripJinjaComments(s string) string {
	var b strings.Builder
	done := 0
	for i := 0; ; {
		k := strings.Index(s[i:], "{#")
		if k < 0 {
			break
		}
		open := i + k
		e := strings.Index(s[open+2:], "#}")
		if e < 0 {
			break // no later "{#" has a "#}" after it either
		}
		b.WriteString(s[done:open])
		i = open + 2 + e + 2
		done = i
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// checkOutputMessageInputs: cinatra-ai/email-outreach-agent
// tests/wayflow-mount-contract.test.mjs @ca080d7a (B) — every input title
// of every OutputMessageNode must occur as a word in its message, comments
// taken out.
func checkOutputMessageInputs(p *Pass) {
	for _, c := range p.flowComponents() {
		if c.Type != "OutputMessageNode" {
			continue
		}
		inputs := c.Node.Get("inputs")
		if !inputs.Is(compile.Array) || len(inputs.Items) == 0 {
			continue
		}
		rendered, _ := c.Node.Get("message").Str()
		if strings.Contains(rendered, "{#") { // the comments taken out (most messages have none)
			rendered = stripJinjaComments(rendered)
		}
		for _, in := range inputs.Items {
			title, ok := in.Get("title").Str()
			if !ok || title == "" || wordIndex(rendered, title) {
				continue
			}
			p.Report(p.Agent.Flow, compile.PointerOf(in.Get("title")), RuleOutputMessageUnreadInput,
				"OutputMessageNode "+strconv.Quote(c.Label())+" declares input "+strconv.Quote(title)+" but its message never names it (a {# … #} comment does not count); pyagentspec reads the node's inputs from the template and refuses the flow at mount. Use the input in the message or drop it.")
		}
	}
}
