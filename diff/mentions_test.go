package diff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
)

// mentionsPlain is explainedByNodes' test before mentionsRef: v holds a
// reference to any of the ids, searched for one id at a time (the oracle).
func mentionsPlain(v string, nodes map[string]bool) bool {
	for id := range nodes {
		if strings.Contains(v, `"$component_ref":`+strconv.Quote(id)) {
			return true
		}
	}
	return false
}

// TestMentionsRefSameAsPlain: mentionsRef answers as the plain search on
// values made of references, near-references and ids with quotes,
// backslashes, non-ASCII and control characters.
func TestMentionsRefSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 35))
	ids := []string{"", "a", "ab", `a"b`, `a\b`, "é", "a\x01", `\"`, "n1", "n12", `"`}
	parts := []string{`"$component_ref":`, `"$component_ref": `, `"$component_ref"`, `{`, `}`, `,`, `"`, `\`, `\"`, "x", "é", "\x01", `"x":`}
	for range 20000 {
		nodes := map[string]bool{}
		for range r.IntN(4) {
			nodes[ids[r.IntN(len(ids))]] = true
		}
		var b strings.Builder
		for range r.IntN(8) {
			if r.IntN(2) == 0 {
				b.WriteString(`"$component_ref":` + strconv.Quote(ids[r.IntN(len(ids))]))
			} else {
				b.WriteString(parts[r.IntN(len(parts))])
			}
		}
		v := b.String()
		quoted := map[string]bool{}
		for id := range nodes {
			quoted[strconv.Quote(id)] = true
		}
		if got, want := mentionsRef(v, quoted), mentionsPlain(v, nodes); got != want {
			t.Fatalf("mentionsRef(%q, %v) = %v, the plain search %v", v, quoted, got, want)
		}
	}
}

// starFlow is a Flow whose start node has an edge to each of n end nodes,
// every id prefixed with p (two sides of a diff renaming every node).
func starFlow(n int, p string) []byte {
	var nodes, edges, comps []string
	nodes = append(nodes, `{"$component_ref":"`+p+`s"}`)
	comps = append(comps, `"`+p+`s":{"component_type":"StartNode","id":"`+p+`s","name":"s"}`)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%sn%d", p, i)
		nodes = append(nodes, `{"$component_ref":"`+id+`"}`)
		comps = append(comps, `"`+id+`":{"component_type":"EndNode","id":"`+id+`","name":"`+id+`"}`)
		edges = append(edges, `{"component_type":"ControlFlowEdge","name":"e`+id+`","from_node":{"$component_ref":"`+p+`s"},"to_node":{"$component_ref":"`+id+`"}}`)
	}
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"` + p + `s"},"nodes":[` +
		strings.Join(nodes, ",") + `],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(comps, ",") + `}}`)
}

// BenchmarkDiffStarRenamed: the diff's checks between two star flows
// whose every node is renamed. Per node it should stay flat as the star
// grows: each residue of the fallback walk was searched for every removed
// or added node's reference (5,000 nodes: 11 s).
func BenchmarkDiffStarRenamed(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		dir := b.TempDir()
		op, np := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
		if err := os.WriteFile(op, starFlow(n, ""), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(np, starFlow(n, "r"), 0o644); err != nil {
			b.Fatal(err)
		}
		cfg := &analysis.ConfigResult{}
		o, nw := Analyze(op, nil, cfg), Analyze(np, nil, cfg)
		opts := Options{MaxChanges: DefaultMaxChanges}
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Diff(o, nw, opts)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/node")
		})
	}
}
