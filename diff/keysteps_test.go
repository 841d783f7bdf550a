package diff

import (
	"fmt"
	"math/rand"
	"reflect"
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
		gm, gl := keySteps(steps)
		wm, wl := keyStepsAsBefore(steps)
		if !reflect.DeepEqual(gm, wm) || len(gl)+len(wl) > 0 && !reflect.DeepEqual(gl, wl) {
			t.Fatalf("case %d: %v %v, want %v %v", c, gm, gl, wm, wl)
		}
		if len(wl) < len(steps) {
			repeated++
		}
	}
	if repeated < 400/race.Stride(8) {
		t.Fatalf("only %d cases with a key repeated", repeated)
	}
}
