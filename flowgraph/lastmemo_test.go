package flowgraph

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// TestLabelerAsLabel: the labeler (a map and the last string asked for)
// answers label's answer for every string, asked in runs, in turns and
// at random, with strings label changes (control characters, a secret's
// shape) and strings alike but for their last byte.
func TestLabelerAsLabel(t *testing.T) {
	pool := []string{"FlowNode", "FlowNode ", "FlowNodf", "AgentNode", "yes", "no", "a\x00b", "\tbranch\n",
		"sk-" + "proj-abcdefghijklmnopqrstuvwxyz0123456789", "password = hunter22", "é", ""}
	r := rand.New(rand.NewSource(16))
	for c := 0; c < 2000/race.Stride(8); c++ {
		lab := labeler()
		for i := 0; i < 40; i++ {
			s := pool[r.Intn(len(pool))]
			if r.Intn(3) == 0 {
				s = fmt.Sprint("n", r.Intn(4)) // a new string object each time
			}
			for k := 0; k < 1+r.Intn(3); k++ { // runs of one string
				if got, want := lab(s), label(s); got != want {
					t.Fatalf("case %d: labeler(%q) = %q, label %q", c, s, got, want)
				}
			}
		}
	}
}

// TestSubflowRefsAsResolve: subflowRefs answers, for every reference,
// the child Flow its id resolves to (subflowAt of the resolution), asked
// in runs of one id and in turns, and resolves each id once.
func TestSubflowRefsAsResolve(t *testing.T) {
	flow := &compile.Node{Kind: compile.Object, Members: []compile.Member{{Key: "component_type", Value: &compile.Node{Kind: compile.String, Text: "Flow"}}}}
	agent := &compile.Node{Kind: compile.Object, Members: []compile.Member{{Key: "component_type", Value: &compile.Node{Kind: compile.String, Text: "AgentNode"}}}}
	r := rand.New(rand.NewSource(17))
	for c := 0; c < 2000/race.Stride(8); c++ {
		// each id's resolution, fixed for the case
		res := map[string]compile.Resolved{}
		for i := 0; i < 5; i++ {
			id := fmt.Sprint("s", i)
			switch r.Intn(4) {
			case 0:
				res[id] = compile.Resolved{} // unresolved
			case 1:
				res[id] = compile.Resolved{Node: agent, Pointer: "/$referenced_components/" + id}
			case 2:
				res[id] = compile.Resolved{Node: flow} // from the registry: no pointer
			default:
				res[id] = compile.Resolved{Node: flow, Pointer: "/$referenced_components/" + id}
			}
		}
		calls := map[string]int{}
		resolve := func(n *compile.Node, ptr string) compile.Resolved {
			id, _ := compile.RefID(n)
			calls[id]++
			return res[id]
		}
		refs := &subflowRefs{at: map[string]string{}}
		for i := 0; i < 30; i++ {
			id := fmt.Sprint("s", r.Intn(5))
			ref := &compile.Node{Kind: compile.Object, Members: []compile.Member{{Key: "$component_ref", Value: &compile.Node{Kind: compile.String, Text: id}}}}
			for k := 0; k < 1+r.Intn(3); k++ {
				if got, want := refs.of(id, ref, resolve), subflowAt(res[id]); got != want {
					t.Fatalf("case %d: of(%q) = %q, want %q", c, id, got, want)
				}
			}
		}
		for id, n := range calls {
			if n != 1 {
				t.Fatalf("case %d: %q resolved %d times", c, id, n)
			}
		}
	}
}
