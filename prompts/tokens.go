package prompts

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/oastui/oastui/internal/bpe"
)

// Encodings counted, in the order reports list them.
const (
	O200K  = "o200k_base"  // GPT-4o, GPT-4.1, GPT-5 families
	CL100K = "cl100k_base" // GPT-4, GPT-3.5-turbo
)

// Encodings are the BPE encodings every count is given in.
var Encodings = []string{O200K, CL100K}

// Counts is a token count per encoding.
type Counts map[string]int

// Of is the count in enc (0 when not counted).
func (c Counts) Of(enc string) int { return c[enc] }

// add adds d into c.
func (c Counts) add(d Counts) {
	for k, v := range d {
		c[k] += v
	}
}

// The tokenizer is internal/bpe: OpenAI's rank tables generated at build
// time into a form read in place from the binary (nothing to parse, sort
// or allocate at start), a hand-written linear pre-tokenizer, and counts
// identical to tiktoken's (internal/bpe's conformance tests).

// tokenized counts the non-empty texts Count was asked to count in this
// process (memoised or not): prompts' tests check that a budget-only
// report counts nothing it need not.
var tokenized atomic.Int64

// memo keeps the count of each chunk of text already counted, per
// encoding: a re-analysis after a save re-counts only the paragraphs that
// changed. It is bounded; when full it is cleared.
type memo struct {
	mu sync.Mutex
	m  map[memoKey]int
}

type memoKey struct{ enc, text string }

const memoMax = 1 << 15

var counts = &memo{m: map[memoKey]int{}}

func (m *memo) get(k memoKey) (int, bool) {
	m.mu.Lock()
	n, ok := m.m[k]
	m.mu.Unlock()
	return n, ok
}

func (m *memo) put(k memoKey, n int) {
	m.mu.Lock()
	if len(m.m) >= memoMax {
		clear(m.m)
	}
	m.m[k] = n
	m.mu.Unlock()
}

// Count is the number of tokens text encodes to in enc. Special-token
// text such as "<|endoftext|>" is counted as ordinary text, as the chat
// APIs treat it. The text is cut into chunks where the encoders' own
// pre-tokenizer always cuts (after a line break that a non-space
// character follows: no pre-token of cl100k_base or o200k_base spans such
// a place), so the count of the whole equals the sum over the chunks and
// each chunk is counted once per process.
func Count(enc, text string) (int, error) {
	if text == "" {
		return 0, nil
	}
	e, err := bpe.Get(enc)
	if err != nil {
		return 0, err
	}
	tokenized.Add(1)
	total := 0
	for _, c := range chunks(text) {
		k := memoKey{enc, c}
		n, ok := counts.get(k)
		if !ok {
			n = e.Count(c)
			counts.put(k, n)
		}
		total += n
	}
	return total, nil
}

// chunkMin is the size below which a chunk is not cut further (cutting
// tiny chunks only costs map look-ups).
const chunkMin = 256

// chunks cuts text after a '\n' followed by a character that is not
// white space (nor '/', which o200k_base's ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
// may take after the line break), once a chunk is at least chunkMin
// bytes long.
func chunks(text string) []string {
	if len(text) <= chunkMin {
		return []string{text}
	}
	var out []string
	start := 0
	for i := start + chunkMin; i < len(text); {
		k := strings.IndexByte(text[i:], '\n')
		if k < 0 {
			break
		}
		p := i + k + 1
		if p < len(text) && !isUnicodeSpaceStart(text[p]) && text[p] != '/' {
			out = append(out, text[start:p])
			start = p
			i = p + chunkMin
			continue
		}
		i = p
	}
	return append(out, text[start:])
}

// isUnicodeSpaceStart: a byte that may start a white-space character (the
// ASCII ones, and the lead bytes of U+0085, U+00A0, U+1680, U+2000–U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000): a cut is never made before one.
func isUnicodeSpaceStart(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0xc2, 0xe1, 0xe2, 0xe3:
		return true
	}
	return false
}
