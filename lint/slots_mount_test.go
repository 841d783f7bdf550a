package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
)

// A valid slim agent (only metadata.cinatra.contextSlots and a consumer
// input; the loader injects the rest at mount) has no finding at all: no
// context_slot_not_wired, no dataflow_input_unsatisfied on the consumer's
// bindings input, no stub wiring for its context-selector screen.
func TestSlimSlotAgentsAreClean(t *testing.T) {
	dir := filepath.Join(rulesFixtureDir, "ok", RuleContextSlotMountRefused.Code)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) < 3 {
		t.Fatalf("%d slim fixtures, want 3", len(ents))
	}
	for _, e := range ents {
		_, found := reviewDir(t, filepath.Join(dir, e.Name()))
		for _, f := range found {
			t.Errorf("%s: %s %s: %s", e.Name(), f.Code, f.Location, f.Message)
		}
	}
}

// The explicit form's context-resolve URL is matched exactly, as the
// platform's explicit-wiring test does
// (contextslots-require-explicit-context-selection-agent.test.ts @9c10bbc4).
func TestContextResolveURLExact(t *testing.T) {
	for url, want := range map[string]bool{
		"{{CINATRA_BASE_URL}}/api/context-resolve":     true,
		"{{CINATRA_BASE_URL}}/api/context-resolve/":    false,
		"https://example.com/api/context-resolve":      false,
		"{{CINATRA_BASE_URL}}/api/context-resolve?x=1": false,
		"{{ CINATRA_BASE_URL }}/api/context-resolve":   false,
	} {
		root, err := compile.Parse([]byte(`{"component_type":"Flow","$referenced_components":{"r":{"component_type":"ApiNode","url":` + jsonString(url) + `}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := callsContextResolve(root); got != want {
			t.Errorf("%q: %v, want %v", url, got, want)
		}
	}
}
