package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// hubFlow is a flow start → hub → end where start, hub and end declare n
// ports each and 2n data edges run start → hub → end (the hostile shape "a
// node with n data edges in and out"). With r non-nil the port titles
// repeat, some ports lack a title and a quarter of the edges name ports no
// node declares.
func hubFlow(n int, r *rand.Rand) []byte {
	title := func(i int) string {
		if r == nil {
			return fmt.Sprintf("v%d", i)
		}
		return fmt.Sprintf("v%d", r.IntN(n+n/4+1))
	}
	var ps, df []string
	for i := 0; i < n; i++ {
		if r != nil && r.IntN(10) == 0 {
			ps = append(ps, `{"type":"string"}`)
			continue
		}
		ps = append(ps, `{"title":"`+title(i)+`","type":"string"}`)
	}
	ports := "[" + strings.Join(ps, ",") + "]"
	for i := 0; i < n; i++ {
		df = append(df, fmt.Sprintf(`{"component_type":"DataFlowEdge","name":"in%d","source_node":{"$component_ref":"s"},"source_output":"%s","destination_node":{"$component_ref":"h"},"destination_input":"%s"}`, i, title(i), title(i)),
			fmt.Sprintf(`{"component_type":"DataFlowEdge","name":"out%d","source_node":{"$component_ref":"h"},"source_output":"%s","destination_node":{"$component_ref":"e"},"destination_input":"%s"}`, i, title(i), title(i)))
	}
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"h"},{"$component_ref":"e"}],` +
		`"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"a","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"h"}},{"component_type":"ControlFlowEdge","name":"b","from_node":{"$component_ref":"h"},"to_node":{"$component_ref":"e"}}],` +
		`"data_flow_connections":[` + strings.Join(df, ",") + `],"$referenced_components":{` +
		`"s":{"component_type":"StartNode","id":"s","name":"s","inputs":` + ports + `,"outputs":` + ports + `},` +
		`"h":{"component_type":"FlowNode","id":"h","name":"h","subflow":{"$component_ref":"sub"},"inputs":` + ports + `,"outputs":` + ports + `},` +
		`"e":{"component_type":"EndNode","id":"e","name":"e","inputs":` + ports + `,"outputs":` + ports + `},` +
		`"sub":{"component_type":"Flow","id":"sub","name":"Sub","start_node":{"$component_ref":"s0"},"nodes":[{"$component_ref":"s0"},{"$component_ref":"s1"}],"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"sc","from_node":{"$component_ref":"s0"},"to_node":{"$component_ref":"s1"}}],"data_flow_connections":[],"inputs":[],"outputs":[],"$referenced_components":{"s0":{"component_type":"StartNode","id":"s0","name":"S0","inputs":[],"outputs":[]},"s1":{"component_type":"EndNode","id":"s1","name":"S1","inputs":[],"outputs":[]}}}}}`)
}

func hubAgent(src []byte) *compile.Agent {
	return &compile.Agent{FlowPath: "oas.json", Flow: compile.ParseDoc("oas.json", src), Profile: compile.ProfileCinatra}
}

// TestPortIndexSameAsScan: the review of flows whose data edges meet nodes
// of many ports (repeated titles, untitled ports, edges naming ports no
// node has) reports the same findings with the port indexes as with the
// plain scans they replaced (Options.plainPorts).
func TestPortIndexSameAsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 5))
	for i := 0; i < 40; i += race.Stride(4) {
		n := 1 + r.IntN(40)
		src := hubFlow(n, r)
		want := Run(hubAgent(src), Options{plainPorts: true}).Findings
		got := Run(hubAgent(src), Options{}).Findings
		if len(want) == 0 {
			t.Fatalf("flow %d: no findings: the test checks nothing", i)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("flow %d (%d ports): indexed\n%+v\nplain\n%+v", i, n, got, want)
		}
	}
}

// TestPortsFind: find answers what propByTitle does, the first port of the
// title, on lists short and long with repeated and missing titles.
func TestPortsFind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for range 200 {
		var ps []string
		for range r.IntN(30) {
			if r.IntN(8) == 0 {
				ps = append(ps, `{"type":"string"}`)
			} else {
				ps = append(ps, fmt.Sprintf(`{"title":"t%d","n":%d}`, r.IntN(12), r.IntN(1000)))
			}
		}
		d := compile.ParseDoc("p.json", []byte("["+strings.Join(ps, ",")+"]"))
		x := &ports{list: d.Root.Items, ok: true}
		for _, title := range []string{"", "t0", "t3", "t11", "t12"} {
			if got, want := x.find(title), propByTitle(d.Root.Items, title); got != want {
				t.Fatalf("find(%q) over %v: %v, want %v", title, ps, got, want)
			}
		}
	}
}

// BenchmarkDataFlowHub: the review of a flow one node of which takes n
// data edges in and sends n out. Per edge it should stay flat as n grows:
// each edge once scanned the node's n ports, and each input all 2n edges
// (5,000: 0.8 s, 20,000: over 20 s).
func BenchmarkDataFlowHub(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		src := hubFlow(n, nil)
		b.Run(fmt.Sprintf("edges=%d", 2*n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Run(hubAgent(src), Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/edge")
		})
	}
}
