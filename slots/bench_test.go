package slots

import (
	"fmt"
	"testing"
)

// benchCatalog has n visible artifacts spread over the four tiers, each
// with two assertions (one accepted) and three revisions.
func benchCatalog(n int) *Catalog {
	c := &Catalog{Actor: testActor, Extensions: []Extension{{Name: "@v/a"}, {Name: "@v/b", Satisfies: []string{"@v/a"}}}}
	levels := []struct{ level, owner string }{{"user", "u1"}, {"team", "t1"}, {"organization", "o1"}, {"workspace", "w1"}}
	for i := 0; i < n; i++ {
		l := levels[i%4]
		id := fmt.Sprintf("art-%06d", i)
		c.Artifacts = append(c.Artifacts, Artifact{ArtifactID: id, OwnerLevel: l.level, OwnerID: l.owner,
			Assertions: []Assertion{{SemanticAssertionID: "s1-" + id, Extension: "@v/b", Eligibility: Eligible}, {SemanticAssertionID: "s2-" + id, Extension: "@v/z", Eligibility: Eligible}},
			Revisions: []Revision{{RepresentationRevisionID: "r1", CreatedAt: "2026-01-01T00:00:00Z"}, {RepresentationRevisionID: "r3", CreatedAt: "2026-03-01T00:00:00Z"},
				{RepresentationRevisionID: "r2", CreatedAt: "2026-02-01T00:00:00Z"}}})
	}
	return c
}

func BenchmarkResolve(b *testing.B) {
	for _, n := range []int{100, 10000} {
		c := benchCatalog(n)
		req := Request{Actor: testActor, Slot: Slot{SlotID: "s", Accepted: []string{"@v/a"}, ResolutionMode: Accumulate}}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if refs, err := Resolve(req, c); err != nil || len(refs) != n {
					b.Fatal(err, len(refs))
				}
			}
		})
	}
}
