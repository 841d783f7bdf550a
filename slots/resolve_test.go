package slots

import (
	"errors"
	"reflect"
	"testing"
)

func ptr(s string) *string { return &s }

var testActor = Actor{UserID: "u1", TeamIDs: []string{"t1", "t2"}, OrganizationID: "o1", WorkspaceID: "w1", ProjectIDs: []string{"p1"}}

// art builds an artifact with one eligible assertion of ext and one revision.
func art(id, level, owner, ext string) Artifact {
	return Artifact{ArtifactID: id, Title: id, OwnerLevel: level, OwnerID: owner,
		Assertions: []Assertion{{SemanticAssertionID: "s-" + id, Extension: ext, Eligibility: Eligible}},
		Revisions:  []Revision{{RepresentationRevisionID: "r-" + id, CreatedAt: "2026-01-01T00:00:00Z", Mime: "text/markdown"}}}
}

func inProject(a Artifact, p string) Artifact { a.ProjectID = ptr(p); return a }

func slotOf(mode string, max int, accepted ...string) Slot {
	return Slot{SlotID: "s", Accepted: accepted, SelectionMode: Interactive, ResolutionMode: mode, MaxItems: max}
}

// ids lists "artifactId/assertionId@revision:scope" for compact comparison.
func ids(refs []Ref) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, r.ArtifactID+"/"+r.SemanticAssertionID+"@"+r.RepresentationRevisionID+":"+r.SourceScope)
	}
	return out
}

func TestResolve(t *testing.T) {
	const A, B, C, X = "@v/a-artifact", "@v/b-artifact", "@v/c-artifact", "@v/x-artifact"
	chain := []Extension{{Name: A}, {Name: B, Satisfies: []string{A}}, {Name: C, Satisfies: []string{B}}, {Name: X}}
	twoAssertions := art("m", "user", "u1", A)
	twoAssertions.Assertions = append(twoAssertions.Assertions,
		Assertion{SemanticAssertionID: "s-m2", Extension: B, Eligibility: Eligible},
		Assertion{SemanticAssertionID: "s-m3", Extension: X, Eligibility: Eligible},
		Assertion{SemanticAssertionID: "s-m4", Extension: A, Eligibility: Ineligible})
	revs := art("v", "user", "u1", A)
	revs.Revisions = []Revision{
		{RepresentationRevisionID: "r1", CreatedAt: "2026-01-01T00:00:00Z"},
		{RepresentationRevisionID: "r3", CreatedAt: "2026-03-01T00:00:00Z"},
		{RepresentationRevisionID: "r2", CreatedAt: "2026-02-01T00:00:00Z"},
	}
	tie := art("tie", "user", "u1", A)
	tie.Revisions = []Revision{
		{RepresentationRevisionID: "rb", CreatedAt: "2026-05-01T00:00:00Z"},
		{RepresentationRevisionID: "rc", CreatedAt: "2026-05-01T02:00:00+02:00"}, // same instant
		{RepresentationRevisionID: "ra", CreatedAt: "2026-05-01T00:00:00Z"},
	}
	noRev := art("norev", "user", "u1", A)
	noRev.Revisions = nil
	deleted := art("gone", "user", "u1", A)
	deleted.Deleted = true
	inelig := art("inel", "user", "u1", A)
	inelig.Assertions[0].Eligibility = Ineligible

	tests := []struct {
		name    string
		slot    Slot
		project string
		exts    []Extension
		arts    []Artifact
		want    []string
	}{
		{"single-hop satisfies: B⊨A added, C⊨B not", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{art("a", "user", "u1", A), art("b", "user", "u1", B), art("c", "user", "u1", C)},
			[]string{"a/s-a@r-a:user", "b/s-b@r-b:user"}},
		{"satisfies is read from installed extensions only", slotOf(Accumulate, 0, B), "", chain,
			[]Artifact{art("a", "user", "u1", A), art("b", "user", "u1", B), art("c", "user", "u1", C)},
			[]string{"b/s-b@r-b:user", "c/s-c@r-c:user"}},
		{"no installed extensions: accepted only", slotOf(Accumulate, 0, A), "", nil,
			[]Artifact{art("a", "user", "u1", A), art("b", "user", "u1", B)},
			[]string{"a/s-a@r-a:user"}},
		{"eligible assertions only", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{inelig, art("a", "user", "u1", A)},
			[]string{"a/s-a@r-a:user"}},
		{"one ref per eligible matching assertion", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{twoAssertions},
			[]string{"m/s-m@r-m:user", "m/s-m2@r-m:user"}},
		{"latest revision by createdAt is pinned", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{revs}, []string{"v/s-v@r3:user"}},
		{"createdAt tie: greatest revision id", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{tie}, []string{"tie/s-tie@rc:user"}},
		{"artifact without a revision has no ref", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{noRev}, []string{}},
		{"deleted artifacts excluded", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{deleted, art("a", "user", "u1", A)}, []string{"a/s-a@r-a:user"}},
		{"ownership filter", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{
				art("u-other", "user", "u2", A), art("u-mine", "user", "u1", A),
				art("t-other", "team", "t9", A), art("t-mine", "team", "t2", A),
				art("o-other", "organization", "o2", A), art("o-mine", "organization", "o1", A),
				art("w-other", "workspace", "w2", A), art("w-mine", "workspace", "w1", A),
			},
			[]string{"u-mine/s-u-mine@r-u-mine:user", "t-mine/s-t-mine@r-t-mine:team", "o-mine/s-o-mine@r-o-mine:organization", "w-mine/s-w-mine@r-w-mine:workspace"}},
		{"without a project: only artifacts with no projectId", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{inProject(art("pa", "user", "u1", A), "p1"), art("a", "user", "u1", A)},
			[]string{"a/s-a@r-a:user"}},
		{"with a project: only that project's artifacts, scope project", slotOf(Accumulate, 0, A), "p1", chain,
			[]Artifact{inProject(art("pa", "team", "t1", A), "p1"), inProject(art("pb", "user", "u1", A), "p2"), art("a", "user", "u1", A)},
			[]string{"pa/s-pa@r-pa:project"}},
		{"project artifacts still need ownership", slotOf(Accumulate, 0, A), "p1", chain,
			[]Artifact{inProject(art("pa", "user", "u2", A), "p1")}, []string{}},
		{"project outside the actor's projects: empty", slotOf(Accumulate, 0, A), "p9", chain,
			[]Artifact{inProject(art("pa", "user", "u1", A), "p9")}, []string{}},
		{"scope order narrow→broad, ties by artifactId (localeCompare)", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{
				art("w", "workspace", "w1", A), art("o", "organization", "o1", A),
				art("T2", "team", "t2", A), art("t1", "team", "t1", A),
				art("B-user", "user", "u1", A), art("a-user", "user", "u1", A),
			},
			[]string{"a-user/s-a-user@r-a-user:user", "B-user/s-B-user@r-B-user:user", "t1/s-t1@r-t1:team", "T2/s-T2@r-T2:team", "o/s-o@r-o:organization", "w/s-w@r-w:workspace"}},
		{"override keeps the narrowest tier present (several)", slotOf(Override, 0, A), "", chain,
			[]Artifact{art("w", "workspace", "w1", A), art("t2", "team", "t2", A), art("t1", "team", "t1", A), art("o", "organization", "o1", A)},
			[]string{"t1/s-t1@r-t1:team", "t2/s-t2@r-t2:team"}},
		{"override: project beats everything", slotOf(Override, 0, A), "p1", chain,
			[]Artifact{inProject(art("p", "workspace", "w1", A), "p1")}, []string{"p/s-p@r-p:project"}},
		{"accumulate keeps every tier", slotOf(Accumulate, 0, A), "", chain,
			[]Artifact{art("w", "workspace", "w1", A), art("u", "user", "u1", A), art("o", "organization", "o1", A)},
			[]string{"u/s-u@r-u:user", "o/s-o@r-o:organization", "w/s-w@r-w:workspace"}},
		{"accumulate truncated to maxItems after ordering", slotOf(Accumulate, 2, A), "", chain,
			[]Artifact{art("w", "workspace", "w1", A), art("u", "user", "u1", A), art("o", "organization", "o1", A)},
			[]string{"u/s-u@r-u:user", "o/s-o@r-o:organization"}},
		{"override truncated to maxItems", slotOf(Override, 1, A), "", chain,
			[]Artifact{art("u2", "user", "u1", A), art("u1", "user", "u1", A)},
			[]string{"u1/s-u1@r-u1:user"}},
		{"nothing visible: empty, not nil", slotOf(Accumulate, 0, A), "", chain, nil, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &Catalog{Actor: testActor, Extensions: tc.exts, Artifacts: tc.arts}
			got, err := Resolve(Request{Actor: testActor, Slot: tc.slot, ProjectID: tc.project}, src)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("Resolve returned nil, want a non-nil slice")
			}
			if g := ids(got); !reflect.DeepEqual(g, tc.want) {
				t.Errorf("got  %q\nwant %q", g, tc.want)
			}
		})
	}
}

// spySource fails the test when the resolver reads it.
type spySource struct{ t *testing.T }

func (s spySource) InstalledExtensions() []Extension {
	s.t.Error("resolver read the installed extensions")
	return nil
}
func (s spySource) AllArtifacts() []Artifact { s.t.Error("resolver read the artifacts"); return nil }

func TestResolveProjectNotAllowedReadsNothing(t *testing.T) {
	for _, p := range []string{"p9", "P1", "p1 "} {
		got, err := Resolve(Request{Actor: testActor, Slot: slotOf(Accumulate, 0, "@v/a"), ProjectID: p}, spySource{t})
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("project %q: got %v, %v; want [] and no error", p, got, err)
		}
		if e := Explain(Request{Actor: testActor, Slot: slotOf(Accumulate, 0, "@v/a"), ProjectID: p}, spySource{t}); e.Code != "project_not_allowed" {
			t.Errorf("Explain = %+v", e)
		}
	}
}

func TestResolveFailsClosed(t *testing.T) {
	src := &Catalog{}
	if _, err := Resolve(Request{Actor: testActor, Slot: slotOf(Accumulate, 0)}, src); !errors.Is(err, ErrNoAcceptedExtensions) {
		t.Errorf("empty accepted: %v", err)
	}
	noOrg := testActor
	noOrg.OrganizationID = ""
	if _, err := Resolve(Request{Actor: noOrg, Slot: slotOf(Accumulate, 0, "@v/a")}, src); !errors.Is(err, ErrNoOrganization) {
		t.Errorf("no organization: %v", err)
	}
}

func TestExplain(t *testing.T) {
	const A = "@v/a"
	inel := art("i", "user", "u1", A)
	inel.Assertions[0].Eligibility = Ineligible
	noRev := art("n", "user", "u1", A)
	noRev.Revisions = nil
	tests := []struct {
		name string
		arts []Artifact
		want string
	}{
		{"nothing visible", []Artifact{art("x", "user", "u2", A)}, "no_visible_artifacts"},
		{"visible but other extension", []Artifact{art("x", "user", "u1", "@v/other")}, "no_eligible_assertion"},
		{"only ineligible", []Artifact{inel}, "no_eligible_assertion"},
		{"no revision", []Artifact{noRev}, "no_revision"},
		{"has candidates", []Artifact{art("x", "user", "u1", A)}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Explain(Request{Actor: testActor, Slot: slotOf(Accumulate, 0, A)}, &Catalog{Artifacts: tc.arts})
			if e.Code != tc.want {
				t.Errorf("got %+v, want code %q", e, tc.want)
			}
		})
	}
}

func TestExpandAccepted(t *testing.T) {
	got := ExpandAccepted([]string{"A"}, []Extension{{Name: "B", Satisfies: []string{"A"}}, {Name: "C", Satisfies: []string{"B"}}, {Name: "D", Satisfies: []string{"Z", "A"}}})
	want := map[string]bool{"A": true, "B": true, "D": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
