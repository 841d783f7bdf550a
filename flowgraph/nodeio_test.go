package flowgraph

import (
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
)

func TestPorts(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`null`, nil},
		{`{}`, nil},
		{`[]`, nil},
		{`[{"title":"topic","type":"string"}]`, []string{"topic: string"}},
		{`[{"title":"n","type":"integer","default":3}]`, []string{"n: integer (default)"}},
		{`[{"title":"doc","$component_ref":"schema_1"}]`, []string{"doc: $ref schema_1"}},
		{`[{"type":"string"}, {}]`, []string{"?: string", "?"}},
	} {
		n, err := compile.Parse([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := Ports(n); !slices.Equal(got, tc.want) {
			t.Errorf("Ports(%s) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestDataEdgesOf(t *testing.T) {
	g := &Graph{Data: []DataEdge{
		{From: "a", Output: "x", To: "b", Input: "y"},
		{From: "b", Output: "z", To: "c", Input: "w"},
	}}
	in, out := g.DataEdgesOf("b")
	if !slices.Equal(in, []string{"a.x → y"}) || !slices.Equal(out, []string{"z → c.w"}) {
		t.Errorf("in %q, out %q", in, out)
	}
	if in, out := g.DataEdgesOf("nope"); in != nil || out != nil {
		t.Errorf("unknown node: in %q, out %q", in, out)
	}
}
