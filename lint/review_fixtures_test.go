package lint

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The -update flag rewrites golden files; another test file of the package
// may define it too, so it is registered only when missing.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func rvUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// rvChecks are the checks of the review issue that the fixtures under
// testdata/invalid/{scans,slots} exercise. Only these run, so that the
// golden files do not change when other rules are added.
var rvChecks = []func(*Pass){checkUntrustedURLs, checkLLMBridgeWiring, checkStartNodeInputs, checkPackage, checkContextSlots}

// rvRender prints one finding a line: file:line:col: severity: message [code] pointer,
// with file relative to testdata/.
func rvRender(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		file := filepath.ToSlash(f.File)
		file = strings.TrimPrefix(file, "../testdata/")
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s] %s\n", file, f.Line, f.Column, f.Severity, f.Message, f.Code, f.Location)
	}
	return b.String()
}

// TestReviewFixtures runs the review checks over every case directory of
// testdata/invalid/scans and testdata/invalid/slots and compares with
// <case>.golden beside it (go test ./lint -run TestReviewFixtures -update
// rewrites them). A case named ok-* must have no finding; any other case
// must have at least one. A case directory holding .oastui.yaml is
// reviewed with that config.
func TestReviewFixtures(t *testing.T) {
	for _, group := range []string{"scans", "slots"} {
		base := filepath.Join("..", "testdata", "invalid", group)
		ents, err := os.ReadDir(base)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			n++
			dir := filepath.Join(base, e.Name())
			t.Run(group+"/"+e.Name(), func(t *testing.T) {
				cfg := &Config{}
				if p := filepath.Join(dir, ".oastui.yaml"); rvFileExists(p) {
					c, err := LoadConfig(p)
					if err != nil {
						t.Fatal(err)
					}
					cfg = c
				}
				a := rvLoad(t, dir)
				got := rvRender(rvRunChecks(a, cfg, rvChecks...))
				golden := dir + ".golden"
				if rvUpdate() {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("findings differ from %s:\ngot\n%s\nwant\n%s", golden, got, want)
				}
				if ok := strings.HasPrefix(e.Name(), "ok-"); ok != (got == "") {
					t.Errorf("case %s: ok-cases need no finding, others at least one; got:\n%s", e.Name(), got)
				}
			})
		}
		if n == 0 {
			t.Fatalf("no cases under %s", base)
		}
	}
}

func rvFileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
