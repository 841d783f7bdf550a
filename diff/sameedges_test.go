package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
)

// TestEdgesPortChanged: a data edge whose port alone changes (same ends,
// same place in the list) is a data edge change; the flow's edges as they
// were are none (sameEdges skips them).
func TestEdgesPortChanged(t *testing.T) {
	old := hostile.Flow(6, false) // every node feeds the next: o<i> → i<i>
	for _, c := range []struct{ name, from, to string }{
		{"output", `"source_output":"o2"`, `"source_output":"x2"`},
		{"input", `"destination_input":"i3"`, `"destination_input":"y3"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, n := hostilePair(t, old, bytes.Replace(old, []byte(c.from), []byte(c.to), 1))
			var data []string
			for _, ch := range Diff(o, n, Options{}).Changes {
				if strings.HasPrefix(ch.Check, "diff_data_edge_") {
					data = append(data, ch.Check+" "+ch.Subject)
				}
			}
			if len(data) == 0 {
				t.Errorf("no data edge change for a renamed %s", c.name)
			}
		})
	}
	o, n := hostilePair(t, old, old)
	for _, ch := range Diff(o, n, Options{}).Changes {
		if strings.HasPrefix(ch.Check, "diff_data_edge_") || strings.HasPrefix(ch.Check, "diff_control_edge_") {
			t.Errorf("unchanged flow: %s %s", ch.Check, ch.Subject)
		}
	}
}
