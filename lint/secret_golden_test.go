package lint

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// TestSecretFixtures reviews every agent package under testdata/secrets
// with the two secret checks (flow document and sibling files) and compares
// with <case>.golden (-update rewrites). ok-* cases have no finding, err-*
// cases at least one.
func TestSecretFixtures(t *testing.T) {
	base := filepath.Join("testdata", "secrets")
	ents, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	update := flag.Lookup("update") != nil && flag.Lookup("update").Value.String() == "true"
	n := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(base, e.Name())
			a, err := compile.Load(dir, compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p := &Pass{Agent: a, Config: &Config{}}
			scanDocSecrets(p, a.Flow)
			for _, f := range ScanSiblingFiles(a) {
				p.ReportFinding(f)
			}
			fs := compile.SortFindings(p.Findings())
			var b strings.Builder
			for _, f := range fs {
				rel, _ := filepath.Rel(dir, f.File)
				fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s] %s\n", filepath.ToSlash(rel), f.Line, f.Column, f.Severity, f.Message, f.Code, f.Location)
			}
			got := b.String()
			golden := dir + ".golden"
			if update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s:\ngot\n%s\nwant\n%s", golden, got, want)
			}
			if strings.HasPrefix(e.Name(), "ok-") != (len(fs) == 0) {
				t.Errorf("%d findings in %s", len(fs), e.Name())
			}
		})
	}
	if n == 0 {
		t.Fatal("no fixtures")
	}
}
