package diff

import "github.com/oastui/oastui/compile"

// The two checks of a hasArtifactBindings flip (approval safety: the platform
// reviews only artifact-bound output).
var (
	CheckArtifactBindingsRemoved = &Check{ID: "diff_artifact_bindings_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_artifact_bindings_added", Doc: "The compiled hasArtifactBindings flipped true → false (cinatra#2498): the flow declares no outputs[].cinatra.artifact binding any more, and the platform, which reviews only artifact-bound work, opens no review of its runs' output."}
	CheckArtifactBindingsAdded   = &Check{ID: "diff_artifact_bindings_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_artifact_bindings_removed", Doc: "The compiled hasArtifactBindings flipped false → true (cinatra#2498): the flow declares an artifact binding now, and the platform reviews the bound output of its runs."}
)

// artifactBindings: the compiled hasArtifactBindings flipped (cinatra#2498).
// The platform persists it with each version and asks it before opening a
// review of a run's output: a review exists only for work bound to an
// artifact, so a flow that stops declaring bindings stops being reviewed.
// Compared when both sides compiled.
func (d *differ) artifactBindings() {
	o, n := d.old.s.Compiled, d.new.s.Compiled
	if o == nil || n == nil || o.HasArtifactBindings == n.HasArtifactBindings {
		return
	}
	if n.HasArtifactBindings {
		d.add(CheckArtifactBindingsAdded, "hasArtifactBindings", "", "false", "true",
			"the compiled output declares artifact bindings now (hasArtifactBindings false → true): the platform reviews the bound output of its runs", nil, pos(d.new.flow, bindingPtr(d.new.flow)))
		return
	}
	d.add(CheckArtifactBindingsRemoved, "hasArtifactBindings", "", "true", "false",
		"the compiled output no longer declares artifact bindings (hasArtifactBindings true → false): the platform opens no review of its runs' output", pos(d.old.flow, bindingPtr(d.old.flow)), nil)
}

// bindingPtr points at the first outputs[].cinatra.artifact of an EndNode
// of the flow's $referenced_components, or at the document's root.
func bindingPtr(doc *compile.Doc) string {
	if doc == nil || doc.Root == nil {
		return ""
	}
	refs := doc.Root.Get("$referenced_components")
	if !refs.Is(compile.Object) {
		return ""
	}
	for _, m := range refs.Members {
		if compile.ComponentType(m.Value) != "EndNode" {
			continue
		}
		outs := m.Value.Get("outputs")
		if !outs.Is(compile.Array) {
			continue
		}
		for i, o := range outs.Items {
			if a := o.Get("cinatra").Get("artifact"); a != nil && a.Kind != compile.Null {
				return compile.Append(compile.AppendIndex(compile.Append(compile.Pointer("$referenced_components", m.Key), "outputs"), i), "cinatra")
			}
		}
	}
	return ""
}
