package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wideOutputsFlow is a flow of n outputs (titles o0…o(n-1); every third
// has a default) and two EndNodes: "all" produces every output, "some"
// every output but those missing names.
func wideOutputsFlow(n int, missing map[int]bool) []byte {
	var fout, all, some []string
	for i := 0; i < n; i++ {
		o := fmt.Sprintf(`{"title":"o%d","type":"string"}`, i)
		if i%3 == 2 {
			fout = append(fout, fmt.Sprintf(`{"title":"o%d","type":"string","default":"x"}`, i))
		} else {
			fout = append(fout, o)
		}
		all = append(all, o)
		if !missing[i] {
			some = append(some, o)
		}
	}
	some = append(some, `{"type":"string"}`) // a property without a title
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[` + strings.Join(fout, ",") + `],` +
		`"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"all"},{"$component_ref":"some"}],` +
		`"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"a","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"all"}},{"component_type":"ControlFlowEdge","name":"b","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"some"}}],` +
		`"data_flow_connections":[],"$referenced_components":{` +
		`"s":{"component_type":"StartNode","id":"s","name":"s","inputs":[],"outputs":[]},` +
		`"all":{"component_type":"EndNode","id":"all","name":"all","inputs":[],"outputs":[` + strings.Join(all, ",") + `]},` +
		`"some":{"component_type":"EndNode","id":"some","name":"some","inputs":[],"outputs":[` + strings.Join(some, ",") + `]}}}`)
}

// TestFlowOutputsMissing: F11 names each output without a default that an
// EndNode lacks, once, whether the EndNode's outputs are few (scanned) or
// many (looked up in a set of their titles).
func TestFlowOutputsMissing(t *testing.T) {
	for _, n := range []int{5, titleSetMin - 1, titleSetMin, 60} {
		missing := map[int]bool{0: true, 2: true, n - 1: true, n / 2: true}
		r := Run(hubAgent(wideOutputsFlow(n, missing)), Options{})
		var got, want []string
		for _, f := range r.Findings {
			if f.Code == RuleFlowOutputMissingInEndNode.Code {
				got = append(got, f.Location+" "+f.Message)
			}
		}
		for i := 0; i < n; i++ {
			if missing[i] && i%3 != 2 {
				want = append(want, fmt.Sprintf(`/outputs/%d output "o%d" of flow "F" has no default and EndNode "some" does not produce it`, i, i))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("n=%d:\ngot  %q\nwant %q", n, got, want)
		}
	}
}

// BenchmarkFlowOutputsWide: the review of a flow of n outputs whose
// EndNodes produce n each. Per output it should stay flat as n grows:
// each output once scanned every EndNode's n outputs (Θ(n²): 1.46 s of
// `run --dry`'s 2.6 s on a flow of 20,000).
func BenchmarkFlowOutputsWide(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		src := wideOutputsFlow(n, map[int]bool{n / 2: true})
		b.Run(fmt.Sprintf("outputs=%d", n), func(b *testing.B) {
			for b.Loop() {
				Run(hubAgent(src), Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/output")
		})
	}
}
