package diff

import (
	"strconv"
	"strings"

	"github.com/oastui/oastui/present"
)

// Masking of a change's values (issue 35, points 6 and 7), applied at one
// point (cleanChange) for every format, and to word diffs where they are
// made.

// maskedWords is the word diff of a and b, each side masked first as whole
// statements (present.Lines judges "The admin password: …" under its
// label), so that no word piece of a secret is shown away from its label.
// The alignment spends the diff's budget (budget.go).
func (d *differ) maskedWords(a, b string) []Word {
	return wordsWithin(present.Lines(a), present.Lines(b), d.budget)
}

// words makes the word diff of each listed change that has texts to
// align, in the order the changes are listed (the most severe spend the
// budget first), and adds its counts to the message.
func (d *differ) words() {
	for i := range d.out {
		c := &d.out[i]
		if c.wordsOf == nil {
			continue
		}
		c.Words = d.maskedWords(c.wordsOf[0], c.wordsOf[1])
		c.Message += wordSummary(c.Words)
		c.wordsOf = nil
	}
}

// secretKey is the first name c is about that names a secret (the port, the
// last word of the subject, the last segment of either pointer), "" when
// none does: its values are then masked as lint masks a value under that
// key (present.Value).
func secretKey(c *Change) string {
	var cands []string
	if c.Port != "" {
		cands = append(cands, c.Port)
	}
	if f := strings.Fields(c.Subject); len(f) > 0 {
		last := f[len(f)-1]
		cands = append(cands, last)
		if i := strings.LastIndexAny(last, "./"); i >= 0 {
			cands = append(cands, last[i+1:])
		}
	}
	for _, p := range []*Pos{c.Old, c.New} {
		if p != nil && p.Pointer != "" {
			cands = append(cands, p.Pointer[strings.LastIndexByte(p.Pointer, '/')+1:])
		}
	}
	for _, k := range cands {
		if present.ClassifyKey(k) > present.KeyNeutral {
			return k
		}
	}
	return ""
}

// maskNamed masks the values of a change about a secret-named key, and
// the same values where its message quotes them.
func maskNamed(c *Change) {
	key := secretKey(c)
	if key == "" {
		return
	}
	for _, v := range []*string{&c.Before, &c.After} {
		raw := *v
		if raw == "" {
			continue
		}
		m := present.Value(key, raw)
		if m == raw {
			continue
		}
		*v = m
		q := strconv.Quote(raw)
		c.Message = strings.ReplaceAll(c.Message, q, strconv.Quote(m))
		c.Message = strings.ReplaceAll(c.Message, raw, m)
	}
}
