package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oastui/oastui/compile"
)

// OAS-LLM-001…004: the optional metadata.cinatra.llm declaration
// (reference §5, scanOasForLlmMetadata). The schema is a strict object
// {preferredProvider?, preferredModel?, capabilityRequired?}; structural
// problems are OAS-LLM-001 (one per problem, zod's texts), and only a
// well-formed declaration is checked for the cross-field rules 002–004.
// The deterministic review runs these too (SPEC §3.3): they are one rule
// set, registered once, here.

var (
	RuleOASLLM001 = &Rule{Code: "OAS-LLM-001", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "metadata.cinatra.llm is malformed: unknown provider or capability, unknown field, or a value of the wrong type"}
	RuleOASLLM002 = &Rule{Code: "OAS-LLM-002", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "metadata.cinatra.llm.preferredModel is not in the allowlist of its preferredProvider"}
	RuleOASLLM003 = &Rule{Code: "OAS-LLM-003", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "metadata.cinatra.llm.preferredModel is set without preferredProvider"}
	RuleOASLLM004 = &Rule{Code: "OAS-LLM-004", Severity: compile.Blocker, Group: validatorGroup,
		Doc: `metadata.cinatra.llm.capabilityRequired "media_input" needs preferredProvider "gemini"`}
)

var (
	llmProviders    = []string{"openai", "anthropic", "gemini"}
	llmCapabilities = []string{"media_input", "function_tools", "native_mcp"}
	// llmAllowedModels is the reference's ALLOWED_MODEL_IDS.
	llmAllowedModels = map[string][]string{
		"openai":    {"gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini"},
		"anthropic": {"claude-sonnet-4-6", "claude-opus-4-7", "claude-3-7-sonnet-latest", "claude-3-5-haiku-latest"},
		"gemini":    {"gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite", "gemini-1.5-pro"},
	}
)

const llmBase = "/metadata/cinatra/llm"

func (v *valCtx) checkLLM() {
	c := v.root.Path("metadata", "cinatra")
	if !c.Is(compile.Object) {
		return
	}
	llm := c.Get("llm")
	if llm == nil {
		return
	}
	report001 := func(field, msg string) {
		ptr := llmBase
		if field != "" {
			ptr += "/" + compile.EscapePointerToken(field)
		}
		v.report(ptr, RuleOASLLM001, msg)
	}
	if llm.Kind != compile.Object {
		report001("", "metadata.cinatra.llm structural error: "+zodType("object", llm))
		return
	}
	bad := false
	enum := func(field, label string, values []string) {
		n := llm.Get(field)
		if n == nil {
			return
		}
		if s, ok := n.Str(); ok && slices.Contains(values, s) {
			return
		}
		bad = true
		report001(field, fmt.Sprintf(`Unknown %s: Invalid option: expected one of "%s"`, label, strings.Join(values, `"|"`)))
	}
	enum("preferredProvider", "preferredProvider", llmProviders)
	if m := llm.Get("preferredModel"); m != nil {
		if s, ok := m.Str(); !ok {
			bad = true
			report001("preferredModel", "metadata.cinatra.llm structural error: "+zodType("string", m))
		} else if s == "" {
			bad = true
			report001("preferredModel", "metadata.cinatra.llm structural error: Too small: expected string to have >=1 characters")
		}
	}
	enum("capabilityRequired", "capabilityRequired", llmCapabilities)
	var unknown []string
	first := ""
	for _, m := range valEntries(llm) {
		switch m.Key {
		case "preferredProvider", "preferredModel", "capabilityRequired":
			continue
		}
		if first == "" {
			first = m.Key
		}
		unknown = append(unknown, `"`+m.Key+`"`)
	}
	if len(unknown) > 0 {
		bad = true
		word := "key"
		if len(unknown) > 1 {
			word = "keys"
		}
		report001(first, fmt.Sprintf("Unknown field in metadata.cinatra.llm: Unrecognized %s: %s", word, strings.Join(unknown, ", ")))
	}
	if bad {
		return
	}

	provider, hasProvider := llm.Get("preferredProvider").Str()
	model, _ := llm.Get("preferredModel").Str()
	capability, _ := llm.Get("capabilityRequired").Str()
	if model != "" && !hasProvider {
		v.report(llmBase+"/preferredModel", RuleOASLLM003, "metadata.cinatra.llm.preferredModel requires preferredProvider")
	}
	if model != "" && hasProvider {
		if allowed := llmAllowedModels[provider]; !slices.Contains(allowed, model) {
			v.report(llmBase+"/preferredModel", RuleOASLLM002,
				fmt.Sprintf(`metadata.cinatra.llm.preferredModel "%s" is not in the allowlist for provider "%s". Allowed: %s`,
					model, provider, strings.Join(allowed, ", ")))
		}
	}
	if capability == "media_input" && provider != "gemini" {
		got := "undefined"
		if hasProvider {
			got = `"` + provider + `"`
		}
		v.report(llmBase+"/capabilityRequired", RuleOASLLM004,
			fmt.Sprintf(`metadata.cinatra.llm.capabilityRequired "media_input" requires preferredProvider "gemini" (got %s)`, got))
	}
}
