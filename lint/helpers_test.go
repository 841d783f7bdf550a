package lint

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
)

// The package's one -update flag: `go test ./lint -update` rewrites the
// golden files (testdata/rules/err/<code>.golden, docs/rules.md, …)
// instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

func updateGoldens() bool { return *update }

// ruleCase is the path of one case of a rule's fixture folder:
// testdata/rules/<kind>/<code>/<name> (kind "ok" or "err").
func ruleCase(kind, code, name string) string {
	return filepath.Join(rulesFixtureDir, kind, code, name)
}

// rvChecks are the review checks the review fuzzer drives and the config
// tests run alone.
var rvChecks = []func(*Pass){checkUntrustedURLs, checkLLMBridgeWiring, checkStartNodeInputs, checkPackage, checkContextSlots}

// firstDiff names the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}
