package bpe

// What the tests read of an encoding.

// Tokens is the number of tokens in the table (ranks 0 … Tokens-1).
func (e *Encoding) Tokens() int { return int(e.n) }

// Pieces cuts text as the encoding's pre-tokenizer does (valid UTF-8).
func (e *Encoding) Pieces(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := e.next(text, i)
		out = append(out, text[i:j])
		i = j
	}
	return out
}
