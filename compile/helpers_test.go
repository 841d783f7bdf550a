package compile

import "flag"

// The package's one -update flag: `go test ./compile -update` rewrites the
// golden files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// StepOrder is FlowStepOrder for the agent's top-level Flow; nil when the
// flow did not parse.
func StepOrder(a *Agent) []StepNode {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil
	}
	return FlowStepOrder(a.Flow.Root)
}
