package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// Today's platform findings reach the editor like every other: the
// produces-mirror refusal (cinatra#3095) on metadata.cinatra.produces, and
// the retired cinatra.object_type (cinatra#1788) as a suggestion on the
// annotation.
func TestProducesAndRetiredDiagnostics(t *testing.T) {
	for _, c := range []struct{ fixture, code, covers string }{
		{"../lint/testdata/rules/err/produces_mirror_mismatch/other-extension/cinatra/oas.json", "produces_mirror_mismatch", `[`}, // a multi-line value: its opening token
		{"../lint/testdata/rules/err/object_type_retired/oas.json", "object_type_retired", `"summary-doc"`},
	} {
		t.Run(c.code, func(t *testing.T) {
			path, err := filepath.Abs(c.fixture)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, out, _ := newTestServer(t, -1)
			s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": string(src)}}))
			got := diagsOf(t, out, path, string(src))[c.code]
			if len(got) != 1 || got[0] != c.covers {
				t.Errorf("%s diagnostics cover %q, want one covering %q", c.code, got, c.covers)
			}
		})
	}
}
