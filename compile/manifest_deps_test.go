package compile

import (
	"strings"
	"testing"
)

// The cases follow the rules of the platform's manifest reader
// (cinatra-ai/cinatra packages/extensions/src/manifest-dependencies.ts
// @496336f8, parseManifestDependencyEdges).
func TestManifestDependencies(t *testing.T) {
	const csa = `{"packageName":"@cinatra-ai/context-selection-agent","edgeType":"runtime","versionConstraint":{"kind":"semver-range","range":"^0.1.0"},"requirement":"required","kind":"agent"}`
	cases := []struct {
		name, src   string
		source      string
		edges       []string // package:edgeType/requirement
		problems    []string // code@pointer
		problemText string   // a word of the first problem's message
	}{
		{name: "none", src: `{"name":"@a/b"}`, source: DepsNone},
		{name: "canonical", src: `{"name":"@a/b","cinatra":{"dependencies":[` + csa + `]}}`, source: DepsCanonical,
			edges: []string{"@cinatra-ai/context-selection-agent:runtime/required"}},
		{name: "canonical empty wins over nothing", src: `{"cinatra":{"dependencies":[]}}`, source: DepsCanonical},
		{name: "legacy projected", src: `{"cinatra":{"agentDependencies":{"@cinatra-ai/context-selection-agent":"^0.1.1"}}}`, source: DepsLegacy,
			edges: []string{"@cinatra-ai/context-selection-agent:runtime/required"}},
		{name: "legacy empty map", src: `{"cinatra":{"agentDependencies":{}}}`, source: DepsNone},
		{name: "both agree (ranges not compared)", src: `{"cinatra":{"agentDependencies":{"@cinatra-ai/context-selection-agent":"^0.1.1"},"dependencies":[` + csa + `]}}`,
			source: DepsCanonical, edges: []string{"@cinatra-ai/context-selection-agent:runtime/required"}},
		{name: "both, legacy missing from canonical", src: `{"cinatra":{"agentDependencies":{"@x/y":"^1"},"dependencies":[` + csa + `]}}`,
			source: DepsCanonical, edges: []string{"@cinatra-ai/context-selection-agent:runtime/required"},
			problems: []string{"CONFLICT@/cinatra/agentDependencies/@x~1y"}, problemText: "missing from cinatra.dependencies"},
		{name: "both, canonical weaker", src: `{"cinatra":{"agentDependencies":{"@x/y":"^1"},"dependencies":[{"packageName":"@x/y","edgeType":"peer","requirement":"required","versionConstraint":{"kind":"exact","version":"1.0.0"}}]}}`,
			source: DepsCanonical, edges: []string{"@x/y:peer/required"},
			problems: []string{"CONFLICT@/cinatra/dependencies/0"}, problemText: "peer/required"},
		{name: "canonical null", src: `{"cinatra":{"dependencies":null}}`, source: DepsCanonical,
			problems: []string{"MALFORMED@/cinatra/dependencies"}, problemText: "must be an array"},
		{name: "legacy null", src: `{"cinatra":{"agentDependencies":null}}`, source: DepsNone,
			problems: []string{"MALFORMED@/cinatra/agentDependencies"}, problemText: "map"},
		{name: "legacy self edge and empty range", src: `{"name":"@a/b","cinatra":{"agentDependencies":{"@a/b":"^1","@c/d":""}}}`, source: DepsNone,
			problems: []string{"MALFORMED@/cinatra/agentDependencies/@a~1b", "MALFORMED@/cinatra/agentDependencies/@c~1d"}, problemText: "self-edge"},
		{name: "canonical bad enums", src: `{"cinatra":{"dependencies":[{"packageName":"@x/y","edgeType":"build","requirement":"maybe","kind":"tool","versionConstraint":{"kind":"tag","range":"x"}}]}}`,
			source: DepsCanonical, problems: []string{"MALFORMED@/cinatra/dependencies/0"}, problemText: "edgeType must be one of runtime|install-time|peer"},
		{name: "role off a skill edge", src: `{"cinatra":{"dependencies":[{"packageName":"@x/y","edgeType":"runtime","requirement":"optional","kind":"agent","role":"matcher","versionConstraint":{"kind":"git-ref","ref":"main"}}]}}`,
			source: DepsCanonical, problems: []string{"MALFORMED@/cinatra/dependencies/0"}, problemText: "role is only meaningful"},
		{name: "canonical duplicate and self", src: `{"name":"@a/b","cinatra":{"dependencies":[` + csa + `,` + csa + `,{"packageName":"@a/b","edgeType":"runtime","requirement":"required","versionConstraint":{"kind":"semver-range","range":"*"}}]}}`,
			source: DepsCanonical, edges: []string{"@cinatra-ai/context-selection-agent:runtime/required"},
			problems: []string{"MALFORMED@/cinatra/dependencies/1", "MALFORMED@/cinatra/dependencies/2"}, problemText: "duplicate"},
		{name: "empty version", src: `{"cinatra":{"dependencies":[{"packageName":"@x/y","edgeType":"install-time","requirement":"required","versionConstraint":{"kind":"semver-range","range":""}}]}}`,
			source: DepsCanonical, problems: []string{"MALFORMED@/cinatra/dependencies/0"}, problemText: "versionConstraint.range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := ManifestDependencies(ParseDoc("package.json", []byte(c.src)))
			if d.Source != c.source {
				t.Errorf("source %q, want %q", d.Source, c.source)
			}
			var edges []string
			for _, e := range d.Edges {
				edges = append(edges, e.Package+":"+e.EdgeType+"/"+e.Requirement)
			}
			if strings.Join(edges, ",") != strings.Join(c.edges, ",") {
				t.Errorf("edges %v, want %v", edges, c.edges)
			}
			var probs []string
			for _, p := range d.Problems {
				probs = append(probs, p.Code+"@"+p.Pointer)
			}
			if strings.Join(probs, ",") != strings.Join(c.problems, ",") {
				t.Errorf("problems %v, want %v (%+v)", probs, c.problems, d.Problems)
			}
			if c.problemText != "" && (len(d.Problems) == 0 || !strings.Contains(d.Problems[0].Message, c.problemText)) {
				t.Errorf("first problem %+v does not say %q", d.Problems, c.problemText)
			}
		})
	}
	if d := ManifestDependencies(nil); d.Source != DepsNone || len(d.Edges)+len(d.Problems) != 0 {
		t.Errorf("nil: %+v", d)
	}
	d := ManifestDependencies(ParseDoc("package.json", []byte(`{"cinatra":{"agentDependencies":{"@x/y":"^2"}}}`)))
	if e, ok := d.Edge("@x/y"); !ok || !e.RuntimeRequired() || e.Range != "^2" || e.Kind != "" {
		t.Errorf("legacy edge %+v %v", e, ok)
	}
	if _, ok := d.Edge("@x/z"); ok {
		t.Error("Edge found a package that is not there")
	}
}

// TestManifestDependencyReasons: each problem says which rule it breaks,
// what is wrong with a malformed entry and which edge it is about, so a
// caller (lint's manifest rules) can word it without reading package.json
// again; the legacy map is read as JSON.parse leaves it (a key written
// twice: one entry with its last value), and a canonical block that is not
// a list is refused before any comparison (no CONFLICT), as the platform's
// reader throws on it first (cinatra-ai/cinatra
// packages/extensions/src/manifest-dependencies.ts @496336f8).
func TestManifestDependencyReasons(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // reason@pointer[faults]{package edgeType/requirement range}
	}{
		{"not a list beside legacy", `{"cinatra":{"dependencies":null,"agentDependencies":{"@x/a":"^1"}}}`,
			[]string{"not-list@/cinatra/dependencies[]{ / }"}},
		{"every fault", `{"name":"@a/b","cinatra":{"dependencies":[7,{"packageName":"@a/b","edgeType":"build","requirement":1,"kind":"tool","role":"judge","versionConstraint":[]},{"packageName":"","edgeType":"peer","requirement":"optional","kind":"agent","role":"matcher","versionConstraint":{"kind":"tag"}},{"packageName":"@x/c","edgeType":"peer","requirement":"optional","versionConstraint":{"kind":"exact","version":""}}]}}`,
			[]string{"bad-entry@/cinatra/dependencies/0[not-object]{ / }",
				"bad-entry@/cinatra/dependencies/1[self edge-type requirement kind role constraint]{@a/b build/ }",
				"bad-entry@/cinatra/dependencies/2[package-name role-off-skill constraint-kind]{ peer/optional }",
				"bad-entry@/cinatra/dependencies/3[constraint-value]{@x/c peer/optional }"}},
		{"duplicate", `{"cinatra":{"dependencies":[{"packageName":"@x/a","edgeType":"runtime","requirement":"required","versionConstraint":{"kind":"git-ref","ref":"v1"}},{"packageName":"@x/a","edgeType":"peer","requirement":"optional","versionConstraint":{"kind":"git-ref","ref":"v2"}}]}}`,
			[]string{"duplicate@/cinatra/dependencies/1[]{@x/a peer/optional v2}"}},
		{"legacy not a map", `{"cinatra":{"agentDependencies":["@x/a"]}}`, []string{"legacy-not-map@/cinatra/agentDependencies[]{ / }"}},
		{"legacy entries in document order, conflicts beside them", `{"name":"@a/b","cinatra":{"agentDependencies":{"@x/m":"^1","":"^1","@a/b":"^1","@x/w":"^2","@x/n":""},"dependencies":[{"packageName":"@x/w","edgeType":"install-time","requirement":"optional","versionConstraint":{"kind":"semver-range","range":"*"}}]}}`,
			[]string{"missing@/cinatra/agentDependencies/@x~1m[]{@x/m runtime/required ^1}",
				"legacy-bad-entry@/cinatra/agentDependencies/[]{ / }",
				"legacy-self@/cinatra/agentDependencies/@a~1b[]{@a/b / }",
				"weakened@/cinatra/dependencies/0[]{@x/w install-time/optional *}",
				"legacy-bad-entry@/cinatra/agentDependencies/@x~1n[]{@x/n / }"}},
		{"legacy key twice: last value wins", `{"cinatra":{"agentDependencies":{"@x/a":"","@x/b":"^1","@x/a":"^3"},"dependencies":[]}}`,
			[]string{"missing@/cinatra/agentDependencies/@x~1a[]{@x/a runtime/required ^3}",
				"missing@/cinatra/agentDependencies/@x~1b[]{@x/b runtime/required ^1}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range ManifestDependencies(ParseDoc("package.json", []byte(c.src))).Problems {
				if p.Package != p.Edge.Package && p.Reason != DepLegacyBadEntry {
					t.Errorf("%s: Package %q but Edge.Package %q", p.Reason, p.Package, p.Edge.Package)
				}
				got = append(got, p.Reason+"@"+p.Pointer+"["+strings.Join(p.Faults, " ")+"]{"+p.Edge.Package+" "+p.Edge.EdgeType+"/"+p.Edge.Requirement+" "+p.Edge.Range+"}")
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	d := ManifestDependencies(ParseDoc("package.json", []byte(`{"cinatra":{"agentDependencies":{"@x/a":"","@x/a":"^2"}}}`)))
	if e, ok := d.Edge("@x/a"); len(d.Edges) != 1 || !ok || e.Range != "^2" || len(d.Problems) != 0 {
		t.Errorf("legacy key twice: %+v", d)
	}
	for kind, key := range map[string]string{"semver-range": "range", "exact": "version", "git-ref": "ref", "tag": "", "": ""} {
		if got := ConstraintValueKey(kind); got != key {
			t.Errorf("ConstraintValueKey(%q) = %q, want %q", kind, got, key)
		}
	}
}
