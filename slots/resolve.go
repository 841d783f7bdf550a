package slots

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"time"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Ref is a resolved context ref (ResolvedContextRef, reference §13.4).
type Ref struct {
	ArtifactID               string `json:"artifactId"`
	RepresentationRevisionID string `json:"representationRevisionId"`
	SemanticAssertionID      string `json:"semanticAssertionId"`
	Extension                string `json:"extension"`
	SourceScope              string `json:"sourceScope"`
	OwnerID                  string `json:"ownerId"`
}

// TripleKey is a ref's selection identity: artifactId|revisionId|assertionId.
func (r Ref) TripleKey() string {
	return r.ArtifactID + "|" + r.RepresentationRevisionID + "|" + r.SemanticAssertionID
}

// Request is one resolution: who asks, for which slot, in which project.
type Request struct {
	Actor     Actor
	Slot      Slot
	ProjectID string // "" = no project
}

// ErrNoAcceptedExtensions and ErrNoOrganization are the resolver's
// fail-closed errors (reference §13.4).
var (
	ErrNoAcceptedExtensions = errors.New("resolveContextSlot: slot.acceptedArtifactExtensions must not be empty")
	ErrNoOrganization       = errors.New("resolveContextSlot: actor.organizationId is required (fail-closed)")
)

// Resolve returns the slot's candidate refs (seed 000, reference §13.4):
// a projectId outside the actor's projects gives [] without reading src;
// the accepted extensions get the single-hop satisfies expansion; only
// visible, live artifacts of the requested project (or of none) count;
// one ref per eligible assertion of an accepted extension, pinned to the
// artifact's latest revision; ordered project < user < team < organization
// < workspace, ties by artifactId; override keeps the narrowest tier
// present, accumulate keeps all; then truncated to maxItems.
func Resolve(req Request, src ArtifactSource) ([]Ref, error) {
	if len(req.Slot.Accepted) == 0 {
		return nil, ErrNoAcceptedExtensions
	}
	if req.Actor.OrganizationID == "" {
		return nil, ErrNoOrganization
	}
	if req.ProjectID != "" && !contains(req.Actor.ProjectIDs, req.ProjectID) {
		return []Ref{}, nil
	}
	accepted := ExpandAccepted(req.Slot.Accepted, src.InstalledExtensions())
	refs := []Ref{}
	for _, a := range src.AllArtifacts() {
		if !Visible(req.Actor, &a, req.ProjectID) {
			continue
		}
		rev, ok := LatestRevision(&a)
		if !ok {
			continue
		}
		for _, s := range a.Assertions {
			if s.Eligibility != Eligible || !accepted[s.Extension] {
				continue
			}
			refs = append(refs, Ref{
				ArtifactID:               a.ArtifactID,
				RepresentationRevisionID: rev.RepresentationRevisionID,
				SemanticAssertionID:      s.SemanticAssertionID,
				Extension:                s.Extension,
				SourceScope:              SourceScope(&a),
				OwnerID:                  a.OwnerID,
			})
		}
	}
	SortRefs(refs)
	if req.Slot.ResolutionMode == Override && len(refs) > 0 {
		narrowest := scopeRank(refs[0].SourceScope)
		n := 0
		for n < len(refs) && scopeRank(refs[n].SourceScope) == narrowest {
			n++
		}
		refs = refs[:n]
	}
	if m := req.Slot.MaxItems; m > 0 && len(refs) > m {
		refs = refs[:m]
	}
	return refs, nil
}

// ExpandAccepted is the single-hop satisfies expansion: the accepted
// extensions plus every installed extension whose satisfies list names a
// directly accepted one. It is checked against the original set only, so
// with B⊨A and C⊨B, accepting A adds B but not C.
func ExpandAccepted(accepted []string, installed []Extension) map[string]bool {
	direct := make(map[string]bool, len(accepted))
	for _, a := range accepted {
		direct[a] = true
	}
	out := make(map[string]bool, len(accepted))
	for a := range direct {
		out[a] = true
	}
	for _, x := range installed {
		for _, s := range x.Satisfies {
			if direct[s] {
				out[x.Name] = true
				break
			}
		}
	}
	return out
}

// Visible reports whether the actor may see a live artifact in the
// requested project (projectID "" = artifacts with no project).
func Visible(actor Actor, a *Artifact, projectID string) bool {
	if a.Deleted || !Owned(actor, a) {
		return false
	}
	return a.Project() == projectID
}

// Owned is the actor ownership filter: user-owned by the actor, team-owned
// by one of the actor's teams, owned by the actor's organization or workspace.
func Owned(actor Actor, a *Artifact) bool {
	switch a.OwnerLevel {
	case ScopeUser:
		return a.OwnerID == actor.UserID
	case ScopeTeam:
		return contains(actor.TeamIDs, a.OwnerID)
	case ScopeOrganization:
		return a.OwnerID == actor.OrganizationID
	case ScopeWorkspace:
		return actor.WorkspaceID != "" && a.OwnerID == actor.WorkspaceID
	}
	return false
}

// SourceScope is "project" for an artifact with a project, else its owner level.
func SourceScope(a *Artifact) string {
	if a.Project() != "" {
		return ScopeProject
	}
	return a.OwnerLevel
}

// LatestRevision is the artifact's latest representation revision by
// createdAt; ties go to the greatest representationRevisionId.
func LatestRevision(a *Artifact) (Revision, bool) {
	var best Revision
	var bestAt time.Time
	found := false
	for _, r := range a.Revisions {
		at, err := time.Parse(time.RFC3339Nano, r.CreatedAt)
		if err != nil {
			continue // ParseCatalog refuses these; a hand-built source may not
		}
		if !found || at.After(bestAt) || (at.Equal(bestAt) && r.RepresentationRevisionID > best.RepresentationRevisionID) {
			best, bestAt, found = r, at, true
		}
	}
	return best, found
}

// SortRefs orders refs narrow → broad by source scope, then by artifactId
// as JavaScript's localeCompare would (root collation), then by
// assertion id, so the order is total and deterministic.
func SortRefs(refs []Ref) {
	col := collate.New(language.Und)
	var buf collate.Buffer
	keys := make(map[string][]byte, len(refs))
	for _, r := range refs {
		if _, ok := keys[r.ArtifactID]; !ok {
			keys[r.ArtifactID] = append([]byte(nil), col.KeyFromString(&buf, r.ArtifactID)...)
			buf.Reset()
		}
	}
	sort.SliceStable(refs, func(i, j int) bool {
		a, b := refs[i], refs[j]
		if ra, rb := scopeRank(a.SourceScope), scopeRank(b.SourceScope); ra != rb {
			return ra < rb
		}
		if a.ArtifactID != b.ArtifactID {
			if c := bytes.Compare(keys[a.ArtifactID], keys[b.ArtifactID]); c != 0 {
				return c < 0
			}
			return a.ArtifactID < b.ArtifactID
		}
		return a.SemanticAssertionID < b.SemanticAssertionID
	})
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Empty explains why a resolution has no candidates.
type Empty struct {
	Code    string // project_not_allowed | no_visible_artifacts | no_eligible_assertion | no_revision | ""
	Message string
}

// Explain says why Resolve returned no refs for req ("" Code when it did
// return some). It reads src only when the project is allowed.
func Explain(req Request, src ArtifactSource) Empty {
	if req.ProjectID != "" && !contains(req.Actor.ProjectIDs, req.ProjectID) {
		return Empty{"project_not_allowed", fmt.Sprintf("project %q is not one of the actor's projects, so nothing is resolved (fail-closed)", req.ProjectID)}
	}
	accepted := ExpandAccepted(req.Slot.Accepted, src.InstalledExtensions())
	visible, matching, ineligible, eligible := 0, 0, 0, 0
	for _, a := range src.AllArtifacts() {
		if !Visible(req.Actor, &a, req.ProjectID) {
			continue
		}
		visible++
		m := false
		for _, s := range a.Assertions {
			if !accepted[s.Extension] {
				continue
			}
			m = true
			if s.Eligibility == Eligible {
				if _, ok := LatestRevision(&a); ok {
					eligible++
				}
			} else {
				ineligible++
			}
		}
		if m {
			matching++
		}
	}
	where := "outside any project"
	if req.ProjectID != "" {
		where = fmt.Sprintf("in project %q", req.ProjectID)
	}
	switch {
	case eligible > 0:
		return Empty{}
	case visible == 0:
		return Empty{"no_visible_artifacts", fmt.Sprintf("no artifact %s is visible to the actor", where)}
	case matching == 0:
		return Empty{"no_eligible_assertion", fmt.Sprintf("none of the %d visible artifact(s) %s is classified as an accepted extension", visible, where)}
	case ineligible > 0:
		return Empty{"no_eligible_assertion", fmt.Sprintf("the %d visible artifact(s) of an accepted extension %s have only ineligible assertions", matching, where)}
	}
	return Empty{"no_revision", fmt.Sprintf("the %d visible artifact(s) of an accepted extension %s have no representation revision", matching, where)}
}
