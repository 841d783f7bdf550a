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
//     one wins). Extra canonical edges are fine. A canonical block that is
//     not a list is refused before the two are compared, so it raises no
//     conflict.
//
// The legacy map is read as JSON.parse leaves it: a key written twice is
// one entry, at its first place, with its last value.
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

// Why a manifest dependency problem is one (DependencyProblem.Reason).
const (
	DepNotList        = "not-list"         // cinatra.dependencies is not a list
	DepBadEntry       = "bad-entry"        // a canonical entry the reader cannot read (Faults)
	DepDuplicate      = "duplicate"        // a canonical entry naming a package again
	DepLegacyNotMap   = "legacy-not-map"   // cinatra.agentDependencies is not an object
	DepLegacyBadEntry = "legacy-bad-entry" // a legacy entry with an empty name or a range that is not a non-empty string
	DepLegacySelf     = "legacy-self"      // a legacy entry naming the package itself
	DepMissing        = "missing"          // a legacy edge the canonical list does not name (Edge: the legacy edge)
	DepWeakened       = "weakened"         // a legacy edge the canonical list declares optional or peer (Edge: the canonical edge)
)

// What is wrong with a malformed canonical entry (DependencyProblem.Faults),
// in the order the platform's validateExtensionDependencyShape lists them.
const (
	DepFaultNotObject       = "not-object"
	DepFaultPackageName     = "package-name"     // packageName missing, empty or not a string
	DepFaultSelf            = "self"             // packageName is the package itself
	DepFaultEdgeType        = "edge-type"        // not runtime|install-time|peer
	DepFaultRequirement     = "requirement"      // not required|optional
	DepFaultKind            = "kind"             // present and not a known package kind
	DepFaultRole            = "role"             // present and not a known skill role
	DepFaultRoleOffSkill    = "role-off-skill"   // a known role on an edge that is not kind "skill"
	DepFaultConstraint      = "constraint"       // versionConstraint is not an object
	DepFaultConstraintKind  = "constraint-kind"  // versionConstraint.kind is not semver-range|exact|git-ref
	DepFaultConstraintValue = "constraint-value" // the constraint's value (ConstraintValueKey) is empty or not a string
)

// DependencyProblem is one thing the platform's reader refuses.
type DependencyProblem struct {
	Code    string // DepMalformed or DepConflict
	Reason  string // which rule it breaks (DepNotList, DepBadEntry, …)
	Package string // the dependency it is about ("" when about the whole block)
	Pointer string // where in package.json
	Message string
	// Faults are what is wrong with a DepBadEntry entry (DepFault*).
	Faults []string
	// Edge is the edge the problem is about, as far as it could be read:
	// the canonical entry of a DepBadEntry, DepDuplicate or DepWeakened
	// problem, the legacy edge (its Range the legacy range) of a
	// DepMissing one; zero for the others.
	Edge DependencyEdge
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

// ConstraintValueKey is the versionConstraint member that holds the value
// of a constraint of kind kind ("" for an unknown kind).
func ConstraintValueKey(kind string) string {
	switch kind {
	case "semver-range":
		return "range"
	case "exact":
		return "version"
	case "git-ref":
		return "ref"
	}
	return ""
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
	problem := func(code, reason, ptr, msg string, e DependencyEdge) *DependencyProblem {
		out.Problems = append(out.Problems, DependencyProblem{Code: code, Reason: reason, Package: e.Package, Pointer: ptr, Message: msg, Edge: e})
		return &out.Problems[len(out.Problems)-1]
	}

	var canonical []DependencyEdge
	canonicalGiven, canonicalList := false, false
	if raw := c.Get("dependencies"); raw != nil {
		ptr := "/cinatra/dependencies"
		canonicalGiven = true
		if raw.Kind != Array {
			problem(DepMalformed, DepNotList, ptr, fmt.Sprintf("cinatra.dependencies must be an array (got %s); declare \"no dependencies\" as []", raw.Kind), DependencyEdge{})
		} else {
			canonicalList = true
			seen := map[string]bool{}
			for i, it := range raw.Items {
				ep := AppendIndex(ptr, i)
				e, faults := depEntry(it, self, ep)
				if len(faults) > 0 {
					msgs := make([]string, len(faults))
					for j, f := range faults {
						msgs[j] = depFaultMessage(f, e)
					}
					problem(DepMalformed, DepBadEntry, ep, "malformed cinatra.dependencies entry: "+strings.Join(msgs, "; "), e).Faults = faults
					continue
				}
				if seen[e.Package] {
					problem(DepMalformed, DepDuplicate, ep, "duplicate cinatra.dependencies entry for "+e.Package, e)
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
			problem(DepMalformed, DepLegacyNotMap, ptr, "cinatra.agentDependencies must be a { name: range } map (got "+got+")", DependencyEdge{})
		} else {
			var by map[string]DependencyEdge
			if canonicalList {
				by = make(map[string]DependencyEdge, len(canonical))
				for _, e := range canonical {
					by[e.Package] = e
				}
			}
			seen := make(map[string]bool, len(raw.Members))
			for _, m := range raw.Members {
				if seen[m.Key] {
					continue
				}
				seen[m.Key] = true
				ep := Append(ptr, m.Key)
				rng, ok := raw.Get(m.Key).Str() // the key's last value, as JSON.parse keeps it
				l := DependencyEdge{Package: m.Key, EdgeType: "runtime", Requirement: "required",
					Constraint: "semver-range", Range: rng, Pointer: ep}
				switch {
				case m.Key == "" || !ok || rng == "":
					problem(DepMalformed, DepLegacyBadEntry, ep, fmt.Sprintf("malformed cinatra.agentDependencies entry %q: both name and range must be non-empty strings", m.Key), DependencyEdge{Package: m.Key})
					continue
				case self != "" && m.Key == self:
					problem(DepMalformed, DepLegacySelf, ep, "cinatra.agentDependencies self-edge (a package cannot depend on itself)", DependencyEdge{Package: m.Key})
					continue
				}
				legacy = append(legacy, l)
				if !canonicalList {
					continue
				}
				switch e, found := by[l.Package]; {
				case !found:
					problem(DepConflict, DepMissing, l.Pointer, l.Package+" is declared in cinatra.agentDependencies but missing from cinatra.dependencies (the canonical list is the source of truth; the legacy map may only restate its required runtime/install-time edges)", l)
				case e.Requirement != "required" || e.EdgeType == "peer":
					problem(DepConflict, DepWeakened, e.Pointer, fmt.Sprintf("%s is a required runtime edge in cinatra.agentDependencies but declared %s/%s in cinatra.dependencies", l.Package, e.EdgeType, e.Requirement), e)
				}
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

// depFaultMessage words one fault of the canonical entry e.
func depFaultMessage(fault string, e DependencyEdge) string {
	switch fault {
	case DepFaultNotObject:
		return "entry is not an object"
	case DepFaultPackageName:
		return "packageName must be a non-empty string"
	case DepFaultSelf:
		return "self-edge (a package cannot depend on itself)"
	case DepFaultEdgeType:
		return "edgeType must be one of " + strings.Join(depEdgeTypes, "|")
	case DepFaultRequirement:
		return "requirement must be one of " + strings.Join(depRequirements, "|")
	case DepFaultKind:
		return "kind, when present, must be one of " + strings.Join(depKinds, "|")
	case DepFaultRole:
		return "role, when present, must be one of " + strings.Join(depSkillRoles, "|")
	case DepFaultRoleOffSkill:
		return "role is only meaningful on a kind:\"skill\" edge"
	case DepFaultConstraint:
		return "versionConstraint must be an object"
	case DepFaultConstraintKind:
		return "versionConstraint.kind must be one of semver-range|exact|git-ref"
	case DepFaultConstraintValue:
		return "versionConstraint." + ConstraintValueKey(e.Constraint) + " must be a non-empty string"
	}
	return fault
}

// depEntry reads one canonical entry and lists its faults (DepFault*).
func depEntry(n *Node, self, ptr string) (DependencyEdge, []string) {
	e := DependencyEdge{Pointer: ptr}
	if n == nil || n.Kind != Object {
		return e, []string{DepFaultNotObject}
	}
	var faults []string
	str := func(key string) (string, bool) { return n.Get(key).Str() }
	if v, ok := str("packageName"); !ok || v == "" {
		faults = append(faults, DepFaultPackageName)
	} else {
		e.Package = v
		if self != "" && v == self {
			faults = append(faults, DepFaultSelf)
		}
	}
	e.EdgeType, _ = str("edgeType")
	if !depOneOf(e.EdgeType, depEdgeTypes) || !n.Get("edgeType").Is(String) {
		faults = append(faults, DepFaultEdgeType)
	}
	e.Requirement, _ = str("requirement")
	if !depOneOf(e.Requirement, depRequirements) || !n.Get("requirement").Is(String) {
		faults = append(faults, DepFaultRequirement)
	}
	if k := n.Get("kind"); k != nil {
		e.Kind, _ = k.Str()
		if k.Kind != String || !depOneOf(e.Kind, depKinds) {
			faults = append(faults, DepFaultKind)
		}
	}
	if r := n.Get("role"); r != nil {
		e.Role, _ = r.Str()
		switch {
		case r.Kind != String || !depOneOf(e.Role, depSkillRoles):
			faults = append(faults, DepFaultRole)
		case e.Kind != "skill":
			faults = append(faults, DepFaultRoleOffSkill)
		}
	}
	vc := n.Get("versionConstraint")
	if vc == nil || vc.Kind != Object {
		return e, append(faults, DepFaultConstraint)
	}
	e.Constraint = vc.Get("kind").StringOr("")
	field := ConstraintValueKey(e.Constraint)
	if field == "" || !vc.Get("kind").Is(String) {
		return e, append(faults, DepFaultConstraintKind)
	}
	if v, ok := vc.Get(field).Str(); !ok || v == "" {
		faults = append(faults, DepFaultConstraintValue)
	} else {
		e.Range = v
	}
	return e, faults
}
