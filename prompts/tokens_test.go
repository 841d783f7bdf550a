package prompts

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/bpe"
	"github.com/oastui/oastui/internal/race"
)

// Known counts. Source: OpenAI's cookbook "How to count tokens with
// tiktoken" (github.com/openai/openai-cookbook, examples/
// How_to_count_tokens_with_tiktoken.ipynb), whose compare_encodings shows
// "antidisestablishmentarianism" as 6 tokens in cl100k_base and o200k_base,
// "2 + 2 = 4" as 7 in both, "お誕生日おめでとう" as 9 in cl100k_base and 8 in
// o200k_base, and encodes "tiktoken is great!" to 6 tokens; "hello world"
// is 2 tokens in both (["hello", " world"]). The library agrees on every
// one (this test).
func TestKnownCounts(t *testing.T) {
	for _, c := range []struct {
		text         string
		o200k, cl100 int
	}{
		{"hello world", 2, 2},
		{"tiktoken is great!", 6, 6},
		{"antidisestablishmentarianism", 6, 6},
		{"2 + 2 = 4", 7, 7},
		{"お誕生日おめでとう", 8, 9},
		{"", 0, 0},
	} {
		for enc, want := range map[string]int{O200K: c.o200k, CL100K: c.cl100} {
			got, err := Count(enc, c.text)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("Count(%s, %q) = %d, want %d", enc, c.text, got, want)
			}
		}
	}
	if _, err := Count("p50k_base", "x"); err == nil {
		t.Error("an encoding oastui does not offer should be an error")
	}
}

// TestChunkedCountsEqualWhole: cutting the text where the pre-tokenizer
// always cuts changes no count (the memo counts chunks).
func TestChunkedCountsEqualWhole(t *testing.T) {
	if race.Enabled {
		t.Skip("tokenizes 20 kB twice per encoding: run without -race")
	}
	texts := []string{
		strings.Repeat("word, another word.\n\n  indented line\n- item: `code`\n/path/after/newline\n", 40),
		strings.Repeat("## Heading\n\nParagraph with **bold** text — and a dash.\n\t\ttabbed\n\n\n", 30),
		strings.Repeat("{\"a\": 1,\n \"b\": [1, 2, 3]\n}\n", 50) + "tail without newline",
		strings.Repeat("x", 300) + "\n" + strings.Repeat("é", 300) + "\r\n" + "Ünïcödé\n",
	}
	for _, enc := range Encodings {
		tk, err := bpe.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range texts {
			if len(chunks(s)) < 2 {
				t.Fatalf("text %d is not cut: the test tests nothing", i)
			}
			want := tk.Count(s)
			if got, _ := Count(enc, s); got != want {
				t.Errorf("%s text %d: chunked %d, whole %d", enc, i, got, want)
			}
		}
	}
}

func TestLookupModel(t *testing.T) {
	if m := LookupModel("gpt-4o"); m.Window != 128000 || m.Encoding != O200K || !m.Exact {
		t.Errorf("gpt-4o: %+v", m)
	}
	if m := LookupModel("gpt-5.5"); m.Window != 0 || m.Encoding != O200K || !m.Exact {
		t.Errorf("gpt-5.5 (window unknown): %+v", m)
	}
	if m := LookupModel("claude-sonnet-4-6"); m.Exact {
		t.Errorf("claude counts are estimates: %+v", m)
	}
	if m := LookupModel("gpt-4-0613"); m.Encoding != CL100K {
		t.Errorf("gpt-4-*: %+v", m)
	}
}
