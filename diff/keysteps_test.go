package diff

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// keyStepsAsBefore is view's keying of the compiled steps as it was: a
// look-up, then an assignment for a key not seen.
func keyStepsAsBefore(steps []compile.Step) (map[string]*compile.Step, []keyedStep) {
	m := make(map[string]*compile.Step, len(steps))
	var list []keyedStep
	for i := range steps {
		st := &steps[i]
		k := stepKey(st)
		if _, dup := m[k]; !dup {
			m[k] = st
			list = append(list, keyedStep{k, st})
		}
	}
	return m, list
}

// TestKeyStepsAsBefore: keySteps keys the steps as the look-up before each
// assignment did (the same map, the same list: a key's first step), on
// random steps whose keys repeat now and then (a node listed twice, two
// setup steps, gate steps), early, late and many times.
func TestKeyStepsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	repeated := 0
	for c := 0; c < 4000/race.Stride(8); c++ {
		var steps []compile.Step
		n := r.Intn(20)
		for i := 0; i < n; i++ {
			st := compile.Step{NodeID: fmt.Sprint("n", i), GateIndex: -1, StepNumber: i + 1, NodeType: "agent", RiskClass: fmt.Sprint(i)}
			switch r.Intn(10) {
			case 0, 1:
				st.NodeID = fmt.Sprint("n", r.Intn(n)) // a node listed again
			case 2:
				st.GateIndex = r.Intn(2)
			case 3:
				st.StepNumber, st.NodeType = 0, "" // a setup step: "(setup)"
			}
			steps = append(steps, st)
		}
		gm, gl := keySteps(steps, false)
		wm, wl := keyStepsAsBefore(steps)
		if !reflect.DeepEqual(gm, wm) || len(gl)+len(wl) > 0 && !reflect.DeepEqual(gl, wl) {
			t.Fatalf("case %d: %v %v, want %v %v", c, gm, gl, wm, wl)
		}
		keyedSame(t, fmt.Sprint("case ", c), steps)
		if len(wl) < len(steps) {
			repeated++
		}
	}
	if repeated < 400/race.Stride(8) {
		t.Fatalf("only %d cases with a key repeated", repeated)
	}
}

// nodesDistinctOf is what the compiler says of steps it made
// (StepNodesDistinct): no node of its order named twice, so a node id is
// one step's, or its gate steps' (each its own index), besides the setup
// step's.
func nodesDistinctOf(steps []compile.Step) bool {
	own := map[string]bool{}     // a node's step without a gate index
	gates := map[string]string{} // node → its gate indexes seen
	for _, st := range steps {
		if st.StepNumber == 0 && st.NodeType == "" {
			continue
		}
		if st.GateIndex < 0 {
			if own[st.NodeID] || gates[st.NodeID] != "" {
				return false
			}
			own[st.NodeID] = true
			continue
		}
		g := fmt.Sprint("#", st.GateIndex, "#")
		if own[st.NodeID] || strings.Contains(gates[st.NodeID], g) {
			return false
		}
		gates[st.NodeID] += g
	}
	return true
}

// keyedSame: keySteps told that the steps' nodes are distinct, when they
// are (nodesDistinctOf), keys them as keyStepsAsBefore: the same list, and
// either the same map or none (then no key repeated: the list holds each
// key of the map once); and readGates' stepKeysDistinct answers alike.
func keyedSame(t *testing.T, what string, steps []compile.Step) {
	t.Helper()
	if !nodesDistinctOf(steps) {
		return
	}
	gm, gl := keySteps(steps, true)
	wm, wl := keyStepsAsBefore(steps)
	if len(gl)+len(wl) > 0 && !reflect.DeepEqual(gl, wl) {
		t.Fatalf("%s: list %v, want %v", what, gl, wl)
	}
	if gm != nil && !reflect.DeepEqual(gm, wm) {
		t.Fatalf("%s: map %v, want %v", what, gm, wm)
	}
	if gm == nil && len(wm) != len(gl) {
		t.Fatalf("%s: no map, and %d keys for %d listed", what, len(wm), len(gl))
	}
	gv, wv := &sideView{steps: gm, stepList: gl}, &sideView{steps: wm, stepList: wl}
	if gv.stepKeysDistinct() != wv.stepKeysDistinct() {
		t.Fatalf("%s: stepKeysDistinct %v, want %v", what, gv.stepKeysDistinct(), wv.stepKeysDistinct())
	}
}

// TestKeyStepsNodesDistinct: keySteps of steps whose nodes are distinct
// (the compiler's StepNodesDistinct) keys them as the map did, on random
// steps of distinct nodes with gate steps, a setup step (its node's own
// step beside it or not), nodes whose ids are written as other steps'
// keys ("(setup)", "n1#gate0") and two setup steps. (That the compiler
// says so only of such steps: compile's TestStepNodesDistinctAsIDs.)
func TestKeyStepsNodesDistinct(t *testing.T) {
	r := rand.New(rand.NewSource(35))
	fast := 0
	for c := 0; c < 3000/race.Stride(8); c++ {
		var steps []compile.Step
		n := r.Intn(15)
		if r.Intn(3) == 0 {
			steps = append(steps, compile.Step{NodeID: "n0", GateIndex: -1}) // the setup step
		}
		for i := 0; i < n; i++ {
			id := fmt.Sprint("n", i)
			switch r.Intn(30) {
			case 0:
				id = "(setup)"
			case 1:
				id = "n1#gate0"
			case 2:
				id = "n1#gate1"
			}
			if r.Intn(4) == 0 {
				for g := 0; g < 1+r.Intn(3); g++ {
					steps = append(steps, compile.Step{NodeID: id, GateIndex: g, StepNumber: len(steps) + 1, NodeType: "agent"})
				}
				continue
			}
			steps = append(steps, compile.Step{NodeID: id, GateIndex: -1, StepNumber: len(steps) + 1, NodeType: "agent"})
		}
		if r.Intn(40) == 0 {
			steps = append(steps, compile.Step{NodeID: "n2", GateIndex: -1}) // a second setup step
		}
		if m, _ := keySteps(steps, true); m == nil && nodesDistinctOf(steps) {
			fast++
		}
		keyedSame(t, fmt.Sprintf("case %d: %+v", c, steps), steps)
	}
	if fast < 1000/race.Stride(8) {
		t.Fatalf("only %d cases keyed without the map", fast)
	}
}
