package compile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The platform's own cases, one per fixture. Sources, in cinatra-ai/cinatra:
//   - mirror: the compile cases and the pure-rule cases of the produces
//     mirror test of packages/agents/src/__tests__ (cinatra#3095, importing
//     compileOasAgentJson and compareAgentProducesMirror from ../oas-compiler);
//   - road: the produces-road test beside it (cinatra#3051, importing
//     producesWithoutMaterializationRoad from ../artifact-binding).
const (
	prodExt  = "@cinatra-ai/email-artifacts"
	prodType = "@cinatra-ai/email:body"
)

// producesAgent is the platform test's fixture: a one-step flow whose
// metadata.cinatra.produces is mirror ("" = absent) and whose package.json
// cinatra.produces is manifest ("" = absent); bound adds an EndNode
// output binding to ext, materialize an artifact_materialize node for ext.
func producesAgent(t *testing.T, mirror, manifest, bound, materialize string) *Agent {
	t.Helper()
	meta := `{"type":"leaf"`
	if mirror != "" {
		meta += `,"produces":` + mirror
	}
	meta += `}`
	end := `{"component_type":"EndNode","id":"e","name":"E","outputs":[{"title":"title","type":"string"}`
	if bound != "" {
		end += `,{"title":"content","type":"string","cinatra":{"artifact":{"extension":"` + bound + `","titleFrom":"title","contentFrom":"content","declaredMime":"text/markdown"}}}`
	}
	end += `]}`
	order, edges := []string{"s", "e"}, []string{"s>e"}
	comps := map[string]string{"s": startC, "e": end}
	if materialize != "" {
		order, edges = []string{"s", "m", "e"}, []string{"s>m", "m>e"}
		comps["m"] = `{"component_type":"ApiNode","id":"m","name":"M","url":"{{CINATRA_BASE_URL}}/api/agents/passthrough","http_method":"POST",
			"data":{"tool":"artifact_materialize","input":{"extension":"` + materialize + `","content":"{{ c }}","title":"{{ t }}","declaredMime":"text/markdown","node_id":"m"}}}`
	}
	pkg := `{"name":"@test/mirror-agent","version":"1.0.0","cinatra":{`
	if manifest != "" {
		pkg += `"produces":` + manifest
	}
	pkg += `}}`
	return memAgent(t, flowJSON(meta, order, edges, nil, comps), pkg)
}

func TestProducesMirror(t *testing.T) {
	typed := `[{"extension":"` + prodExt + `","objectTypeId":"` + prodType + `"}]`
	coarse := `[{"extension":"` + prodExt + `"}]`
	for _, tc := range []struct {
		name, mirror, manifest string
		refused                bool
		manifestSide           bool
		contains               []string
	}{
		{name: "REFUSES a mirror naming another extension", mirror: `[{"extension":"@cinatra-ai/text-artifact"}]`, manifest: typed,
			refused: true, contains: []string{"produces-mirror validation failed", "@cinatra-ai/text-artifact", prodType}},
		{name: "REFUSES a mirror dropping the manifest's typed id", mirror: coarse, manifest: typed, refused: true},
		{name: "REFUSES a mirror claiming production the manifest does not declare", mirror: coarse, refused: true},
		{name: "REFUSES a mirror the compiler cannot read", mirror: `{"extension":"` + prodExt + `"}`, manifest: coarse, refused: true,
			contains: []string{"metadata.cinatra.produces could not be read"}},
		{name: "ACCEPTS a mirror equal to the manifest", mirror: typed, manifest: typed},
		{name: "ACCEPTS an absent mirror", manifest: typed},
		{name: "REFUSES a faithful mirror beside an unreadable manifest, naming the manifest", mirror: coarse,
			manifest: `[{"extension":"` + prodExt + `"},{"objectTypeId":"` + prodType + `"}]`, refused: true, manifestSide: true,
			contains: []string{"package.json cinatra.produces could not be read whole"}},
		{name: "ACCEPTS an empty mirror beside an absent manifest", mirror: `[]`},
		{name: "pure: order is ignored", mirror: `[{"extension":"@a/b"},{"extension":"@c/d","objectTypeId":"@c/d:x"}]`,
			manifest: `[{"extension":"@c/d","objectTypeId":"@c/d:x"},{"extension":"@a/b"}]`},
		{name: "pure: a label collision is not an agreement", mirror: `[{"extension":"@a/b (c)"}]`, manifest: `[{"extension":"@a/b","objectTypeId":"c"}]`, refused: true},
		{name: "pure: both readings are named when they differ", mirror: `[{"extension":"@a/b"}]`, manifest: `[{"extension":"@c/d"}]`, refused: true,
			contains: []string{"metadata.cinatra.produces", "package.json cinatra.produces", "disagrees with the package manifest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := producesAgent(t, tc.mirror, tc.manifest, "", "")
			m := CheckProducesMirror(a)
			if (m != nil) != tc.refused {
				t.Fatalf("CheckProducesMirror = %+v, want refused %v", m, tc.refused)
			}
			_, err := Compile(a)
			var ce *CompileError
			if tc.refused != errors.As(err, &ce) {
				t.Fatalf("Compile error %v, want refused %v", err, tc.refused)
			}
			if !tc.refused {
				return
			}
			if m.Manifest != tc.manifestSide {
				t.Errorf("manifest named %v, want %v", m.Manifest, tc.manifestSide)
			}
			if tc.manifestSide && strings.Contains(ce.Msg, "disagrees with the package manifest") {
				t.Errorf("the mirror is blamed for the manifest: %s", ce.Msg)
			}
			for _, s := range tc.contains {
				if !strings.Contains(ce.Msg, s) {
					t.Errorf("error %q lacks %q", ce.Msg, s)
				}
			}
		})
	}
}

func TestProducesRoadAndHasArtifactBindings(t *testing.T) {
	const ext = "@cinatra-ai/blog-post-artifact"
	for _, tc := range []struct {
		name                         string
		manifest, bound, materialize string
		wantRoadless                 []string
		wantBindings                 bool
	}{
		{name: "NAMES the unkept promise", manifest: `[{"extension":"` + ext + `"}]`, wantRoadless: []string{ext}},
		{name: "one bound output is a road", manifest: `[{"extension":"` + ext + `"}]`, bound: ext, wantBindings: true},
		{name: "an artifact_materialize node is a road", manifest: `[{"extension":"` + ext + `"}]`, materialize: ext},
		{name: "nothing promised, nothing unkept"},
		{name: "a road for one extension does not cover another, sorted and once each",
			manifest: `[{"extension":"@z/b"},{"extension":"` + ext + `"},{"extension":"@a/b"},{"extension":"@a/b"}]`, bound: ext,
			wantRoadless: []string{"@a/b", "@z/b"}, wantBindings: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := producesAgent(t, "", tc.manifest, tc.bound, tc.materialize)
			if got := ProducesWithoutRoad(a); !reflect.DeepEqual(got, tc.wantRoadless) {
				t.Errorf("ProducesWithoutRoad = %q, want %q", got, tc.wantRoadless)
			}
			out, err := Compile(a)
			if err != nil {
				t.Fatalf("the compile must succeed: %v", err)
			}
			if out.HasArtifactBindings != tc.wantBindings {
				t.Errorf("hasArtifactBindings %v, want %v", out.HasArtifactBindings, tc.wantBindings)
			}
			if len(tc.wantRoadless) == 0 {
				if len(out.Warnings) != 0 {
					t.Errorf("warnings %q, want none", out.Warnings)
				}
				return
			}
			if len(out.Warnings) != 1 {
				t.Fatalf("warnings %q, want one", out.Warnings)
			}
			for _, s := range append([]string{"[artifact-binding]", "@test/mirror-agent", "outputs[].cinatra.artifact", "artifact_materialize", "opens no review gate"}, tc.wantRoadless...) {
				if !strings.Contains(out.Warnings[0], s) {
					t.Errorf("warning %q lacks %q", out.Warnings[0], s)
				}
			}
		})
	}
}
