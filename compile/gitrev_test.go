package compile

import (
	"bytes"
	"errors"
	"github.com/oastui/oastui/internal/testgit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadGitRev: an agent loaded from a revision is the agent as it was
// committed (flow, package.json, siblings, registry, child agents), not
// the work tree's later state, under the work tree's paths.
func TestLoadGitRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	testgit.CopyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(repo, "agents"))
	pristine := t.TempDir()
	testgit.CopyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(pristine, "agents"))
	testgit.Git(t, repo, "", "init", "-q")
	testgit.Git(t, repo, "", "add", "-A")
	testgit.Git(t, repo, "", "commit", "-q", "-m", "one")

	orch := filepath.Join(repo, "agents", "oastui", "orchestrator-agent")
	// The work tree moves on: a changed flow, a new sibling, a child agent's
	// package renamed, the registry gone.
	if err := os.WriteFile(filepath.Join(orch, "cinatra", "oas.json"), []byte(`{"component_type":"Flow"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orch, "NOTES.md"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	leafPkg := filepath.Join(repo, "agents", "oastui", "leaf-agent", "package.json")
	if err := os.WriteFile(leafPkg, []byte(`{"name":"@oastui/renamed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo, "agents", "_shared", "cinatra", "components.json")); err != nil {
		t.Fatal(err)
	}

	rev, err := OpenGitRev(orch, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer rev.Close()
	got, err := Load(orch, LoadOptions{Rev: rev})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(filepath.Join(pristine, "agents", "oastui", "orchestrator-agent"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.FlowPath != filepath.Join(orch, "cinatra", "oas.json") {
		t.Errorf("FlowPath %s", got.FlowPath)
	}
	if !bytes.Equal(got.Flow.Src, want.Flow.Src) || !bytes.Equal(got.Package.Src, want.Package.Src) {
		t.Error("flow or package.json not the committed one")
	}
	if got.Registry == nil || !bytes.Equal(got.Registry.Src, want.Registry.Src) {
		t.Error("registry not read from the revision")
	}
	var rels []string
	for _, f := range got.Siblings.Files {
		rels = append(rels, f.Rel)
	}
	var wantRels []string
	for _, f := range want.Siblings.Files {
		wantRels = append(wantRels, f.Rel)
	}
	if strings.Join(rels, ",") != strings.Join(wantRels, ",") {
		t.Errorf("siblings %v, want %v", rels, wantRels)
	}
	kid, err := got.FindAgent("@oastui/leaf-agent")
	if err != nil {
		t.Fatalf("child agent at the revision: %v", err)
	}
	if kid.PackageName() != "@oastui/leaf-agent" {
		t.Errorf("child %q", kid.PackageName())
	}
	if len(got.Findings) != len(want.Findings) {
		t.Errorf("findings %v, want %v", got.Findings, want.Findings)
	}
	if _, err := Load(filepath.Join(repo, "agents", "oastui", "nope"), LoadOptions{Rev: rev}); err == nil {
		t.Error("a directory absent at the revision loaded")
	}
}

func TestOpenGitRevErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Git(t, repo, "", "init", "-q")
	testgit.Git(t, repo, "", "add", "-A")
	testgit.Git(t, repo, "", "commit", "-q", "-m", "one")
	testgit.Git(t, repo, "", "commit", "-q", "--allow-empty", "-m", "two")
	for _, rev := range []string{"nosuchrev", "HEAD~5", "--output=x"} {
		if _, err := OpenGitRev(repo, rev); !errors.Is(err, ErrRevision) {
			t.Errorf("%s: err %v, want ErrRevision", rev, err)
		}
	}
	if _, err := OpenGitRev(t.TempDir(), "HEAD"); !errors.Is(err, ErrRevision) {
		t.Errorf("outside a repository: %v", err)
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	testgit.Git(t, repo, "", "clone", "-q", "--depth", "1", "file://"+repo, shallow)
	_, err := OpenGitRev(shallow, "HEAD~1")
	if !errors.Is(err, ErrRevision) || !strings.Contains(err.Error(), "shallow") {
		t.Errorf("shallow clone: %v", err)
	}
}
