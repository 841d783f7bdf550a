package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestManifestDependencyFindings pins what the three rules that read
// package.json's dependency vocabularies (manifest_dependencies_malformed,
// manifest_dependencies_conflict, produces_dependency_missing) say about
// each shape the platform's reader distinguishes (cinatra-ai/cinatra
// packages/extensions/src/manifest-dependencies.ts @496336f8): message,
// position, pointer and fixes, byte for byte, in
// testdata/manifest_deps/findings.golden (`go test ./lint -update`
// rewrites it).
func TestManifestDependencyFindings(t *testing.T) {
	const ok = `{"packageName":"@x/ok","edgeType":"runtime","requirement":"required","versionConstraint":{"kind":"semver-range","range":"^1"}}`
	entry := func(fields string) string { return `{` + fields + `}` }
	cases := []struct{ name, cinatra string }{
		{"no cinatra block", ``},
		{"canonical ok", `"dependencies":[` + ok + `]`},
		{"canonical null", `"dependencies":null`},
		{"canonical object", `"dependencies":{}`},
		{"canonical null beside legacy", `"dependencies":null,"agentDependencies":{"@x/ok":"^1"}`},
		{"entry not an object", `"dependencies":[7]`},
		{"entry empty", `"dependencies":[{}]`},
		{"entry self", `"dependencies":[` + entry(`"packageName":"@acme/me","edgeType":"runtime","requirement":"required","versionConstraint":{"kind":"exact","version":"1.0.0"}`) + `]`},
		{"entry bad enums", `"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"build","requirement":"maybe","kind":"tool","versionConstraint":{"kind":"tag","range":"x"}`) + `]`},
		{"entry non-string enums", `"dependencies":[` + entry(`"packageName":5,"edgeType":1,"requirement":null,"kind":null,"versionConstraint":[]`) + `]`},
		{"entry role off a skill edge", `"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"runtime","requirement":"optional","kind":"agent","role":"matcher","versionConstraint":{"kind":"git-ref","ref":"main"}`) + `]`},
		{"entry role without kind", `"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"runtime","requirement":"optional","role":"authoring","versionConstraint":{"kind":"git-ref","ref":"main"}`) + `]`},
		{"entry role on a skill edge", `"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"runtime","requirement":"optional","kind":"skill","role":"matcher","versionConstraint":{"kind":"git-ref","ref":"main"}`) + `]`},
		{"entry unknown role on a skill edge", `"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"runtime","requirement":"optional","kind":"skill","role":"judge","versionConstraint":{"kind":"git-ref","ref":"main"}`) + `]`},
		{"entry unknown role off a skill edge", `"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"runtime","requirement":"optional","kind":"agent","role":7,"versionConstraint":{"kind":"git-ref","ref":"main"}`) + `]`},
		{"entry empty versions", `"dependencies":[` +
			entry(`"packageName":"@x/a","edgeType":"peer","requirement":"optional","versionConstraint":{"kind":"semver-range","range":""}`) + `,` +
			entry(`"packageName":"@x/b","edgeType":"peer","requirement":"optional","versionConstraint":{"kind":"exact"}`) + `,` +
			entry(`"packageName":"@x/c","edgeType":"peer","requirement":"optional","versionConstraint":{"kind":"git-ref","ref":3}`) + `,` +
			entry(`"packageName":"@x/d","edgeType":"peer","requirement":"optional","versionConstraint":"^1"`) + `]`},
		{"entry duplicate", `"dependencies":[` + ok + `,` + ok + `]`},
		{"legacy null", `"agentDependencies":null`},
		{"legacy list", `"agentDependencies":["@x/y"]`},
		{"legacy entries", `"agentDependencies":{"":"^1","@x/a":"","@x/b":3,"@acme/me":"^1","@x/ok":"^2"}`},
		{"legacy duplicate key, last wins", `"agentDependencies":{"@x/a":"","@x/a":"^1"},"dependencies":[]`},
		{"legacy missing from canonical", `"agentDependencies":{"@x/a":"^1","@x/ok":"^1"},"dependencies":[` + ok + `]`},
		{"legacy against a malformed canonical entry", `"agentDependencies":{"@x/y":"^1"},"dependencies":[` + entry(`"packageName":"@x/y","edgeType":"build","requirement":"required","versionConstraint":{"kind":"semver-range","range":"^1"}`) + `]`},
		{"legacy weakened in canonical", `"agentDependencies":{"@x/a":"^1","@x/b":"^1","@x/c":"^1"},"dependencies":[` +
			entry(`"packageName":"@x/a","edgeType":"peer","requirement":"required","versionConstraint":{"kind":"semver-range","range":"^1"}`) + `,` +
			entry(`"packageName":"@x/b","edgeType":"install-time","requirement":"optional","versionConstraint":{"kind":"semver-range","range":"^1"}`) + `,` +
			entry(`"packageName":"@x/c","edgeType":"install-time","requirement":"required","versionConstraint":{"kind":"semver-range","range":"^1"}`) + `]`},
		{"legacy bad entry beside canonical", `"agentDependencies":{"@x/a":"","@x/b":"^1"},"dependencies":[]`},
		{"produces without dependencies", `"produces":[{"extension":"@x/art","objectType":"doc"}]`},
		{"produces with legacy only", `"produces":[{"extension":"@x/art"}],"agentDependencies":{"@x/art":"^1"}`},
		{"produces with an artifact edge", `"produces":[{"extension":"@x/art"}],"dependencies":[` + entry(`"packageName":"@x/art","edgeType":"runtime","requirement":"required","kind":"artifact","versionConstraint":{"kind":"semver-range","range":"*"}`) + `]`},
		{"produces with weak edges", `"produces":[{"extension":"@x/a"},{"extension":"@x/b"},{"extension":"@x/c"},{"extension":"@x/a"},{"extension":""},{"extension":4}],"dependencies":[` +
			entry(`"packageName":"@x/a","edgeType":"runtime","requirement":"optional","kind":"artifact","versionConstraint":{"kind":"semver-range","range":"*"}`) + `,` +
			entry(`"packageName":"@x/b","edgeType":"peer","requirement":"required","kind":"artifact","versionConstraint":{"kind":"semver-range","range":"*"}`) + `,` +
			entry(`"packageName":"@x/c","edgeType":"runtime","requirement":"required","kind":"agent","versionConstraint":{"kind":"semver-range","range":"*"}`) + `]`},
		{"produces against a malformed edge", `"produces":[{"extension":"@x/art"}],"dependencies":[` + entry(`"packageName":"@x/art","edgeType":"runtime","requirement":"required","kind":"artefact","versionConstraint":{"kind":"semver-range","range":"*"}`) + `]`},
		{"produces with canonical null", `"produces":[{"extension":"@x/art"}],"dependencies":null`},
	}
	flow := []byte(`{"component_type":"Flow","id":"f","name":"f","metadata":{"cinatra":{"produces":[{"extension":"@x/mirror"}]}}}`)
	var b strings.Builder
	for _, c := range cases {
		pkg := `{"name":"@acme/me","version":"0.1.0"`
		if c.cinatra != "" {
			pkg += `,"cinatra":{` + c.cinatra + `}`
		}
		pkg += `}`
		a := &compile.Agent{Flow: compile.ParseDoc("oas.json", flow), Package: compile.ParseDoc("package.json", []byte(pkg)), Profile: compile.ProfileCinatra}
		if a.Package.Root == nil {
			t.Fatalf("%s: package.json does not parse: %s", c.name, pkg)
		}
		p := &Pass{Agent: a, Config: &Config{}}
		checkPlatformInvariants(p)
		fmt.Fprintf(&b, "== %s\n", c.name)
		for _, f := range p.Findings() {
			switch f.Code {
			case RuleManifestDependenciesMalformed.Code, RuleManifestDependenciesConflict.Code, RuleProducesDependencyMissing.Code:
			default:
				continue
			}
			fmt.Fprintf(&b, "%s:%d:%d [%s] %s: %s\n", f.File, f.Line, f.Column, f.Code, f.Location, f.Message)
			for _, x := range f.Fixes {
				js, err := json.Marshal(x)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "  fix %s\n", js)
			}
		}
	}
	golden := filepath.Join("testdata", "manifest_deps", "findings.golden")
	if updateGoldens() {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("findings differ from %s (go test ./lint -run TestManifestDependencyFindings -update rewrites it):\n%s", golden, firstDiff(string(want), got))
	}
}
