package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// valReferenceCodes are the validator codes whose findings appear in the
// reference's validateOasAgentJson output (object_type_namespace and
// input_message_without_output are compile errors there, and
// component_ref_outer_scope is our warning).
func valInReference(code string) bool {
	switch code {
	case "object_type_namespace", "input_message_without_output", "component_ref_outer_scope":
		return false
	}
	r := LookupRule(code)
	return r != nil && r.Group == validatorGroup
}

// TestValidatorReferenceFixtures: the reference's own test fixtures whose
// validateOasAgentJson result the corpus records give exactly those
// errors: messages as they are for the validator cases, "<code> at <loc>:
// <message>" for the scans (locations are compared by their pointer
// elsewhere; here the code and message must match). Errors of other rule
// groups (secrets, URLs, …) are their tests' business.
func TestValidatorReferenceFixtures(t *testing.T) {
	dir := filepath.Join(valCorpusDir(t), "fixtures", "agent-source-review-handler")
	raw, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index []struct {
		File     string   `json:"file"`
		Validate []string `json:"validateOasAgentJson"`
	}
	if err := json.Unmarshal(raw, &index); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range index {
		if e.Validate == nil {
			continue
		}
		checked++
		t.Run(e.File, func(t *testing.T) {
			// The reference's errors that belong to the validator's rules.
			var want []string
			for _, s := range e.Validate {
				code, _, isScan := strings.Cut(s, " at ")
				if isScan && LookupRule(code) != nil && !valInReference(code) {
					continue // another rule group's scan
				}
				want = append(want, s)
			}
			used := make([]bool, len(want))
			match := func(f Finding) bool {
				for i, s := range want {
					if used[i] {
						continue
					}
					ok := s == f.Message
					if strings.HasPrefix(f.Code, "OAS-") {
						ok = strings.HasPrefix(s, f.Code+" at ") && strings.HasSuffix(s, ": "+f.Message)
					}
					if ok {
						used[i] = true
						return true
					}
				}
				return false
			}
			for _, f := range validatorFindings(t, filepath.Join(dir, e.File), compile.LoadOptions{Profile: compile.ProfileCinatra}) {
				if !valInReference(f.Code) {
					continue
				}
				if !match(f) {
					t.Errorf("we report %s %s: %s; the reference does not", f.Code, f.Location, f.Message)
				}
			}
			for i, s := range want {
				if !used[i] {
					t.Errorf("the reference reports %q; we do not", s)
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no fixture with a recorded validateOasAgentJson result")
	}
}
