package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
)

// FuzzReviewChecks feeds arbitrary flow documents (seeded with the review
// fixtures) to the review scans, the slot contract and IsTrivial: bad
// input must never panic (the writers: lint/report's FuzzFormats).
//
//	go test ./lint -run '^$' -fuzz FuzzReviewChecks -fuzztime 30s -parallel 1
func FuzzReviewChecks(f *testing.F) {
	for _, glob := range []string{filepath.Join(rulesFixtureDir, "*", "*", "*", "cinatra", "oas.json")} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src, []byte(`{"name":"@acme/x","version":"1","cinatra":{"agentDependencies":{"@cinatra-ai/context-selection-agent":"1"}}}`))
			}
		}
	}
	f.Add([]byte(`{"metadata":{"cinatra":{"contextSlots":[1,{"slotId":7,"minItems":1e99}]}},"nodes":{},"$referenced_components":[]}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, flow, pkg []byte) {
		a := &compile.Agent{Flow: compile.ParseDoc("flow.json", flow), Package: compile.ParseDoc("package.json", pkg), Profile: compile.ProfileCinatra}
		if a.Flow.Root == nil {
			return
		}
		fs := rvRunChecks(a, &Config{AllowedHosts: []string{"*.example.com"}}, rvChecks...)
		_ = IsTrivial(a)
		_ = advisoryFindings(a, &Config{}, fs)
	})
}
