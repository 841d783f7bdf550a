package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// validateAsBefore is ValidateFlowStructural as it was before accepts:
// every schema checked value by value.
func validateAsBefore(root *Node) []StructuralIssue {
	var out []StructuralIssue
	path := &zpath{segs: make([]zseg, 0, 8)}
	flowSchema.check(root, path, &out)
	refs := root.Get("$referenced_components")
	if refs.Is(Object) {
		for _, e := range entries(refs) {
			id, c := e.Key, e.Value
			if c.Is(Object) && c.Get("component_type").StringOr("") == "ParallelFlowNode" {
				var sub []StructuralIssue
				parallelFlowNodeSchema.check(c, path, &sub)
				for _, s := range sub {
					out = append(out, StructuralIssue{Path: append([]string{"$referenced_components", id}, s.Path...), Message: s.Message})
				}
			}
		}
	}
	return out
}

// schemaGen writes random JSON for a schema: mostly what it accepts, each
// value sometimes of another kind, missing, null, repeated (the last
// member wins) or beside unknown keys, with objects large enough for the
// parser's key index now and then.
type schemaGen struct {
	r *rand.Rand
	b strings.Builder
}

func (g *schemaGen) other() {
	switch g.r.Intn(9) {
	case 0:
		g.b.WriteString("null")
	case 1:
		g.b.WriteString("7")
	case 2:
		g.b.WriteString("true")
	case 3:
		g.b.WriteString(`""`)
	case 4:
		g.b.WriteString(`"other"`)
	case 5:
		g.b.WriteString(`[]`)
	case 6:
		g.b.WriteString(`{}`)
	case 7:
		g.b.WriteString(`["x"]`)
	default:
		g.b.WriteString(`{"$component_ref":"x"}`)
	}
}

func (g *schemaGen) value(s zschema, depth int) {
	if g.r.Intn(12) == 0 || depth > 6 {
		g.other()
		return
	}
	switch s := s.(type) {
	case zString:
		fmt.Fprintf(&g.b, "%q", strings.Repeat("s", g.r.Intn(3)))
	case zLiteral:
		if g.r.Intn(8) == 0 {
			fmt.Fprintf(&g.b, "%q", s.val+"x")
		} else {
			fmt.Fprintf(&g.b, "%q", s.val)
		}
	case zBool:
		g.b.WriteString([]string{"true", "false"}[g.r.Intn(2)])
	case zEnum:
		if g.r.Intn(8) == 0 {
			g.b.WriteString(`"nope"`)
		} else {
			fmt.Fprintf(&g.b, "%q", s.vals[g.r.Intn(len(s.vals))])
		}
	case zRecord, zRefOrRecord, zUnknown:
		g.b.WriteString(`{"k":1}`)
	case zArray:
		g.b.WriteByte('[')
		n := g.r.Intn(4)
		for i := 0; i < n; i++ {
			if i > 0 {
				g.b.WriteByte(',')
			}
			g.value(s.elem, depth+1)
		}
		g.b.WriteByte(']')
	case zObject:
		g.object(s, depth)
	default:
		g.other()
	}
}

func (g *schemaGen) object(s zObject, depth int) {
	type mem struct {
		key string
		f   zschema
	}
	var ms []mem
	for _, f := range s.fields {
		switch g.r.Intn(10) {
		case 0: // missing
		case 1: // repeated: the last one counts
			ms = append(ms, mem{f.key, f.schema}, mem{f.key, f.schema})
		case 2:
			ms = append(ms, mem{f.key, nil}) // null
		default:
			ms = append(ms, mem{f.key, f.schema})
		}
	}
	if g.r.Intn(4) == 0 {
		extra := 1 + g.r.Intn(3)
		if g.r.Intn(3) == 0 {
			extra = keyIndexMin + g.r.Intn(4) // the parser indexes the object
		}
		for i := 0; i < extra; i++ {
			ms = append(ms, mem{fmt.Sprintf("x%d", i), zUnknown{}})
		}
	}
	g.r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	g.b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			g.b.WriteByte(',')
		}
		fmt.Fprintf(&g.b, "%q:", m.key)
		if m.f == nil {
			g.b.WriteString("null")
		} else {
			g.value(m.f, depth+1)
		}
	}
	g.b.WriteByte('}')
}

// TestAcceptsAsCheck holds accepts to the schemas' own check: it answers
// true exactly when check reports no issue, on random values of every
// schema the validator uses (and never true for a strict object that
// check faults); and ValidateFlowStructural reports what it
// reported before accepts (validateAsBefore) on random flows, hostile
// flows, every corpus agent and every history revision.
func TestAcceptsAsCheck(t *testing.T) {
	schemas := map[string]zschema{
		"flow": flowSchema, "parallel": parallelFlowNodeSchema, "control": controlFlowEdgeSchema,
		"data": dataFlowEdgeSchema, "property": propertySchema, "ref": componentRefSchema,
		"strict": zObject{strict: true, fields: []zField{{"a", zString{}}}},
		"min":    zObject{fields: []zField{{"s", zString{min: 2}}, {"b", zBool{zopt{optional: true}}}}},
		"twice":  zObject{fields: []zField{{"a", zString{zopt: zopt{optional: true}}}, {"a", zLiteral{val: "x"}}}},
	}
	r := rand.New(rand.NewSource(16))
	n := 2000 / race.Stride(8)
	for name, s := range schemas {
		for i := 0; i < n; i++ {
			g := &schemaGen{r: r}
			g.value(s, 0)
			doc := ParseDoc("v.json", []byte(g.b.String()))
			if doc.Root == nil {
				t.Fatalf("%s: %v\n%s", name, doc.Err, g.b.String())
			}
			var issues []StructuralIssue
			s.check(doc.Root, &zpath{}, &issues)
			got := planOf(s).accepts(doc.Root)
			if name == "strict" && !got {
				continue // a strict object is always checked
			}
			if got != (len(issues) == 0) {
				t.Fatalf("%s: accepts %v, check reports %v on\n%s", name, got, issues, g.b.String())
			}
		}
	}
	same := func(t *testing.T, name string, root *Node) {
		t.Helper()
		if got, want := ValidateFlowStructural(root), validateAsBefore(root); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: issues\n%v\nwant\n%v", name, got, want)
		}
	}
	parallel := zObject{fields: append([]zField{{"component_type", zLiteral{val: "ParallelFlowNode"}}}, parallelFlowNodeSchema.fields[1:]...)}
	for i := 0; i < n; i++ {
		g := &schemaGen{r: r}
		g.value(flowSchema, 0)
		src := g.b.String()
		if strings.HasPrefix(src, "{") && g.r.Intn(2) == 0 {
			// a root with parallel nodes among its components
			var b strings.Builder
			b.WriteString(`{"$referenced_components":{`)
			for j := 0; j < 1+g.r.Intn(3); j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				pg := &schemaGen{r: r}
				pg.object(parallel, 1)
				fmt.Fprintf(&b, "%q:%s", fmt.Sprint("p", j), pg.b.String())
			}
			b.WriteString("},")
			src = b.String() + src[1:]
			if src[len(src)-2] == ',' {
				src = src[:len(src)-2] + "}"
			}
		}
		doc := ParseDoc("oas.json", []byte(src))
		if doc.Root == nil {
			t.Fatalf("%v\n%s", doc.Err, src)
		}
		same(t, src, doc.Root)
	}
	for _, valid := range []bool{true, false} {
		same(t, fmt.Sprint("hostile ", valid), ParseDoc("oas.json", hostile.Flow(300, valid)).Root)
	}
	t.Run("corpus and history", func(t *testing.T) {
		// the corpus and the history need ../shared (skipped without it)
		dir, slugs := testshared.CorpusAgents(t)
		files := testshared.HistoryFlows(t)
		for _, slug := range slugs {
			files = append(files, filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
		}
		for i := 0; i < len(files); i += race.Stride(8) {
			f := files[i]
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			if doc := ParseDoc("oas.json", b); doc.Root != nil {
				same(t, f, doc.Root)
			}
		}
	})
}
