package compile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// compileResult is the reference's {"ok":…} envelope.
func compileResult(a *Agent) map[string]any {
	out, err := Compile(a)
	if err != nil {
		return map[string]any{"ok": false, "error": err.Error()}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return map[string]any{"ok": false, "error": "marshal: " + err.Error()}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return map[string]any{"ok": false, "error": "unmarshal: " + err.Error()}
	}
	return map[string]any{"ok": true, "value": v}
}

// TestCompileConformance: for every corpus agent, Compile's JSON equals
// `compile` of the reference's expected output (key order free).
func TestCompileConformance(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	for _, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "expected", slug+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var exp struct {
				Compile any `json:"compile"`
			}
			if err := json.Unmarshal(src, &exp); err != nil {
				t.Fatal(err)
			}
			a, err := Load(filepath.Join(dir, "agents", "cinatra-ai", slug), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := compileResult(a)
			var want any
			b, _ := json.Marshal(exp.Compile)
			_ = json.Unmarshal(b, &want)
			var gotAny any
			b, _ = json.Marshal(got)
			_ = json.Unmarshal(b, &gotAny)
			if v, ok := gotAny.(map[string]any)["value"].(map[string]any); ok {
				// The oracles are the pinned compiler's, older than
				// hasArtifactBindings (cinatra#2498): the field is held here
				// against the corpus's own bindings and left out of the
				// comparison.
				if h, ok := v["hasArtifactBindings"].(bool); !ok || h != corpusBound[slug] {
					t.Errorf("hasArtifactBindings %v, want %v", v["hasArtifactBindings"], corpusBound[slug])
				}
				delete(v, "hasArtifactBindings")
			}
			if !reflect.DeepEqual(gotAny, want) {
				t.Errorf("compile output differs from the reference:\n%s", strings.Join(jsonDiff("", gotAny, want), "\n"))
			}
		})
	}
}

// corpusBound are the corpus agents whose flow declares an
// outputs[].cinatra.artifact binding on an EndNode (counted in the files):
// the ones whose compiled hasArtifactBindings is true.
var corpusBound = map[string]bool{
	"blog-draft-writer-agent": true,
	"blog-pipeline-agent":     true,
	"email-drafting-agent":    true,
	"email-follow-up-agent":   true,
}

// pinnedKeyOrder is the key order of the pinned oracle's object at path
// with hasArtifactBindings in the place today's compiled output has it,
// before cinatraConfig (CompiledAgentOas).
func pinnedKeyOrder(line string) string {
	if strings.HasPrefix(line, "$.value {") {
		return strings.Replace(line, ",cinatraConfig}", ",hasArtifactBindings,cinatraConfig}", 1)
	}
	return line
}

// jsonDiff lists the differences between two decoded JSON values, one line
// per differing path ("-" want, "+" got).
func jsonDiff(path string, got, want any) []string {
	if reflect.DeepEqual(got, want) {
		return nil
	}
	if path == "" {
		path = "$"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		var out []string
		for _, k := range ks {
			gv, gok := g[k]
			wv, wok := w[k]
			switch {
			case !gok:
				out = append(out, fmt.Sprintf("%s.%s: missing, want %s", path, k, short(wv)))
			case !wok:
				out = append(out, fmt.Sprintf("%s.%s: unexpected %s", path, k, short(gv)))
			default:
				out = append(out, jsonDiff(path+"."+k, gv, wv)...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			break
		}
		var out []string
		for i := range w {
			out = append(out, jsonDiff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i])...)
		}
		return out
	}
	return []string{fmt.Sprintf("%s:\n  - want %s\n  + got  %s", path, short(want), short(got))}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// TestCompileGoldenLeaf: the docs' golden leaf (the one corpus flow with an
// AgentNode backed by an Agent using the global registry) compiles with the
// registry resolving its llm_config and toolbox (reference cinatra.md §15).
func TestCompileGoldenLeaf(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "docs", "golden-leaf", "cinatra", "oas.json")
	a, err := Load(dir, LoadOptions{RegistryPath: filepath.Join(corpusDir(t), "agents", "_shared", "cinatra", "components.json")})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"stepNumber":0,"name":"Inputs","description":"Inputs","requiresApproval":true,"riskClass":"read_only","hitlOwnedBy":"self","skipLlm":true},` +
		`{"nodeType":"agent","stepNumber":1,"requiresApproval":true,"description":"Generate recipient list","name":"Generate recipient list","riskClass":"read_only",` +
		`"xRenderer":"@cinatra-agents/email-recipients:output","a2uiSurfaceId":"email-recipients:step-1:output"}]`
	if got := mustJSON(t, out.ApprovalPolicy.Steps); got != want {
		t.Errorf("steps:\n got %s\nwant %s", got, want)
	}
	if got := mustJSON(t, []any{out.LlmConfig, out.Toolboxes, out.Type}); got != `[{"modelId":"gpt-4o","apiType":"chat_completions"},[{"id":"cinatra-mcp-toolbox","url":"/api/mcp"}],"leaf"]` {
		t.Errorf("llmConfig/toolboxes/type: %s", got)
	}
	if out.Prompt == nil || !strings.HasPrefix(*out.Prompt, "You are a campaign recipient selection agent") {
		t.Errorf("prompt %v", out.Prompt)
	}
}
