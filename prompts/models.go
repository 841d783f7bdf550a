package prompts

import "strings"

// ModelInfo is what oastui knows of a model: its context window and the
// tokenizer its counts are closest to.
type ModelInfo struct {
	Window   int    // context window in tokens (0: unknown)
	Encoding string // the BPE encoding of the model, or the one used as an estimate
	Exact    bool   // Encoding is the model's own tokenizer (OpenAI models); else counts are estimates
	Source   string // where Window comes from
}

// The context windows of the models the platform's allowlist names
// (reference cinatra.md §5, ALLOWED_MODEL_IDS) and a few older ones, from
// the vendors' model pages. A model not listed here (gpt-5.5, gpt-5.4,
// gpt-5.4-mini, claude-opus-4-7 among the allowlist's) has an unknown
// window: oastui shows its counts without a share rather than guess.
//
// Encodings: OpenAI publishes its tokenizers (tiktoken's model table maps
// gpt-4o, gpt-4.1 and later to o200k_base, gpt-4 and gpt-3.5-turbo to
// cl100k_base). Anthropic and Google do not ship theirs as BPE tables, so
// for their models o200k_base is an estimate, and says so.
var models = map[string]ModelInfo{
	"gpt-5":         {400000, O200K, true, "platform.openai.com/docs/models/gpt-5"},
	"gpt-5-mini":    {400000, O200K, true, "platform.openai.com/docs/models/gpt-5-mini"},
	"gpt-4.1":       {1047576, O200K, true, "platform.openai.com/docs/models/gpt-4.1"},
	"gpt-4.1-mini":  {1047576, O200K, true, "platform.openai.com/docs/models/gpt-4.1-mini"},
	"gpt-4o":        {128000, O200K, true, "platform.openai.com/docs/models/gpt-4o"},
	"gpt-4o-mini":   {128000, O200K, true, "platform.openai.com/docs/models/gpt-4o-mini"},
	"gpt-4":         {8192, CL100K, true, "platform.openai.com/docs/models/gpt-4"},
	"gpt-3.5-turbo": {16385, CL100K, true, "platform.openai.com/docs/models/gpt-3.5-turbo"},

	"claude-sonnet-4-6":        {200000, O200K, false, "docs.anthropic.com/en/docs/about-claude/models"},
	"claude-3-7-sonnet-latest": {200000, O200K, false, "docs.anthropic.com/en/docs/about-claude/models"},
	"claude-3-5-haiku-latest":  {200000, O200K, false, "docs.anthropic.com/en/docs/about-claude/models"},

	"gemini-2.5-pro":        {1048576, O200K, false, "ai.google.dev/gemini-api/docs/models"},
	"gemini-2.5-flash":      {1048576, O200K, false, "ai.google.dev/gemini-api/docs/models"},
	"gemini-2.5-flash-lite": {1048576, O200K, false, "ai.google.dev/gemini-api/docs/models"},
	"gemini-1.5-pro":        {2097152, O200K, false, "ai.google.dev/gemini-api/docs/models"},
}

// LookupModel returns what is known of model id: its table entry, else
// for an OpenAI-looking id the encoding tiktoken would pick (window
// unknown), else o200k_base as an estimate.
func LookupModel(id string) ModelInfo {
	if m, ok := models[id]; ok {
		return m
	}
	switch {
	case strings.HasPrefix(id, "gpt-4-"), strings.HasPrefix(id, "gpt-3.5-turbo"):
		return ModelInfo{Encoding: CL100K, Exact: true}
	case strings.HasPrefix(id, "gpt-"), strings.HasPrefix(id, "o1"), strings.HasPrefix(id, "o3"), strings.HasPrefix(id, "o4"):
		return ModelInfo{Encoding: O200K, Exact: true}
	}
	return ModelInfo{Encoding: O200K}
}
