package compile

import (
	"fmt"
	"strings"
)

// The dependency edges a package.json declares, read as the platform's one
// manifest reader reads them (cinatra-ai/cinatra
// packages/extensions/src/manifest-dependencies.ts @496336f8,
// parseManifestDependencyEdges; the enums from
// packages/extensions/src/canonical-types.ts as stored):
//
//   - cinatra.dependencies (the canonical list) present: it is the answer;
//     each entry must be well formed (packageName non-empty and not the
//     package itself, edgeType runtime|install-time|peer, requirement
//     required|optional, kind absent or agent|connector|artifact|skill|workflow,
//     role absent or matcher|authoring and then only on a skill edge,
//     versionConstraint semver-range/range, exact/version or git-ref/ref), no
//     package twice; null or a non-list is malformed ("no dependencies" is []).
//   - only the legacy cinatra.agentDependencies map ({name: range}): each
//     entry becomes a runtime, required, semver-range edge without a kind;
//     null, a list or a non-object is malformed, and so is an empty name or
//     range or a self-edge.
//   - both: every legacy name must be in the canonical list as a required,
//     non-peer edge, else a conflict (ranges are not compared; the canonical
//     one wins). Extra canonical edges are fine.
//
// Where the platform throws on the first problem, this reader lists every
// one it finds (each with the place in package.json), so an editor can show
// them all; the edges it returns are then those of the vocabulary that
// would win, minus the entries that are malformed.

// Manifest dependency vocabularies (ManifestDeps.Source).
const (
	DepsCanonical = "canonical"    // cinatra.dependencies
	DepsLegacy    = "legacy-agent" // only cinatra.agentDependencies
	DepsNone      = "none"
)

// Manifest dependency problem codes, as the platform's ManifestDependencyError.
const (
	DepMalformed = "MALFORMED"
	DepConflict  = "CONFLICT"
)

// DependencyEdge is one dependency edge of a manifest.
type DependencyEdge struct {
	Package     string // packageName
	Kind        string // the depended-on package's kind ("" when not declared; never on a legacy edge)
	Role        string // skill edge role ("" when none)
	EdgeType    string // runtime, install-time or peer
	Requirement string // required or optional
	// Constraint is the version constraint's kind (semver-range, exact or
	// git-ref) and Range its value (range, version or ref).
	Constraint, Range string
	Pointer           string // the entry in package.json
}

// RuntimeRequired is whether the edge is a runtime, required edge (what the
// platform's explicit-wiring test asks of the context-selection agent).
func (e DependencyEdge) RuntimeRequired() bool {
	return e.EdgeType == "runtime" && e.Requirement == "required"
}

// DependencyProblem is one thing the platform's reader refuses.
type DependencyProblem struct {
	Code    string // DepMalformed or DepConflict
	Package string // the dependency it is about ("" when about the whole block)
	Pointer string // where in package.json
	Message string
}

// ManifestDeps is what ManifestDependencies reads.
type ManifestDeps struct {
	Source   string // DepsCanonical, DepsLegacy or DepsNone
	Edges    []DependencyEdge
	Problems []DependencyProblem
}

// Edge is the edge to package name, and whether there is one.
func (d ManifestDeps) Edge(name string) (DependencyEdge, bool) {
	for _, e := range d.Edges {
		if e.Package == name {
			return e, true
		}
	}
	return DependencyEdge{}, false
}

var (
	depEdgeTypes    = []string{"runtime", "install-time", "peer"}
	depRequirements = []string{"required", "optional"}
	depKinds        = []string{"agent", "connector", "artifact", "skill", "workflow"}
	depSkillRoles   = []string{"matcher", "authoring"}
)

func depOneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

// ManifestDependencies reads the dependency edges of the parsed package.json
// pkg (nil or unparsed: no edges). Pure: it reads only pkg.
func ManifestDependencies(pkg *Doc) ManifestDeps {
	out := ManifestDeps{Source: DepsNone}
	if pkg == nil || pkg.Root == nil || pkg.Root.Kind != Object {
		return out
	}
	self := pkg.Root.Get("name").StringOr("")
	c := pkg.Root.Get("cinatra")
	if c == nil || c.Kind != Object {
		return out
	}
	problem := func(code, dep, ptr, msg string) {
		out.Problems = append(out.Problems, DependencyProblem{Code: code, Package: dep, Pointer: ptr, Message: msg})
	}

	var canonical []DependencyEdge
	canonicalGiven := false
	if raw := c.Get("dependencies"); raw != nil {
		ptr := "/cinatra/dependencies"
		canonicalGiven = true
		if raw.Kind != Array {
			problem(DepMalformed, "", ptr, fmt.Sprintf("cinatra.dependencies must be an array (got %s); declare \"no dependencies\" as []", raw.Kind))
		} else {
			seen := map[string]bool{}
			for i, it := range raw.Items {
				ep := AppendIndex(ptr, i)
				e, probs := depEntry(it, self, ep)
				if len(probs) > 0 {
					problem(DepMalformed, e.Package, ep, "malformed cinatra.dependencies entry: "+strings.Join(probs, "; "))
					continue
				}
				if seen[e.Package] {
					problem(DepMalformed, e.Package, ep, "duplicate cinatra.dependencies entry for "+e.Package)
					continue
				}
				seen[e.Package] = true
				canonical = append(canonical, e)
			}
		}
	}

	var legacy []DependencyEdge
	if raw := c.Get("agentDependencies"); raw != nil {
		ptr := "/cinatra/agentDependencies"
		if raw.Kind != Object {
			got := raw.Kind.String()
			problem(DepMalformed, "", ptr, "cinatra.agentDependencies must be a { name: range } map (got "+got+")")
		} else {
			for _, m := range raw.Members {
				ep := Append(ptr, m.Key)
				rng, ok := m.Value.Str()
				switch {
				case m.Key == "" || !ok || rng == "":
					problem(DepMalformed, m.Key, ep, fmt.Sprintf("malformed cinatra.agentDependencies entry %q: both name and range must be non-empty strings", m.Key))
				case self != "" && m.Key == self:
					problem(DepMalformed, m.Key, ep, "cinatra.agentDependencies self-edge (a package cannot depend on itself)")
				default:
					legacy = append(legacy, DependencyEdge{Package: m.Key, EdgeType: "runtime", Requirement: "required",
						Constraint: "semver-range", Range: rng, Pointer: ep})
				}
			}
		}
	}

	if canonicalGiven && len(legacy) > 0 {
		by := map[string]DependencyEdge{}
		for _, e := range canonical {
			by[e.Package] = e
		}
		for _, l := range legacy {
			e, ok := by[l.Package]
			switch {
			case !ok:
				problem(DepConflict, l.Package, l.Pointer, l.Package+" is declared in cinatra.agentDependencies but missing from cinatra.dependencies (the canonical list is the source of truth; the legacy map may only restate its required runtime/install-time edges)")
			case e.Requirement != "required" || e.EdgeType == "peer":
				problem(DepConflict, l.Package, e.Pointer, fmt.Sprintf("%s is a required runtime edge in cinatra.agentDependencies but declared %s/%s in cinatra.dependencies", l.Package, e.EdgeType, e.Requirement))
			}
		}
	}
	switch {
	case canonicalGiven:
		out.Source, out.Edges = DepsCanonical, canonical
	case len(legacy) > 0:
		out.Source, out.Edges = DepsLegacy, legacy
	}
	return out
}

// depEntry reads one canonical entry and lists its problems.
func depEntry(n *Node, self, ptr string) (DependencyEdge, []string) {
	e := DependencyEdge{Pointer: ptr}
	if n == nil || n.Kind != Object {
		return e, []string{"entry is not an object"}
	}
	var probs []string
	str := func(key string) (string, bool) { return n.Get(key).Str() }
	if v, ok := str("packageName"); !ok || v == "" {
		probs = append(probs, "packageName must be a non-empty string")
	} else {
		e.Package = v
		if self != "" && v == self {
			probs = append(probs, "self-edge (a package cannot depend on itself)")
		}
	}
	e.EdgeType, _ = str("edgeType")
	if !depOneOf(e.EdgeType, depEdgeTypes) || !n.Get("edgeType").Is(String) {
		probs = append(probs, "edgeType must be one of "+strings.Join(depEdgeTypes, "|"))
	}
	e.Requirement, _ = str("requirement")
	if !depOneOf(e.Requirement, depRequirements) || !n.Get("requirement").Is(String) {
		probs = append(probs, "requirement must be one of "+strings.Join(depRequirements, "|"))
	}
	if k := n.Get("kind"); k != nil {
		e.Kind, _ = k.Str()
		if k.Kind != String || !depOneOf(e.Kind, depKinds) {
			probs = append(probs, "kind, when present, must be one of "+strings.Join(depKinds, "|"))
		}
	}
	if r := n.Get("role"); r != nil {
		e.Role, _ = r.Str()
		switch {
		case r.Kind != String || !depOneOf(e.Role, depSkillRoles):
			probs = append(probs, "role, when present, must be one of "+strings.Join(depSkillRoles, "|"))
		case e.Kind != "skill":
			probs = append(probs, "role is only meaningful on a kind:\"skill\" edge")
		}
	}
	vc := n.Get("versionConstraint")
	if vc == nil || vc.Kind != Object {
		probs = append(probs, "versionConstraint must be an object")
		return e, probs
	}
	e.Constraint = vc.Get("kind").StringOr("")
	field := map[string]string{"semver-range": "range", "exact": "version", "git-ref": "ref"}[e.Constraint]
	if field == "" || !vc.Get("kind").Is(String) {
		probs = append(probs, "versionConstraint.kind must be one of semver-range|exact|git-ref")
		return e, probs
	}
	if v, ok := vc.Get(field).Str(); !ok || v == "" {
		probs = append(probs, "versionConstraint."+field+" must be a non-empty string")
	} else {
		e.Range = v
	}
	return e, probs
}
