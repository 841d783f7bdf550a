package lint

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// start_node_inputs_without_required (reference §6): a StartNode input that
// is neither required (the runtime asks the user for it) nor hidden (always
// provided programmatically) silently runs with whatever the dispatcher
// passed. Checked for every StartNode of the document, nested ones included.

var (
	RuleStartNodeInputsWithoutRequired = &Rule{Code: "start_node_inputs_without_required", Severity: compile.Warning, Group: "scan",
		Doc:       "a StartNode input is in neither metadata.cinatra.required nor metadata.cinatra.hidden, so the runtime never prompts for it",
		AutoFixes: []string{"add the inputs to metadata.cinatra.required", "add the inputs to metadata.cinatra.hidden"},
		FixTiers:  []edit.Tier{edit.Unsafe, edit.Unsafe}}
)

var passStartNodeInputs = &Check{Name: "scan_startnode", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkStartNodeInputs}

const startNodeMessageTail = " that are neither in metadata.cinatra.required nor metadata.cinatra.hidden. The runtime will not prompt the user for these — the agent will silently run with whatever the dispatcher passed. Add the input names to metadata.cinatra.required for pre-run HITL field collection (default schema-field renderer handles strings, numbers, enums, URLs, emails), or to metadata.cinatra.hidden when the value is always provided programmatically."

func checkStartNodeInputs(p *Pass) {
	doc := p.Agent.Flow
	for _, c := range p.flowComponents() {
		if c.Type != "StartNode" {
			continue
		}
		covered := map[string]bool{}
		meta := c.Node.Path("metadata", "cinatra")
		for _, k := range []string{"required", "hidden"} {
			for _, s := range scanStrings(meta.Get(k)) {
				covered[s] = true
			}
		}
		var orphans []string
		if in := c.Node.Get("inputs"); in != nil && in.Kind == compile.Array {
			for _, it := range in.Items {
				if t, ok := it.Get("title").Str(); ok && !covered[t] {
					orphans = append(orphans, t)
				}
			}
		}
		if len(orphans) == 0 {
			continue
		}
		p.ReportFix(doc, c.Ptr(), RuleStartNodeInputsWithoutRequired,
			"StartNode \""+c.Label()+"\" declares input(s) "+scanQuoteList(orphans)+startNodeMessageTail,
			newFix(edit.Unsafe, "add "+scanQuoteList(orphans)+" to metadata.cinatra.required").add(setPath(doc, c.Node, []string{"metadata", "cinatra", "required"}, orphans)).fix(),
			newFix(edit.Unsafe, "add "+scanQuoteList(orphans)+" to metadata.cinatra.hidden").add(setPath(doc, c.Node, []string{"metadata", "cinatra", "hidden"}, orphans)).fix())
	}
}
