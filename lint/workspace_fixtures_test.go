package lint_test

import (
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/workspace"
)

// The workspace_* rules' fixtures are agents/ trees that package workspace
// reviews; workspace imports lint, so this external test file hands
// TestRuleFixtures the tree review.
func init() {
	lint.SetReviewTree(func(t *testing.T, dir string) []lint.Finding {
		t.Helper()
		root := filepath.Join(dir, "agents")
		dirs, err := compile.FindAgents(root, 0)
		if err != nil {
			t.Fatal(err)
		}
		return workspace.Build(root, workspace.ReviewAll(root, dirs, analysis.Options{}, 1, nil), nil).Findings
	})
}
