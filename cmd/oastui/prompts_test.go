package main

import (
	"encoding/json"
	"fmt"
	"github.com/oastui/oastui/internal/race"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const promptsFixture = "../../prompts/testdata/agents/acme/prompt-agent"

func TestPromptsText(t *testing.T) {
	if race.Enabled {
		t.Skip("counts tokens: run without -race")
	}
	code, out, errb := runCmd("prompts", promptsFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{
		"1 LLM-bearing node(s); tokens as o200k_base / cl100k_base",
		"model:   openai gpt-4o (data.cinatra_llm), o200k_base",
		"{{ facts }} in user ← edge from fetch.facts",
		"{{ extra }} in user ← UNRESOLVED (dataflow_input_unsatisfied)",
		"{{ contextSlotBindings }} in user ← context slot style via context_style",
		"skill:   skills/prompt-agent/SKILL.md found, tool",
		"--- user ---\nTopic: solar panels\nFacts: The sun is a star.\n",
		"== usage by ContextOS bucket",
		"example (not a limit)             1800",
		"no budget: .oastui.yaml sets none",
		"note: Token counts are tiktoken BPE counts",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPromptsJSONAndNode(t *testing.T) {
	if race.Enabled {
		t.Skip("counts tokens: run without -race")
	}
	code, out, errb := runCmd("prompts", promptsFixture, "--format", "json", "--node", "write")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r struct {
		SchemaVersion int `json:"schema_version"`
		Nodes         []struct {
			ID string `json:"id"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.SchemaVersion != 2 || len(r.Nodes) != 1 || r.Nodes[0].ID != "write" {
		t.Errorf("json: %+v", r)
	}
	if code, _, errb := runCmd("prompts", promptsFixture, "--node", "nope"); code != 2 || !strings.Contains(errb, "the agent's: write") {
		t.Errorf("unknown node: exit %d %s", code, errb)
	}
	if code, _, _ := runCmd("prompts", promptsFixture, "--format", "yaml"); code != 2 {
		t.Errorf("bad format: exit %d", code)
	}
	if code, _, _ := runCmd("prompts", filepath.Join(t.TempDir(), "missing")); code != 2 {
		t.Errorf("missing path: exit %d", code)
	}
}

// TestPromptsSanitised: escape sequences and secrets of the agent never
// reach the output, in either format; line breaks of the prompt stay.
func TestPromptsSanitised(t *testing.T) {
	if race.Enabled {
		t.Skip("counts tokens: run without -race")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(promptsFixture, "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	hostile := strings.Replace(string(src), `"Topic: {{ topic }}`, `"\u001b]0;pwned\u0007Topic \u001b[31m{{ topic }} key sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd`, 1)
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"cinatra/oas.json": []byte(hostile), "package.json": []byte(`{"name":"@acme/prompt-agent","version":"0.1.0","license":"MIT"}`)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"text", "json"} {
		code, out, errb := runCmd("prompts", dir, "--format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errb)
		}
		if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, `\u001b`) || strings.Contains(out, "AbCdEfGhIjKlMnOp") {
			t.Errorf("%s: unsanitised output:\n%s", format, out)
		}
	}
}

// TestPromptsManyPlaceholdersBounded: the text report lists at most
// promptsMaxPlaceholders placeholders of a node and says how many more
// there are (issue 26 item 14: 100,000 placeholders wrote 10 MB); --format
// json lists promptsMaxJSONPlaceholders and counts the others (it wrote 60
// MB).
func TestPromptsManyPlaceholdersBounded(t *testing.T) {
	if race.Enabled {
		t.Skip("counts tokens: run without -race")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(promptsFixture, "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := promptsMaxJSONPlaceholders + 57
	var many strings.Builder
	for i := range n {
		fmt.Fprintf(&many, "{{ p%d }} ", i)
	}
	hostile := strings.Replace(string(src), `"Topic: {{ topic }}`, `"Topic: {{ topic }} `+many.String(), 1)
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"cinatra/oas.json": []byte(hostile), "package.json": []byte(`{"name":"@acme/prompt-agent","version":"0.1.0","license":"MIT"}`)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errb := runCmd("prompts", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if listed := strings.Count(out, "\n  {{ "); listed != promptsMaxPlaceholders {
		t.Errorf("%d placeholders listed, want %d", listed, promptsMaxPlaceholders)
	}
	total := 0
	fmt.Sscanf(out[strings.Index(out, "placeholders ("):], "placeholders (%d)", &total)
	if total < n || !strings.Contains(out, fmt.Sprintf("  … %d more placeholders (--format json lists up to %d)\n", total-promptsMaxPlaceholders, promptsMaxJSONPlaceholders)) {
		t.Errorf("no note of the placeholders left out:\n%s", grepLines(out, "more placeholders"))
	}
	// the JSON is bounded too, and says how many it leaves out
	_, js, _ := runCmd("prompts", dir, "--format", "json")
	if c := strings.Count(js, `"sample_source"`); c != promptsMaxJSONPlaceholders || !strings.Contains(js, fmt.Sprintf(`"placeholders_omitted": %d`, total-promptsMaxJSONPlaceholders)) {
		t.Errorf("json lists %d of the %d placeholders; %s", c, total, grepLines(js, "placeholders_omitted"))
	}
	if c := strings.Count(js, `"kind": "placeholder"`); c > 2*promptsMaxJSONPlaceholders+1 || !strings.Contains(js, `"segments_omitted": `) {
		t.Errorf("json lists %d segments; %s", c, grepLines(js, "segments_omitted"))
	}
}
