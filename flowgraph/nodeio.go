package flowgraph

import (
	"fmt"

	"github.com/oastui/oastui/compile"
)

// Ports lists a node component's inputs or outputs array as "title: type"
// ("$ref X" for a referenced schema, " (default)" when it has a default):
// the one wording the TUI's Node tab and the language server's hover share.
// The strings are the file's own text: faces sanitise them.
func Ports(arr *compile.Node) []string {
	if arr == nil || arr.Kind != compile.Array {
		return nil
	}
	var out []string
	for _, it := range arr.Items {
		title := it.Get("title").StringOr("?")
		typ := it.Get("type").StringOr("")
		if typ == "" {
			if r, ok := compile.RefID(it); ok {
				typ = "$ref " + r
			}
		}
		s := title
		if typ != "" {
			s += ": " + typ
		}
		if it.Get("default") != nil {
			s += " (default)"
		}
		out = append(out, s)
	}
	return out
}

// DataEdgesOf lists the data edges into node id ("producer.output → input")
// and out of it ("output → consumer.input"), in the flow's order.
func (g *Graph) DataEdgesOf(id string) (in, out []string) {
	for _, e := range g.Data {
		if e.To == id {
			in = append(in, fmt.Sprintf("%s.%s → %s", e.From, e.Output, e.Input))
		}
		if e.From == id {
			out = append(out, fmt.Sprintf("%s → %s.%s", e.Output, e.To, e.Input))
		}
	}
	return in, out
}
