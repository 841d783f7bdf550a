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
	// The flows of the rule fixtures that are packages in a rule's folder,
	// each distinct one once (the ok folders hold copies).
	paths, _ := filepath.Glob(filepath.Join(rulesFixtureDir, "*", "*", "*", "cinatra", "oas.json"))
	seen := map[string]bool{}
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil && !seen[string(src)] {
			seen[string(src)] = true
			f.Add(src, []byte(`{"name":"@acme/x","version":"1","cinatra":{"agentDependencies":{"@cinatra-ai/context-selection-agent":"1"}}}`))
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
