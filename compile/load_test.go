package compile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// corpusDir returns ../shared/corpus/cinatra, or skips the test when the
// shared corpus is not beside the checkout (as on a user's machine).
func corpusDir(t testing.TB) string { return testshared.Corpus(t) }

func TestLoadCorpusAgents(t *testing.T) {
	root := filepath.Join(corpusDir(t), "agents", "cinatra-ai")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		a, err := Load(filepath.Join(root, e.Name()), LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		if len(a.Findings) != 0 || a.Flow.Root == nil || a.Package == nil || a.Registry == nil {
			t.Errorf("%s: findings %v, flow parsed %v, package %v, registry %v", e.Name(), a.Findings, a.Flow.Root != nil, a.Package != nil, a.Registry != nil)
		}
		if a.Profile != ProfileCinatra {
			t.Errorf("%s: profile %q", e.Name(), a.Profile)
		}
		if len(Flows(a.Flow.Root)) == 0 {
			t.Errorf("%s: no flows", e.Name())
		}
	}
}
