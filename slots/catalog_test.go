package slots

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

func TestParseCatalogErrors(t *testing.T) {
	base := `{"actor":{"userId":"u1","teamIds":[],"organizationId":"o1","workspaceId":"w1","projectIds":[]},
"extensions":[],
"artifacts":[{"artifactId":"a","title":"A","ownerLevel":"user","ownerId":"u1","projectId":null,"deleted":false,
 "assertions":[{"semanticAssertionId":"s","extension":"@v/x","eligibility":"eligible"}],
 "revisions":[{"representationRevisionId":"r","createdAt":"2026-01-01T00:00:00Z","mime":"text/plain"}]}]}`
	if _, err := ParseCatalog("c.json", []byte(base)); err != nil {
		t.Fatalf("base catalog: %v", err)
	}
	tests := []struct {
		name, from, to, want string
	}{
		{"not JSON", `{"actor"`, `{"actor" x`, "c.json:1:"},
		{"unknown member", `"deleted":false`, `"deleted":false,"color":1`, "/artifacts/0"},
		{"owner level project", `"ownerLevel":"user"`, `"ownerLevel":"project"`, "c.json:3:57: catalog /artifacts/0/ownerLevel: ownerLevel \"project\" is not allowed"},
		{"owner level unknown", `"ownerLevel":"user"`, `"ownerLevel":"galaxy"`, "must be one of user, team, organization, workspace"},
		{"eligibility", `"eligibility":"eligible"`, `"eligibility":"maybe"`, "/artifacts/0/assertions/0/eligibility"},
		{"createdAt", `"2026-01-01T00:00:00Z"`, `"yesterday"`, "/artifacts/0/revisions/0/createdAt"},
		{"duplicate artifact", `"artifacts":[{"artifactId":"a"`, `"artifacts":[{"artifactId":"a","title":"dup","ownerLevel":"user","ownerId":"u1"},{"artifactId":"a"`, "used twice"},
		{"wrong type", `"deleted":false`, `"deleted":"no"`, "/artifacts/0/deleted"},
		{"no user", `"userId":"u1"`, `"userId":""`, "/actor/userId"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(base, tc.from, tc.to, 1)
			if src == base {
				t.Fatal("replacement did not apply")
			}
			_, err := ParseCatalog("c.json", []byte(src))
			var ce *CatalogError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestDemoCatalog pins what the bundled demo catalog shows the bundled
// example's slot: every scope across the two views (no project, project
// p-launch), the satisfies link, and the excluded artifacts.
func TestDemoCatalog(t *testing.T) {
	a, err := compile.Load(filepath.Join("..", "testdata", "agents", "oastui", "example-agent"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slotsDeclared, problem := Slots(a.Flow.Root)
	if len(slotsDeclared) == 0 {
		t.Fatalf("the example declares no slot (%s)", problem)
	}
	slot := slotsDeclared[0]
	scopes := map[string]bool{}
	offered := map[string]bool{}
	for _, project := range []string{"", "p-launch"} {
		p, err := Prepare(a, slot.SlotID, project, "")
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := filepath.Abs(filepath.Join("..", "testdata", ".oastui", "catalog.json")); p.CatalogPath != want {
			t.Errorf("default catalog %s, want %s", p.CatalogPath, want)
		}
		if len(p.Offered) <= slot.MaxItems && slot.MaxItems > 0 && project == "" {
			t.Errorf("the demo should offer more than maxItems=%d candidates to show the cap, got %d", slot.MaxItems, len(p.Offered))
		}
		for _, r := range p.Offered {
			scopes[r.SourceScope] = true
			offered[r.ArtifactID] = true
		}
	}
	for _, s := range Scopes {
		if !scopes[s] {
			t.Errorf("no candidate in scope %s", s)
		}
	}
	if !offered["art-team-tone"] {
		t.Error("the single-hop satisfies candidate is missing")
	}
	for _, id := range []string{"art-team-snippets", "art-team-draft", "art-org-voice-2024", "art-bob-voice", "art-other-project"} {
		if offered[id] {
			t.Errorf("%s must not be offered", id)
		}
	}
}
