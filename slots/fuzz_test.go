package slots

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
)

// FuzzParseCatalog: any bytes give a catalog or an error, never a panic,
// and a catalog that parses resolves without error for any slot.
func FuzzParseCatalog(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", ".oastui", "catalog.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"actor":{"userId":"u","organizationId":"o"},"artifacts":[{"artifactId":"a","ownerLevel":"user","ownerId":"u","assertions":[{"semanticAssertionId":"s","extension":"e","eligibility":"eligible"}],"revisions":[{"representationRevisionId":"r","createdAt":"2026-01-01T00:00:00Z"}]}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := ParseCatalog("f.json", src)
		if err != nil {
			return
		}
		for _, mode := range []string{Override, Accumulate} {
			req := Request{Actor: c.Actor, Slot: Slot{SlotID: "s", Accepted: []string{"e"}, ResolutionMode: mode, MaxItems: 2}}
			if c.Actor.OrganizationID == "" {
				continue
			}
			refs, err := Resolve(req, c)
			if err != nil || len(refs) > 2 {
				t.Fatalf("resolve: %v %d", err, len(refs))
			}
			for _, r := range refs {
				if err := c.CheckTriple(c.Actor.OrganizationID, r); err != nil {
					t.Fatalf("a resolved ref fails coherence: %v", err)
				}
			}
			_ = Explain(req, c)
		}
	})
}

// FuzzSlots: the slot reader never panics and returns either no slots or
// only valid ones.
func FuzzSlots(f *testing.F) {
	f.Add([]byte(`{"metadata":{"cinatra":{"contextSlots":[{"slotId":"x","acceptedArtifactExtensions":["a"],"selectionMode":"interactive","resolutionMode":"override","minItems":1,"maxItems":2}]}}}`))
	f.Add([]byte(`{"metadata":{"cinatra":{"contextSlots":{}}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		root, err := compile.Parse(src)
		if err != nil {
			return
		}
		ss, _ := Slots(root)
		for _, s := range ss {
			if s.SlotID == "" || len(s.Accepted) == 0 || (s.MaxItems > 0 && s.MinItems > s.MaxItems) || s.MinItems < 0 {
				t.Fatalf("invalid slot accepted: %+v", s)
			}
		}
	})
}
