package slots

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/oastui/oastui/compile"
)

// Owner levels (tiers) and source scopes (reference §13.4).
const (
	ScopeProject      = "project"
	ScopeUser         = "user"
	ScopeTeam         = "team"
	ScopeOrganization = "organization"
	ScopeWorkspace    = "workspace"
)

// Scopes lists the source scopes narrow → broad (the resolver's order).
var Scopes = [...]string{ScopeProject, ScopeUser, ScopeTeam, ScopeOrganization, ScopeWorkspace}

// ScopeLabel is the picker's group label for a source scope (reference §13.8).
func ScopeLabel(scope string) string {
	switch scope {
	case ScopeProject:
		return "Project"
	case ScopeUser:
		return "Personal"
	case ScopeTeam:
		return "Team"
	case ScopeOrganization:
		return "Organization"
	case ScopeWorkspace:
		return "Workspace"
	}
	return scope
}

// scopeRank orders scopes narrow → broad; unknown scopes sort last.
func scopeRank(scope string) int {
	for i, s := range Scopes {
		if s == scope {
			return i
		}
	}
	return len(Scopes)
}

// Eligibility values of an assertion.
const (
	Eligible   = "eligible"
	Ineligible = "ineligible"
)

// Catalog is the dev stand-in for the platform's artifact store (SPEC §5).
type Catalog struct {
	Actor      Actor       `json:"actor"`
	Extensions []Extension `json:"extensions"`
	Artifacts  []Artifact  `json:"artifacts"`
	Path       string      `json:"-"` // file it was read from, for messages
}

// Actor is the user the catalog is seen by.
type Actor struct {
	UserID         string   `json:"userId"`
	TeamIDs        []string `json:"teamIds"`
	OrganizationID string   `json:"organizationId"`
	WorkspaceID    string   `json:"workspaceId"`
	ProjectIDs     []string `json:"projectIds"`
}

// Extension is an installed artifact extension with the extensions it satisfies.
type Extension struct {
	Name      string   `json:"name"`
	Satisfies []string `json:"satisfies"`
}

// Artifact is one artifact with its assertions and representation revisions.
type Artifact struct {
	ArtifactID string      `json:"artifactId"`
	Title      string      `json:"title"`
	OwnerLevel string      `json:"ownerLevel"`
	OwnerID    string      `json:"ownerId"`
	ProjectID  *string     `json:"projectId"`
	Deleted    bool        `json:"deleted"`
	Assertions []Assertion `json:"assertions"`
	Revisions  []Revision  `json:"revisions"`
}

// Assertion classifies an artifact as an extension, eligibly or not.
type Assertion struct {
	SemanticAssertionID string `json:"semanticAssertionId"`
	Extension           string `json:"extension"`
	Eligibility         string `json:"eligibility"`
}

// Revision is one representation revision of an artifact.
type Revision struct {
	RepresentationRevisionID string `json:"representationRevisionId"`
	CreatedAt                string `json:"createdAt"`
	Mime                     string `json:"mime"`
}

// Project returns the artifact's project, "" when it has none (null,
// absent or "" all mean no project).
func (a *Artifact) Project() string {
	if a.ProjectID == nil {
		return ""
	}
	return *a.ProjectID
}

// LoadCatalog reads and checks a catalog file.
func LoadCatalog(path string) (*Catalog, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return ParseCatalog(path, src)
}

// CatalogError is a catalog that cannot be used, with where the problem is.
type CatalogError struct {
	Path      string
	Line, Col int
	Pointer   string
	Msg       string
}

func (e *CatalogError) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", e.Path, e.Line, e.Col)
	}
	if e.Pointer != "" {
		return fmt.Sprintf("%s: catalog %s: %s", where, e.Pointer, e.Msg)
	}
	return fmt.Sprintf("%s: catalog: %s", where, e.Msg)
}

// ParseCatalog parses a catalog in the format of SPEC §5 exactly: unknown
// members are refused, owner levels, eligibilities and timestamps are
// checked, artifact ids must be unique.
func ParseCatalog(path string, src []byte) (*Catalog, error) {
	doc := compile.ParseDoc(path, src)
	if doc.Err != nil {
		line, col := doc.Position(doc.Err.Offset)
		return nil, &CatalogError{Path: path, Line: line, Col: col, Msg: "invalid JSON: " + doc.Err.Msg}
	}
	fail := func(ptr, msg string) error {
		line, col := doc.PointerPosition(ptr)
		return &CatalogError{Path: path, Line: line, Col: col, Pointer: ptr, Msg: msg}
	}
	if doc.Root.Kind != compile.Object {
		return nil, fail("", "the catalog must be a JSON object")
	}
	var c Catalog
	if err := json.Unmarshal(src, &c, json.RejectUnknownMembers(true)); err != nil {
		var se *json.SemanticError
		if errors.As(err, &se) {
			msg := se.Error()
			if se.Err != nil {
				msg = se.Err.Error()
			}
			if se.JSONKind != 0 && se.GoType != nil {
				msg = fmt.Sprintf("a JSON %s cannot be a %s", se.JSONKind, se.GoType)
			}
			return nil, fail(string(se.JSONPointer), msg)
		}
		return nil, fail("", err.Error())
	}
	c.Path = path
	if err := c.check(fail); err != nil {
		return nil, err
	}
	return &c, nil
}

func (c *Catalog) check(fail func(ptr, msg string) error) error {
	if c.Actor.UserID == "" {
		return fail("/actor/userId", "the actor needs a userId")
	}
	names := map[string]bool{}
	for i, e := range c.Extensions {
		ptr := compile.AppendIndex("/extensions", i)
		if e.Name == "" {
			return fail(ptr+"/name", "an extension needs a name")
		}
		if names[e.Name] {
			return fail(ptr+"/name", fmt.Sprintf("extension %q is listed twice", e.Name))
		}
		names[e.Name] = true
	}
	ids := map[string]bool{}
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		ptr := compile.AppendIndex("/artifacts", i)
		if a.ArtifactID == "" {
			return fail(ptr+"/artifactId", "an artifact needs an artifactId")
		}
		if ids[a.ArtifactID] {
			return fail(ptr+"/artifactId", fmt.Sprintf("artifactId %q is used twice", a.ArtifactID))
		}
		ids[a.ArtifactID] = true
		switch a.OwnerLevel {
		case ScopeUser, ScopeTeam, ScopeOrganization, ScopeWorkspace:
		case ScopeProject:
			return fail(ptr+"/ownerLevel", `ownerLevel "project" is not allowed: project is a refinement (projectId), not a tier`)
		default:
			return fail(ptr+"/ownerLevel", fmt.Sprintf("ownerLevel %q must be one of user, team, organization, workspace", a.OwnerLevel))
		}
		if a.OwnerID == "" {
			return fail(ptr+"/ownerId", "an artifact needs an ownerId")
		}
		aids := map[string]bool{}
		for j, s := range a.Assertions {
			sp := compile.AppendIndex(ptr+"/assertions", j)
			if s.SemanticAssertionID == "" {
				return fail(sp+"/semanticAssertionId", "an assertion needs a semanticAssertionId")
			}
			if aids[s.SemanticAssertionID] {
				return fail(sp+"/semanticAssertionId", fmt.Sprintf("semanticAssertionId %q is used twice on this artifact", s.SemanticAssertionID))
			}
			aids[s.SemanticAssertionID] = true
			if s.Extension == "" {
				return fail(sp+"/extension", "an assertion needs an extension")
			}
			if s.Eligibility != Eligible && s.Eligibility != Ineligible {
				return fail(sp+"/eligibility", fmt.Sprintf("eligibility %q must be eligible or ineligible", s.Eligibility))
			}
		}
		rids := map[string]bool{}
		for j, r := range a.Revisions {
			rp := compile.AppendIndex(ptr+"/revisions", j)
			if r.RepresentationRevisionID == "" {
				return fail(rp+"/representationRevisionId", "a revision needs a representationRevisionId")
			}
			if rids[r.RepresentationRevisionID] {
				return fail(rp+"/representationRevisionId", fmt.Sprintf("representationRevisionId %q is used twice on this artifact", r.RepresentationRevisionID))
			}
			rids[r.RepresentationRevisionID] = true
			if _, err := time.Parse(time.RFC3339Nano, r.CreatedAt); err != nil {
				return fail(rp+"/createdAt", fmt.Sprintf("createdAt %q is not an RFC 3339 timestamp", r.CreatedAt))
			}
		}
	}
	return nil
}

// ArtifactSource is what the resolver reads: the installed extensions and
// the artifacts. *Catalog is one; tests use others.
type ArtifactSource interface {
	InstalledExtensions() []Extension
	AllArtifacts() []Artifact
}

// InstalledExtensions implements ArtifactSource.
func (c *Catalog) InstalledExtensions() []Extension { return c.Extensions }

// AllArtifacts implements ArtifactSource.
func (c *Catalog) AllArtifacts() []Artifact { return c.Artifacts }

// Artifact returns the artifact with id, or nil.
func (c *Catalog) Artifact(id string) *Artifact {
	for i := range c.Artifacts {
		if c.Artifacts[i].ArtifactID == id {
			return &c.Artifacts[i]
		}
	}
	return nil
}

// CheckTriple is the audit store's triple-coherence check (reference
// §13.9): the artifact is live in the actor's organization, the
// representation revision and the assertion belong to it, and the
// assertion's extension is the ref's.
func (c *Catalog) CheckTriple(orgID string, r Ref) error {
	if orgID != c.Actor.OrganizationID {
		return fmt.Errorf("organization %q is not the catalog's (%q)", orgID, c.Actor.OrganizationID)
	}
	a := c.Artifact(r.ArtifactID)
	if a == nil {
		return fmt.Errorf("artifact %q does not exist", r.ArtifactID)
	}
	if a.Deleted {
		return fmt.Errorf("artifact %q is deleted", r.ArtifactID)
	}
	rev := false
	for _, v := range a.Revisions {
		if v.RepresentationRevisionID == r.RepresentationRevisionID {
			rev = true
		}
	}
	if !rev {
		return fmt.Errorf("representation revision %q does not belong to artifact %q", r.RepresentationRevisionID, r.ArtifactID)
	}
	for _, s := range a.Assertions {
		if s.SemanticAssertionID == r.SemanticAssertionID {
			if s.Extension != r.Extension {
				return fmt.Errorf("assertion %q of artifact %q is %q, not %q", r.SemanticAssertionID, r.ArtifactID, s.Extension, r.Extension)
			}
			return nil
		}
	}
	return fmt.Errorf("semantic assertion %q does not belong to artifact %q", r.SemanticAssertionID, r.ArtifactID)
}

// Titles maps artifactId → title, for display.
func (c *Catalog) Titles() map[string]string {
	m := make(map[string]string, len(c.Artifacts))
	for _, a := range c.Artifacts {
		m[a.ArtifactID] = a.Title
	}
	return m
}

// Mimes maps artifactId|revisionId → mime, for display.
func (c *Catalog) Mimes() map[string]string {
	m := map[string]string{}
	for _, a := range c.Artifacts {
		for _, r := range a.Revisions {
			m[a.ArtifactID+"|"+r.RepresentationRevisionID] = r.Mime
		}
	}
	return m
}

// shortExtension drops the npm scope: "@cinatra-ai/x-artifact" → "x-artifact".
func shortExtension(ext string) string {
	if strings.HasPrefix(ext, "@") {
		if i := strings.IndexByte(ext, '/'); i > 0 && i < len(ext)-1 {
			return ext[i+1:]
		}
	}
	return ext
}

// ShortExtension is shortExtension for the views.
func ShortExtension(ext string) string { return shortExtension(ext) }
