package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// checkSummaryOptions: a summary with parts left out is the full summary
// with those parts nil, each option alone and both, for every agent of
// root (and a directory that does not load).
func checkSummaryOptions(t *testing.T, root string) {
	t.Helper()
	dirs, err := compile.FindAgents(root, 0)
	if err != nil || len(dirs) == 0 {
		t.Fatalf("%d agents under %s, %v", len(dirs), root, err)
	}
	dirs = append(dirs, filepath.Join(t.TempDir(), "gone"))
	wd, _ := os.Getwd()
	tops, files := 0, 0
	for _, dir := range dirs {
		s := analysis.Run(dir, analysis.Options{Stages: Stages})
		full := SummarizeFrom(wd, root, s)
		tops += len(full.Top)
		files += len(full.Files)
		for _, o := range []SummaryOptions{{}, {NoTop: true}, {NoFiles: true}, {NoTop: true, NoFiles: true}} {
			want := full
			if o.NoTop {
				want.Top = nil
			}
			if o.NoFiles {
				want.Files = nil
			}
			if got := SummarizeWith(wd, root, s, o); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %+v:\n%+v\nwant\n%+v", dir, o, got, want)
			}
		}
	}
	if tops == 0 || files == 0 {
		t.Fatalf("no finding preview (%d) or no file (%d) in any summary: the test tests nothing", tops, files)
	}
}

func TestSummaryOptions(t *testing.T) {
	checkSummaryOptions(t, filepath.Join("..", "testdata", "agents"))
	t.Run("corpus", func(t *testing.T) {
		if race.Enabled {
			t.Skip("the corpus under -race: the testdata tree above covers the code")
		}
		checkSummaryOptions(t, filepath.Join(testshared.Corpus(t), "agents"))
	})
}
