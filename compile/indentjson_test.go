package compile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// encodeIndented is the JSON format's output as it was: encoding/json's
// Encoder with SetIndent("", "  ").
func encodeIndented(t *testing.T, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeCompactIndented(t *testing.T, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return indentJSON(nil, b.Bytes())
}

// TestIndentJSONAsEncoder: indentJSON of the encoder's compact output is
// the encoder's indented output, byte for byte: every JSON file of the
// diff's, lint's and compile's test data (as written, key order kept), and random
// values with empty and nested objects and arrays and strings full of
// quotes, backslashes, brackets, commas, colons and escapes.
func TestIndentJSONAsEncoder(t *testing.T) {
	files := 0
	for _, root := range []string{"../diff/testdata", "../lint/testdata", "../schema", "testdata"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || !json.Valid(b) {
				return nil
			}
			files++
			v := json.RawMessage(b)
			if got, want := encodeCompactIndented(t, v), encodeIndented(t, v); !bytes.Equal(got, want) {
				t.Fatalf("%s: indented differently:\n got %.400q\nwant %.400q", p, got, want)
			}
			return nil
		})
	}
	if files < 50 {
		t.Fatalf("only %d JSON files compared", files)
	}
	r := rand.New(rand.NewSource(13))
	pieces := []string{`"`, `\`, `{`, `}`, `[`, `]`, `,`, `:`, " ", "\n", "\t", "\u2028", "é", "<&>", "a", "\x00", "\x1b"}
	var value func(depth int) any
	value = func(depth int) any {
		switch k := r.Intn(7); {
		case k == 0 && depth < 5:
			m := map[string]any{}
			for i := 0; i < r.Intn(4); i++ {
				m[fmt.Sprint(value(9))] = value(depth + 1)
			}
			return m
		case k == 1 && depth < 5:
			var l []any
			if r.Intn(3) > 0 {
				l = []any{}
			}
			for i := 0; i < r.Intn(4); i++ {
				l = append(l, value(depth+1))
			}
			return l
		case k == 2:
			return r.Float64() * 1e6
		case k == 3:
			return r.Intn(2) == 0
		case k == 4:
			return nil
		}
		var b strings.Builder
		for i := 0; i < r.Intn(8); i++ {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	for c := 0; c < 3000; c += race.Stride(8) { // a sample under -race
		v := value(0)
		if got, want := encodeCompactIndented(t, v), encodeIndented(t, v); !bytes.Equal(got, want) {
			t.Fatalf("case %d: indented differently:\n got %q\nwant %q", c, got, want)
		}
	}
}
