package lint

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// valLastKey is the key of the nearest member above n (array items take
// their array's key), "$" at the root, read from the parent links: what
// the validator's walk read for each string before it passed the key down
// (valWalker.visit), kept as the oracle.
func valLastKey(n *compile.Node) string {
	for c := n; c.Parent() != nil; c = c.Parent() {
		if c.Parent().Kind == compile.Object {
			return c.Key()
		}
	}
	return "$"
}

// walkKeyDoc is a random Flow document whose strings sit under prose and
// other keys at every depth: members, arrays of arrays, the root Flow's
// and a nested Flow's $referenced_components, repeated keys; some strings
// hold a legacy token (OAS-RUNTIME-012) or are a skill-id key's name.
func walkKeyDoc(r *rand.Rand) string {
	keys := []string{"system", "user", "task", "message", "instructions", "prompt_template", "taskSpec", "system_prompt",
		"description", "name", "data", "inputs", "x/y", "a~b", "value", ""}
	var value func(depth int) string
	value = func(depth int) string {
		switch k := r.Intn(10); {
		case k < 4 || depth > 4:
			switch r.Intn(6) {
			case 0:
				return strconv.Quote("please call objects_save with the result")
			case 1:
				return strconv.Quote("then artifact_authoring_emit it")
			case 2:
				return strconv.Quote([]string{"skillIds", "skill_ids"}[r.Intn(2)])
			case 3:
				return "12"
			}
			return strconv.Quote("plain text " + strconv.Itoa(r.Intn(100)))
		case k < 7:
			var b strings.Builder
			b.WriteByte('{')
			for i, n := 0, r.Intn(4); i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%s: %s", strconv.Quote(keys[r.Intn(len(keys))]), value(depth+1))
			}
			b.WriteByte('}')
			return b.String()
		default:
			var b strings.Builder
			b.WriteByte('[')
			for i, n := 0, r.Intn(4); i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(value(depth + 1))
			}
			b.WriteByte(']')
			return b.String()
		}
	}
	comps := func(depth int) string {
		var b strings.Builder
		for i, n := 0, 1+r.Intn(3); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"c%d": {"component_type": "LlmNode", "id": "c%d", %q: %s, %q: %s}`, i, i,
				keys[r.Intn(len(keys))], value(depth), keys[r.Intn(len(keys))], value(depth))
		}
		if r.Intn(2) == 0 { // a definition that is not an object: a string or an array under a prose id
			fmt.Fprintf(&b, `, %q: %s`, []string{"system", "task", "other"}[r.Intn(3)], []string{
				strconv.Quote("call objects_save"), `["call objects_save", ["artifact_authoring_emit"]]`}[r.Intn(2)])
		}
		return b.String()
	}
	return fmt.Sprintf(`{"component_type": "Flow", "id": "f", "name": "f", %q: %s, "system": %s,
  "$referenced_components": {%s, "sub": {"component_type": "FlowNode", "id": "sub", "subflow": {"component_type": "Flow", "id": "g", "name": "g",
    "$referenced_components": {%s}, %q: %s}}}}`,
		keys[r.Intn(len(keys))], value(0), value(1), comps(1), comps(2), keys[r.Intn(len(keys))], value(0))
}

// TestWalkKeyIsLastKey: the validator's walk passes each string its key
// instead of reading valLastKey from the parent links; the rules that read
// the key (OAS-RUNTIME-012, and oas_skill_ids on the same strings) report
// exactly at the strings the oracle names, on 400 random documents.
func TestWalkKeyIsLastKey(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	seen := 0
	for i := 0; i < 400/race.Stride(4); i++ {
		src := walkKeyDoc(r)
		d := compile.ParseDoc("flow.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("doc %d does not parse: %v\n%s", i, d.Err, src)
		}
		var want []string
		var visit func(n *compile.Node)
		visit = func(n *compile.Node) {
			if n.Kind == compile.String {
				if isProseKey(valLastKey(n)) && legacyTokenIn(n.Text) != "" {
					want = append(want, "OAS-RUNTIME-012 "+compile.PointerOf(n))
				}
				if n.Text == "skillIds" || n.Text == "skill_ids" {
					want = append(want, "oas_skill_ids "+compile.PointerOf(n))
				}
			}
			for _, m := range n.Members {
				visit(m.Value)
			}
			for _, it := range n.Items {
				visit(it)
			}
		}
		visit(d.Root)
		var got []string
		for _, f := range Run(rvWriteFlow(t, src), Options{}).Findings {
			if f.Code == "OAS-RUNTIME-012" || f.Code == "oas_skill_ids" && f.Location != "" && !strings.HasSuffix(f.Location, "skillIds") && !strings.HasSuffix(f.Location, "skill_ids") {
				got = append(got, f.Code+" "+f.Location)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		want, got = slices.Compact(want), slices.Compact(got) // a repeated key: one pointer
		if !slices.Equal(got, want) {
			t.Fatalf("doc %d:\ngot  %q\nwant %q\n%s", i, got, want, src)
		}
		seen += len(want)
	}
	if seen < 200/race.Stride(4) {
		t.Errorf("only %d findings in all: the documents do not exercise the keys", seen)
	}
}
