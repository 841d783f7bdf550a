package lint

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
)

// The dry run's rules (review mode full; package dryrun walks the flow on
// stub data). A problem on every explored path that runs its node is a
// blocker, on some paths a warning; the message names the paths and shows
// one. Type mismatches and unreached branches are warnings: the stub data
// stands for real data only as far as the schemas say.
const GroupDryRun = "dryrun"

var (
	RuleDryRunInputUnavailable = &Rule{Code: dryrun.CodeInputUnavailable, Severity: compile.Blocker, Group: GroupDryRun,
		Doc: "full mode: a required input (no default) has no value when its node runs: no producer of it ran on the path the dry run walked (the message gives the path). Blocker when that holds on every explored path that runs the node, warning on some"}
	RuleDryRunTypeMismatch = &Rule{Code: dryrun.CodeTypeMismatch, Severity: compile.Warning, Group: GroupDryRun,
		Doc: "full mode: the value an input receives on a dry-run path (a default, a canned stub, a producer's stub) has a shape its declared type cannot take (Agent Spec castability: anything to string, numbers and booleans to each other, arrays by items, objects need the required properties)"}
	RuleDryRunBranchUnreached = &Rule{Code: dryrun.CodeBranchUnreached, Severity: compile.Warning, Group: GroupDryRun,
		Doc: "full mode: a control edge out of a node the dry run ran is never taken on any explored path: its from_branch is not a branch the node can give (a BranchingNode's mapping values and default), or the schema of the value it branches on (an enum) never maps to it. Not reported when a canned stub decides the branch, nor when the state cap stopped the exploration"}
	RuleDryRunSubflowOutputMissing = &Rule{Code: dryrun.CodeSubflowOutputMissing, Severity: compile.Blocker, Group: GroupDryRun,
		Doc: "full mode: the parent reads an output of a FlowNode (a data edge from it, or an output the FlowNode declares without default) that the subflow's (or child agent's) EndNode does not produce on the path walked. Blocker on every path, warning on some"}
	RuleDryRunGateWithoutData = &Rule{Code: dryrun.CodeGateWithoutData, Severity: compile.Blocker, Group: GroupDryRun,
		Doc: "full mode: an InputMessageNode (an approval gate) runs while inputs its screen shows (its declared inputs, else the {{placeholders}} of its message) have no value on the path walked: the person approving sees an empty screen. Blocker on every path, warning on some"}
	RuleDryRunNontermination = &Rule{Code: dryrun.CodeNontermination, Severity: compile.Blocker, Group: GroupDryRun,
		Doc: "full mode: a path of the dry run cannot reach an EndNode: it stops at a node with no control edge out, takes a branch that has no edge, or loops with no way out to an EndNode (a loop with an exit is walked --max-visits times and is not a finding). Blocker when every explored path is stuck, warning otherwise"}
)

// dryRunFindings turns the dry run's findings into review findings at
// their positions in the flow file.
func dryRunFindings(a *compile.Agent, res *dryrun.Result) []Finding {
	if res == nil || a == nil || a.Flow == nil {
		return nil
	}
	var out []Finding
	for _, f := range res.Findings {
		r := byCode[f.Code]
		if r == nil {
			continue
		}
		out = append(out, a.Flow.AtNamed(f.Pointer, f.Code, f.Severity, f.Message, idFirst...)) // the dry run names nodes by id
	}
	return out
}
