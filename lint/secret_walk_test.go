package lint

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// visitRef20 is the walk of 20292f1, kept as the oracle of visit, object
// and str: every node through one recursive visit, its key passed down.
func (w *secretWalker) visitRef20(n *compile.Node, key string, kc present.KeyClass) {
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
		if w.quiet != nil && kc < 8 {
			e := w.quiet.slot(n.Text)
			if e.s == n.Text && e.classes&(1<<kc) != 0 {
				return
			}
			det, ok := present.DetectIn(kc, n.Text)
			if !ok || kc == present.KeyDescriptive && !det.Strong {
				if e.s != n.Text {
					e.s, e.classes = n.Text, 0
				}
				e.classes |= 1 << kc
				return
			}
			w.report(w.pointer(n), kc, det, secretOf(n.Text, det))
			return
		}
		det, ok := present.DetectIn(kc, n.Text)
		if !ok {
			return
		}
		if kc == present.KeyDescriptive && !det.Strong {
			return
		}
		w.report(w.pointer(n), kc, det, secretOf(n.Text, det))
	case compile.Object:
		pairClass, paired := present.KeyClass(255), false
		for _, m := range n.Members {
			c := present.KeyNeutral
			switch v := m.Value; {
			case v == nil:
			case v.Kind == compile.String && len(v.Text) >= 6, v.Kind == compile.Array:
				c = w.class(m.Key)
			case v.Kind != compile.Object:
				continue
			}
			if m.Key == "value" || m.Key == "default" {
				if !paired {
					pairClass, paired = w.pairClass(n), true
				}
				if pairClass != 255 {
					c = pairClass
				}
			}
			w.visitRef20(m.Value, m.Key, c)
		}
	case compile.Array:
		for _, it := range n.Items {
			w.visitRef20(it, key, kc)
		}
	}
}

// walkReports walks root with the walk of this tree (ref false) or the
// oracle's, with or without the table of quiet strings, and returns the
// reports in order and the node count.
func walkReports(root *compile.Node, ref, quiet bool) ([]string, int) {
	var out []string
	w := secretWalker{report: func(ptr string, class present.KeyClass, det present.Detection, secret string) {
		out = append(out, fmt.Sprintf("%s %d %+v %q", ptr, class, det, secret))
	}}
	if quiet {
		w.quiet = new(quietStrings)
	}
	if ref {
		w.root = root
		w.visitRef20(root, "", present.KeyNeutral)
	} else {
		w.walk(root, "", present.KeyNeutral)
	}
	return out, w.nodes
}

func sameWalk(t *testing.T, name string, root *compile.Node) int {
	t.Helper()
	n := 0
	for _, quiet := range []bool{false, true} {
		got, gotN := walkReports(root, false, quiet)
		want, wantN := walkReports(root, true, quiet)
		if !reflect.DeepEqual(got, want) || gotN != wantN {
			t.Fatalf("%s (quiet %v): %d nodes, reports %q\nthe oracle: %d nodes, %q", name, quiet, gotN, got, wantN, want)
		}
		n += len(got)
	}
	return n
}

// randSecretJSON writes a random value of depth at most d: keys of every
// class and the pair labels, values short and long, quiet and secret.
func randSecretJSON(r *rand.Rand, b *strings.Builder, d int) {
	keys := []string{"value", "default", "name", "key", "header", "api_key", "password", "description", "node_id", "note", "url", "title", "list", "token", "id"}
	vals := []string{"abc", "Authorization", "api_key", "password", "Zq8xPw3rTk7", fakeGH, "Bearer " + fakeGH, "hello world here", "node_42", "{{secret}}", "x-api-key", "https://u:p4ssw0rdX@host/x", "abcdef"}
	switch k := r.Intn(10); {
	case d == 0 || k < 4:
		switch r.Intn(6) {
		case 0:
			b.WriteString("null")
		case 1:
			b.WriteString("12345678")
		case 2:
			b.WriteString("true")
		default:
			fmt.Fprintf(b, "%q", vals[r.Intn(len(vals))])
		}
	case k < 7:
		b.WriteByte('{')
		for i := range r.Intn(6) {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, "%q:", keys[r.Intn(len(keys))])
			randSecretJSON(r, b, d-1)
		}
		b.WriteByte('}')
	default:
		b.WriteByte('[')
		for i := range r.Intn(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			randSecretJSON(r, b, d-1)
		}
		b.WriteByte(']')
	}
}

// dropSome sets some member values to nil (a tree edited by hand).
func dropSome(r *rand.Rand, n *compile.Node) {
	if n == nil {
		return
	}
	for i := range n.Members {
		if r.Intn(8) == 0 {
			n.Members[i].Value = nil
			continue
		}
		dropSome(r, n.Members[i].Value)
	}
	for _, it := range n.Items {
		dropSome(r, it)
	}
}

// The walk reports what the walk of 20292f1 reports, in the same order,
// and counts the same nodes: random documents (some with nil members),
// then every corpus flow.
func TestSecretWalkSameAsRef(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	reports := 0
	for i := range 4000 / race.Stride(8) {
		var b strings.Builder
		randSecretJSON(r, &b, 5)
		d := compile.ParseDoc("r.json", []byte(b.String()))
		if d.Err != nil || d.Root == nil {
			t.Fatalf("%s: %v", b.String(), d.Err)
		}
		if i%3 == 0 {
			dropSome(r, d.Root)
		}
		reports += sameWalk(t, b.String(), d.Root)
	}
	if reports < 1000/race.Stride(8) {
		t.Fatalf("%d reports: the random documents do not exercise the scan", reports)
	}
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for i, slug := range slugs {
			if i%race.Stride(8) != 0 {
				continue
			}
			src, err := os.ReadFile(filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
			if err != nil {
				t.Fatal(err)
			}
			d := compile.ParseDoc("oas.json", src)
			sameWalk(t, slug, d.Root)
		}
	})
}
