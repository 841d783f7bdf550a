package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testgit"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type histRev struct {
	Rev     string `json:"rev"`
	Subject string `json:"subject"`
}

// historyRepo builds a git repository holding the agent's revisions in
// order (agents/cinatra-ai/<slug>), one commit each with its subject;
// it returns the repository, the agent's directory and the commits.
func historyRepo(t testing.TB, histDir, slug string) (string, string, []string, []histRev) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(histDir, slug, "log.json"))
	if err != nil {
		t.Fatal(err)
	}
	var revs []histRev
	if err := json.Unmarshal(b, &revs); err != nil {
		t.Fatal(err)
	}
	testgit.Have(t)
	repo := t.TempDir()
	agent := filepath.Join(repo, "agents", "cinatra-ai", slug)
	testgit.Git(t, repo, "", "init", "-q")
	// One git fast-import for the whole history: each revision is a commit
	// replacing the agent's files (deleteall), with its subject.
	var stream bytes.Buffer
	prefix := "agents/cinatra-ai/" + slug + "/"
	for i, r := range revs {
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\ncommitter t <t@t> %d +0000\ndata %d\n%s\n", i+1, 1767225600+i*60, len(r.Subject), r.Subject)
		if i > 0 {
			fmt.Fprintf(&stream, "from :%d\n", i)
		}
		stream.WriteString("deleteall\n")
		root := filepath.Join(histDir, slug, r.Rev)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			fmt.Fprintf(&stream, "M 100644 inline %s\ndata %d\n", prefix+filepath.ToSlash(rel), len(b))
			stream.Write(b)
			stream.WriteString("\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	marks := filepath.Join(t.TempDir(), "marks")
	cmd := exec.Command("git", "-C", repo, "fast-import", "--quiet", "--export-marks="+marks)
	cmd.Stdin = &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	testgit.Git(t, repo, "", "checkout", "-q", "main")
	raw, err := os.ReadFile(marks)
	if err != nil {
		t.Fatal(err)
	}
	commits := make([]string, len(revs))
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var n int
		var sha string
		if _, err := fmt.Sscanf(line, ":%d %s", &n, &sha); err == nil && n >= 1 && n <= len(revs) {
			commits[n-1] = sha
		}
	}
	return repo, agent, commits, revs
}

// TestHistory diffs every consecutive pair of revisions of every agent of
// the corpus history, read from a real git repository, against goldens.
func TestHistory(t *testing.T) {
	histDir := testshared.Dir(t, "corpus", "history")
	ents, err := os.ReadDir(histDir)
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, e := range ents {
		if e.IsDir() {
			slugs = append(slugs, e.Name())
		}
	}
	for i := 0; i < len(slugs); i += race.Stride(5) {
		slug := slugs[i]
		t.Run(slug, func(t *testing.T) {
			repo, agent, commits, revs := historyRepo(t, histDir, slug)
			cfg := &analysis.ConfigResult{}
			snaps := make([]*analysis.Snapshot, len(commits))
			for i, c := range commits {
				g, err := compile.OpenGitRev(repo, c)
				if err != nil {
					t.Fatal(err)
				}
				snaps[i] = Analyze(agent, g, cfg)
				g.Close()
			}
			var out bytes.Buffer
			for i := 1; i < len(commits); i++ {
				r := Diff(snaps[i-1], snaps[i], Options{})
				r.Old.Rev, r.New.Rev = revs[i-1].Rev, revs[i].Rev
				fmt.Fprintf(&out, "## %s → %s: %s\n", revs[i-1].Rev, revs[i].Rev, revs[i].Subject)
				if err := Text(&out, r, repo, false); err != nil {
					t.Fatal(err)
				}
				out.WriteString("\n")
				checkHistoryPair(t, r, filepath.Join(histDir, slug), revs[i-1].Rev, revs[i].Rev)
				validateResult(t, r)
			}
			golden(t, filepath.Join("testdata", "history", slug+".txt"), out.Bytes())
		})
	}
}

// checkHistoryPair: a revision that changes only package.json names no
// change of the flow.
func checkHistoryPair(t *testing.T, r *Result, dir, a, b string) {
	t.Helper()
	fa, _ := os.ReadFile(filepath.Join(dir, a, "cinatra", "oas.json"))
	fb, _ := os.ReadFile(filepath.Join(dir, b, "cinatra", "oas.json"))
	if !bytes.Equal(fa, fb) {
		return
	}
	for _, c := range r.Changes {
		p := c.New
		if p == nil {
			p = c.Old
		}
		inPkg := p != nil && filepath.Base(p.File) == "package.json"
		// a package.json edit may break or fix the compile (the produces mirror)
		health := c.Check == CheckSideBroken.ID || c.Check == CheckSideFixed.ID
		if area := byID[c.Check].Area; area != "package" && area != "review" && !(area == "fallback" && inPkg) && !health {
			t.Errorf("%s → %s changes only package.json, yet %s: %s", a, b, c.Check, c.Message)
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run with -update to accept):\n%s", path, got)
	}
}

var resultSchema = func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("diff-output.schema.json", doc); err != nil {
		panic(err)
	}
	s, err := c.Compile("diff-output.schema.json#/$defs/agent")
	if err != nil {
		panic(err)
	}
	return s
}()

// validateResult checks one Result against the agent entry of the JSON
// Schema of --format json.
func validateResult(t *testing.T, r *Result) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := resultSchema.Validate(v); err != nil {
		t.Errorf("the result does not match the schema: %v", err)
	}
}
