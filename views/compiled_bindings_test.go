package views

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// The Compiled tab shows hasArtifactBindings (cinatra#2498) as
// `oastui compile` prints it.
func TestCompiledLinesShowArtifactBindings(t *testing.T) {
	for _, want := range []bool{true, false} {
		lines, err := CompiledLines(&compile.CompiledAgentOas{HasArtifactBindings: want})
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(lines, "\n")
		line := `"hasArtifactBindings": false`
		if want {
			line = `"hasArtifactBindings": true`
		}
		if !strings.Contains(text, line) {
			t.Errorf("no %s in the Compiled tab:\n%s", line, text)
		}
	}
}
