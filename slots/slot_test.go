package slots

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

func corpusDir(t testing.TB) string { return testshared.Corpus(t) }

func parseRoot(t *testing.T, src string) *compile.Node {
	t.Helper()
	n, err := compile.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSlotsReader(t *testing.T) {
	valid := `{"slotId":"ctx","acceptedArtifactExtensions":["@v/a"],"selectionMode":"interactive","resolutionMode":"override"}`
	wrap := func(arr string) string { return `{"metadata":{"cinatra":{"contextSlots":` + arr + `}}}` }
	tests := []struct {
		name    string
		src     string
		want    int
		problem string
	}{
		{"absent", `{"metadata":{}}`, 0, ""},
		{"not an array", wrap(`{}`), 0, "not an array"},
		{"one valid", wrap("[" + valid + "]"), 1, ""},
		{"duplicates kept", wrap("[" + valid + "," + valid + "]"), 2, ""},
		{"defaults", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"autonomous","resolutionMode":"accumulate","minItems":0,"maxItems":5.0,"readableOnly":true}]`), 1, ""},
		{"one invalid empties all", wrap("[" + valid + `,{"slotId":""}]`), 0, "/metadata/cinatra/contextSlots/1: slotId"},
		{"unknown key (strict)", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override","extra":1}]`), 0, `unknown key "extra"`},
		{"empty accepted", wrap(`[{"slotId":"x","acceptedArtifactExtensions":[],"selectionMode":"interactive","resolutionMode":"override"}]`), 0, "at least one"},
		{"bad selectionMode", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"manual","resolutionMode":"override"}]`), 0, "selectionMode"},
		{"missing resolutionMode", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive"}]`), 0, "missing resolutionMode"},
		{"maxItems 0", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override","maxItems":0}]`), 0, "maxItems"},
		{"minItems fraction", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override","minItems":1.5}]`), 0, "minItems"},
		{"min > max", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override","minItems":3,"maxItems":2}]`), 0, "greater than"},
		{"null optional is invalid", wrap(`[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override","maxItems":null}]`), 0, "maxItems"},
		{"duplicate key: last wins", wrap(`[{"slotId":"","slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override"}]`), 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, problem := Slots(parseRoot(t, tc.src))
			if len(got) != tc.want {
				t.Errorf("got %d slots, want %d (%q)", len(got), tc.want, problem)
			}
			if (tc.problem == "") != (problem == "") || !strings.Contains(problem, tc.problem) {
				t.Errorf("problem %q, want one containing %q", problem, tc.problem)
			}
		})
	}
}

func TestFindSlotMessages(t *testing.T) {
	ss := []Slot{{SlotID: "a"}, {SlotID: "b"}, {SlotID: "b"}}
	if s, err := FindSlot(ss, "a"); err != nil || s.SlotID != "a" {
		t.Fatalf("FindSlot(a) = %v, %v", s, err)
	}
	_, err := FindSlot(ss, "zz")
	if want := "[context_resolve] no contextSlot with slotId='zz' found on the parent agent OAS"; err == nil || err.Error() != want {
		t.Errorf("missing: %v", err)
	}
	_, err = FindSlot(ss, "b")
	if want := "[context_resolve] duplicate slotId='b' on the parent agent OAS — slot ids must be unique per agent (resolver rejects ambiguity)"; err == nil || err.Error() != want {
		t.Errorf("duplicate: %v", err)
	}
}

func TestSlotsCorpus(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "agents", "cinatra-ai")
	a, err := compile.Load(filepath.Join(dir, "email-outreach-agent"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, problem := Slots(a.Flow.Root)
	want := []Slot{{SlotID: "offeringContext", Accepted: []string{"@cinatra-ai/marketing-icp-artifact", "@cinatra-ai/marketing-strategy-artifact", "@cinatra-ai/product-portfolio-artifact"},
		SelectionMode: Interactive, ResolutionMode: Accumulate, MinItems: 0, MaxItems: 5, ReadableOnly: true, Pointer: "/metadata/cinatra/contextSlots/0"}}
	if problem != "" || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v (%q)", got, problem)
	}
	if b := got[0].Badges(); !reflect.DeepEqual(b, []string{"Combine (accumulate)", "up to 5", "readable-only"}) {
		t.Errorf("badges %q", b)
	}
	for _, slug := range []string{"blog-draft-writer-agent", "blog-image-prompt-agent"} {
		a, err := compile.Load(filepath.Join(dir, slug), compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, problem := Slots(a.Flow.Root); len(got) != 1 || problem != "" {
			t.Errorf("%s: %d slots (%q)", slug, len(got), problem)
		}
	}
}
