package diff

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestIsGateSameAsScan: isGate, which looks the node up in the sets of
// approving gates made once, says what the scan of both sides' gates for
// each node said, for random gates (approving or not, keyed by node, by
// flow and node, or by gate step) and nodes of the flows and of neither.
func TestIsGateSameAsScan(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	scan := func(d *differ, fk, id, componentType string) bool {
		if componentType == "InputMessageNode" {
			return true
		}
		for _, v := range []*sideView{d.new, d.old} {
			for k, g := range v.gates.asMap() {
				if g.approval && (k == id || k == nodeSubject(fk, id) || g.node == id) {
					return true
				}
			}
		}
		return false
	}
	yes, no := 0, 0
	for c := 0; c < 300; c++ {
		d := &differ{old: &sideView{}, new: &sideView{}}
		for _, v := range []*sideView{d.old, d.new} {
			for i := 0; i < r.Intn(6); i++ {
				node := fmt.Sprintf("n%d", r.Intn(6))
				k := []string{node, "sub/" + node, node + "#gate0", "(setup)"}[r.Intn(4)]
				v.gates.set(k, gate{node: node, approval: r.Intn(2) == 0})
			}
		}
		for i := 0; i < 10; i++ {
			fk, id := []string{"", "sub", "other"}[r.Intn(3)], fmt.Sprintf("n%d", r.Intn(8))
			ct := []string{"AgentNode", "FlowNode", "InputMessageNode"}[r.Intn(3)]
			got, want := d.isGate(fk, id, ct), scan(d, fk, id, ct)
			if got != want {
				t.Fatalf("case %d: isGate(%q, %q, %s) %v, the scan %v; gates old %v new %v", c, fk, id, ct, got, want, d.old.gates, d.new.gates)
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	}
	if yes < 300 || no < 300 {
		t.Fatalf("%d gates, %d not: want 300 of each", yes, no)
	}
}
