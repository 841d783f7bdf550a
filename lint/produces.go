package lint

import (
	"fmt"
	"strings"

	"github.com/oastui/oastui/compile"
)

// The compile refusal and the compile warning of today's platform about
// what a package promises to produce (reference cinatra.md §17.2), reported
// where the author can act on them: the compile gate stops on the first,
// and the second names a promise nothing keeps. The rules themselves are
// the compiler's (compile.CheckProducesMirror, compile.ProducesWithoutRoad).

var (
	RuleProducesMirrorMismatch = &Rule{Code: "produces_mirror_mismatch", Severity: compile.Blocker, Group: "package",
		Doc: "metadata.cinatra.produces (the flow's optional mirror) disagrees with package.json cinatra.produces entry for entry, or one of the two cannot be read; the platform's compiler refuses the agent (cinatra#3095, compareAgentProducesMirror)",
		Fix: "make metadata.cinatra.produces a copy of package.json cinatra.produces ({extension, objectTypeId?} entries, any order), or remove the mirror; an unreadable manifest block is fixed in package.json"}
	RuleArtifactBindingRefused = &Rule{Code: "artifact_binding_refused", Severity: compile.Blocker, Group: "package",
		Doc: "an outputs[].cinatra.artifact binding or an artifact_materialize passthrough node breaks the compiler's artifact grammar, or names an extension package.json cinatra.produces does not declare: the platform's compiler refuses the agent (oas-compiler.ts steps 10b/10c; scan-all's advisory OAS-RUNTIME-009 reports the same error)",
		Fix: "correct the binding or the node's data.input as the message says, or declare its extension in package.json cinatra.produces"}
	RuleProducesWithoutRoad = &Rule{Code: "produces_without_road", Severity: compile.Warning, Group: "package",
		Doc: "package.json cinatra.produces promises an artifact extension the flow wires no road for (no outputs[].cinatra.artifact binding, no artifact_materialize node): the platform's compiler warns [artifact-binding] and a run materializes nothing for it (cinatra#3051)",
		Fix: "bind an EndNode output to the extension (outputs[].cinatra.artifact) or add an artifact_materialize node for it, or drop the promise"}
)

var passProduces = &Check{Name: "scan_produces", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkProduces}

func checkProduces(p *Pass) {
	a := p.Agent
	if m := compile.CheckProducesMirror(a); m != nil {
		if m.Manifest {
			p.Report(a.Package, "/cinatra/produces", RuleProducesMirrorMismatch, m.Msg)
		} else {
			p.Report(a.Flow, "/metadata/cinatra/produces", RuleProducesMirrorMismatch, m.Msg)
		}
	}
	for _, r := range compile.ArtifactRefusals(a) {
		what := "artifact binding"
		if r.Materialize {
			what = "artifact_materialize node"
		}
		p.Report(a.Flow, compile.PointerOf(r.At), RuleArtifactBindingRefused,
			"the platform's compiler refuses this "+what+", so the agent does not compile or publish: "+r.Msg)
	}
	roadless := compile.ProducesWithoutRoad(a)
	if len(roadless) == 0 {
		return
	}
	missing := map[string]bool{}
	for _, e := range roadless {
		missing[e] = true
	}
	for i, it := range a.Package.Root.Path("cinatra", "produces").Items {
		ext := it.Get("extension").StringOr("")
		if !missing[ext] {
			continue
		}
		delete(missing, ext) // one finding per extension, at its first entry
		p.Report(a.Package, compile.AppendIndex("/cinatra/produces", i), RuleProducesWithoutRoad,
			fmt.Sprintf("package.json cinatra.produces promises %s, but the flow wires no road for it: no outputs[].cinatra.artifact binding and no artifact_materialize node names it, so a run materializes nothing for it and opens no review gate (the platform's compiler warns [artifact-binding]; the compile succeeds). Roadless: %s",
				ext, strings.Join(roadless, ", ")))
	}
}
