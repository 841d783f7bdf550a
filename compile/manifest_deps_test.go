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
