package lint

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// visitRef is secretWalker.visit as it was before the pair class was read
// lazily (a scan of every object's members for a label first): the oracle
// of TestSecretPairsLazy. No quiet-strings table: the oracle reports every
// detection where it is.
func (w *secretWalker) visitRef(n *compile.Node, key string, kc present.KeyClass) {
	if n == nil {
		return
	}
	w.nodes++
	if w.nodes > secretMaxNodes {
		return
	}
	switch n.Kind {
	case compile.String:
		if len(n.Text) < 6 {
			return
		}
		det, ok := present.DetectIn(kc, n.Text)
		if !ok || kc == present.KeyDescriptive && !det.Strong {
			return
		}
		w.report(w.pointer(n), kc, det, secretOf(n.Text, det))
	case compile.Object:
		pairClass := present.KeyClass(255)
		var label *compile.Node
		hasValue := false
		for _, m := range n.Members {
			switch m.Key {
			case "value", "default":
				hasValue = true
			case "name", "key", "header", "field", "param":
				if m.Value != nil && m.Value.Kind == compile.String {
					label = m.Value
				}
			}
		}
		if hasValue && label != nil && label.Text != "" && len(label.Text) < 128 {
			if c := present.ClassifyKey(label.Text); c >= present.KeySecret {
				pairClass = c
			}
		}
		for _, m := range n.Members {
			c := present.KeyNeutral
			switch v := m.Value; {
			case v == nil:
			case v.Kind == compile.String && len(v.Text) >= 6, v.Kind == compile.Array:
				c = present.ClassifyKey(m.Key)
			case v.Kind != compile.Object:
				continue
			}
			if pairClass != 255 && (m.Key == "value" || m.Key == "default") {
				c = pairClass
			}
			w.visitRef(m.Value, m.Key, c)
		}
	case compile.Array:
		for _, it := range n.Items {
			w.visitRef(it, key, kc)
		}
	}
}

func secretReportsRef(d *compile.Doc) []string {
	var out []string
	w := secretWalker{report: func(ptr string, class present.KeyClass, det present.Detection, secret string) {
		out = append(out, fmt.Sprintf("%s %d %+v %q", ptr, class, det, secret))
	}}
	w.root = d.Root
	w.visitRef(d.Root, "", present.KeyNeutral)
	return out
}

// pairsDoc is a random document of name/value pairs: labels naming secrets
// or not (name, key, header, field, param; repeated, non-string, empty,
// over 127 bytes), value and default members holding literals, numbers,
// arrays and objects, before or after their label, nested.
func pairsDoc(r *rand.Rand) string {
	labels := []string{`"Authorization"`, `"api_key"`, `"password"`, `"note"`, `"X-Api-Token"`, `""`, `12`, `null`,
		strconv.Quote(strings.Repeat("password", 17)), `"client_secret"`}
	values := []string{`"Zq8xPw3rTk7"`, `"Bearer Zq8xPw3rTk7Lm2Nb5Vc"`, `"hello world"`, `42`, `["Zq8xPw3rTk7", "x"]`,
		`{"value": "Zq8xPw3rTk7"}`, `"` + fakeGH + `"`, `"short"`}
	keys := []string{"name", "key", "header", "field", "param", "value", "default", "note", "items"}
	var obj func(depth int) string
	obj = func(depth int) string {
		var parts []string
		for i, n := 0, r.Intn(6); i < n; i++ {
			k := keys[r.Intn(len(keys))]
			v := values[r.Intn(len(values))]
			switch {
			case k == "name" || k == "key" || k == "header" || k == "field" || k == "param":
				v = labels[r.Intn(len(labels))]
			case depth < 3 && r.Intn(4) == 0:
				v = obj(depth + 1)
			case depth < 3 && r.Intn(6) == 0:
				v = "[" + obj(depth+1) + "," + obj(depth+1) + "]"
			}
			parts = append(parts, strconv.Quote(k)+": "+v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return obj(0)
}

// TestSecretPairsLazy: the walk that reads a pair's label class at the
// first value or default member it visits reports what the walk that
// scanned every object for a label first reported (every report, in
// order), on 3,000 random pair documents and every corpus flow.
func TestSecretPairsLazy(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	reports := 0
	for i := 0; i < 3000; i++ {
		src := pairsDoc(r)
		d := compile.ParseDoc("pairs.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("doc %d does not parse: %v\n%s", i, d.Err, src)
		}
		got, want := secretReports(d, false), secretReportsRef(d)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("doc %d:\ngot  %q\nwant %q\n%s", i, got, want, src)
		}
		reports += len(want)
	}
	if reports < 1000 {
		t.Errorf("only %d reports: the documents do not exercise the pairs", reports)
	}
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			src, err := os.ReadFile(filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
			if err != nil {
				t.Fatal(err)
			}
			d := compile.ParseDoc("oas.json", src)
			if got, want := secretReports(d, false), secretReportsRef(d); !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\ngot  %q\nwant %q", slug, got, want)
			}
		}
	})
}
