package lint

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
)

// The advisory artifact-parity family, OAS-RUNTIME-009…012 (cinatra#924):
// `scanOasForArtifactParityFindings` in cinatra-ai/cinatra
// packages/agents/src/validate-oas-runtime-invariants.ts @55195435, wired
// only into /api/oas-lint/scan-all (src/app/api/oas-lint/scan-all/route.ts
// @1747e00a). Every finding is a warning: the family must never block a
// publish. The binding and artifact_materialize grammar that 009 mirrors is
// the one of packages/agents/src/artifact-binding.ts @1a4e8598
// (collectArtifactBindingsFromOasDocument,
// collectArtifactMaterializeNodesFromOasDocument); the messages are ours.
//
// Approximated: the scan-all route at 1747e00a passes a resolveTypeOwner
// option to a newer scanner than any public copy (the one read takes only
// produces); and the write-tool patterns of 011 come from
// trigger-infer-side-effects.ts, which no public copy holds (see
// parityWriteVerb).

// groupPlatform is the group of the checks the platform added since the
// pin (reference cinatra.md §17.3).
const groupPlatform = "platform"

var (
	RuleOASRuntime009 = &Rule{Code: "OAS-RUNTIME-009", Severity: compile.Warning, Group: groupPlatform,
		Doc: "a package.json cinatra.produces extension with no materialisation road (no valid outputs[].cinatra.artifact binding, no artifact_materialize node), or a binding / artifact_materialize node the compiler's grammar refuses (advisory, scan-all only)"}
	RuleOASRuntime010 = &Rule{Code: "OAS-RUNTIME-010", Severity: compile.Warning, Group: groupPlatform,
		Doc: "a passthrough write node (objects_save, objects_update, artifact_materialize) reads a {{ input }} that no DataFlowEdge feeds and no default fills (advisory, scan-all only)"}
	RuleOASRuntime011 = &Rule{Code: "OAS-RUNTIME-011", Severity: compile.Warning, Group: groupPlatform,
		Doc: `a node labelled metadata.cinatra.riskClass "read_only" whose data.tool writes, so the approval gate lets the write through unasked (advisory, scan-all only)`}
	RuleOASRuntime012 = &Rule{Code: "OAS-RUNTIME-012", Severity: compile.Warning, Group: groupPlatform,
		Doc: "a prompt field (system, user, message, prompt_template, …) tells the model to call objects_save or artifact_authoring_emit, which the declarative artifact binding replaces (advisory, scan-all only)"}
)

// passPlatform reports the artifact-parity family and the platform's
// invariant-test, CI-gate and mount-contract rules (platform_invariants.go)
// in one pass: one walk of the document serves the rules that look at
// every value (platformWalk).
var passPlatform = &Check{Name: "platform", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkPlatform}

func checkPlatform(p *Pass) {
	checkArtifactParity(p)
	checkPlatformInvariants(p)
}

const (
	parityMaterializeTool = "artifact_materialize"
	parityPassthroughURL  = "/api/agents/passthrough"
)

// parityWriteTools are the passthrough tools that write an object or an
// artifact (objects_classify only reads).
var parityWriteTools = map[string]bool{"objects_save": true, "objects_update": true, parityMaterializeTool: true}

// parityWriteVerb approximates the platform's SIDE_EFFECT_PATTERNS
// (trigger-infer-side-effects.ts, not in any public copy we could read): a
// tool whose snake_case name carries a writing verb as a word.
var parityWriteVerb = newLazyRegexp(`(^|_)(save|update|create|delete|remove|send|publish|post|write|upsert|insert|put|patch|emit|materialize)(_|$)`)

// parityLegacyTokens are the persistence primitives the binding replaced,
// in the order the platform tries them (one finding per field).
var parityLegacyTokens = []string{"artifact_authoring_emit", "objects_save"}

func checkArtifactParity(p *Pass) {
	a := p.Agent
	root := a.Flow.Root
	if root == nil || root.Kind != compile.Object {
		return
	}
	produces, producesNodes := parityProduces(a)
	parityCoverage(p, produces, producesNodes)
	parityFlows(root, new(int), func(flow *compile.Node) { parityWriteDataflow(p, flow) })
}

// parityProduces reads package.json cinatra.produces the way the scan-all
// route does: nil (unknown, the coverage check is skipped) without a
// package.json or without an array there; else the non-empty string
// extensions, with the entry nodes beside them.
func parityProduces(a *compile.Agent) ([]string, []*compile.Node) {
	if a.Package == nil || a.Package.Root == nil {
		return nil, nil
	}
	arr := a.Package.Root.Path("cinatra", "produces")
	if !arr.Is(compile.Array) || !a.Package.Root.Get("cinatra").Is(compile.Object) {
		return nil, nil
	}
	out, nodes := []string{}, []*compile.Node{}
	for _, it := range arr.Items {
		if ext, ok := it.Get("extension").Str(); ok && it.Is(compile.Object) && ext != "" {
			out = append(out, ext)
			nodes = append(nodes, it)
		}
	}
	return out, nodes
}

// parityCoverage: OAS-RUNTIME-009, both halves — the grammar errors of the
// bindings and materialise nodes, then each produced extension that no
// valid one covers.
func parityCoverage(p *Pass, produces []string, producesNodes []*compile.Node) {
	a := p.Agent
	covered := map[string]bool{}
	for _, b := range parityBindings(a.Flow.Root, produces) {
		if b.err != "" {
			p.Report(a.Flow, compile.PointerOf(b.at), RuleOASRuntime009,
				"this artifact binding would not count as a way to store the artifact, and the compile/publish gate refuses it: "+b.err)
			continue
		}
		covered[b.ext] = true
	}
	for _, m := range parityMaterializeNodes(a.Flow.Root, produces) {
		if m.err != "" {
			p.Report(a.Flow, compile.PointerOf(m.at), RuleOASRuntime009,
				"this artifact_materialize node would not count as a way to store the artifact, and the compile/publish gate refuses it: "+m.err)
			continue
		}
		covered[m.ext] = true
	}
	if produces == nil {
		return
	}
	for i, ext := range produces {
		if covered[ext] {
			continue
		}
		p.Report(a.Package, compile.PointerOf(producesNodes[i].Get("extension")), RuleOASRuntime009,
			"package.json promises the artifact "+strconv.Quote(ext)+" but the flow never stores one: no EndNode output carries a valid cinatra.artifact binding for it and no artifact_materialize node targets it, so a run completes without the artifact. Bind an EndNode output (outputs[].cinatra.artifact with this extension) or add an artifact_materialize passthrough node. The platform reports this as advisory for now.")
	}
}

// parityRoad is one binding or materialise node: its extension when valid,
// else the grammar error, and the node to report at.
type parityRoad struct {
	at  *compile.Node
	ext string
	err string
}

var (
	parityObjectTypeRe = newLazyRegexp(`^@[\w-]+/[\w-]+:[\w-]+$`)
	parityMemberRe     = newLazyRegexp(`\[\d+\]$`)
	parityMimes        = map[string]bool{"text/markdown": true, "text/plain": true, "text/html": true, "application/json": true, "application/xml": true}
	parityBindingKeys  = map[string]bool{"extension": true, "objectTypeId": true, "contentFrom": true, "fileFrom": true, "filePattern": true,
		"titleFromFirstLine": true, "declaredMime": true, "mimeFrom": true, "titleFrom": true, "fanOut": true}
)

// parityBindings collects the outputs[].cinatra.artifact annotations of the
// top-level EndNodes (subflow EndNodes cannot bind), each checked against
// the binding grammar; produces nil skips the produces membership check.
func parityBindings(root *compile.Node, produces []string) []parityRoad {
	var out []parityRoad
	for _, m := range membersOf(root.Get("$referenced_components")) {
		end := m.Value
		if !end.Is(compile.Object) || compile.ComponentType(end) != "EndNode" {
			continue
		}
		outputs := end.Get("outputs")
		if !outputs.Is(compile.Array) {
			continue
		}
		titles := map[string]bool{}
		var titleList []string
		for _, o := range outputs.Items {
			if t, ok := o.Get("title").Str(); ok && o.Is(compile.Object) && !titles[t] {
				titles[t] = true
				titleList = append(titleList, t)
			}
		}
		for _, o := range outputs.Items {
			if !o.Is(compile.Object) {
				continue
			}
			ann := o.Get("cinatra")
			art := ann.Get("artifact")
			if !ann.Is(compile.Object) || art == nil || art.Kind == compile.Null {
				continue
			}
			road := parityRoad{at: art}
			road.ext, road.err = parityBinding(o, art, titles, titleList, produces)
			out = append(out, road)
		}
	}
	return out
}

func parityBinding(output, b *compile.Node, titles map[string]bool, titleList, produces []string) (string, string) {
	title, ok := output.Get("title").Str()
	if !ok {
		return "", `the annotated output has no string "title"`
	}
	if !b.Is(compile.Object) {
		return "", "cinatra.artifact must be an object"
	}
	var probs []string
	str := func(k string) (string, bool) {
		n := b.Get(k)
		if n == nil {
			return "", false
		}
		s, ok := n.Str()
		if !ok || s == "" {
			probs = append(probs, k+" must be a non-empty string")
			return "", false
		}
		return s, true
	}
	for _, m := range b.Members {
		if !parityBindingKeys[m.Key] {
			probs = append(probs, "unknown key "+strconv.Quote(m.Key))
		}
	}
	ext, hasExt := str("extension")
	if b.Get("extension") == nil {
		probs = append(probs, "extension is required")
	}
	if ot, ok := str("objectTypeId"); ok && !parityObjectTypeRe.MatchString(ot) {
		probs = append(probs, "objectTypeId must look like @scope/package:local-id")
	}
	content, hasContent := str("contentFrom")
	_, hasFile := str("fileFrom")
	_, hasPattern := str("filePattern")
	declared, hasDeclared := str("declaredMime")
	mimeFrom, hasMimeFrom := str("mimeFrom")
	titleFrom, hasTitleFrom := str("titleFrom")
	if n := b.Get("titleFromFirstLine"); n != nil && n.Kind != compile.Bool {
		probs = append(probs, "titleFromFirstLine must be a boolean")
	}
	fan := b.Get("fanOut")
	if fan != nil {
		mode, _ := fan.Get("mode").Str()
		tf, _ := fan.Get("titleFrom").Str()
		tp, _ := fan.Get("titlePrefix").Str()
		if !fan.Is(compile.Object) || mode != "member" || tf != "first-line" || tp == "" || len(fan.Members) != 3 {
			probs = append(probs, `fanOut must be exactly {"mode":"member","titleFrom":"first-line","titlePrefix":"…"}`)
		}
	}
	if len(probs) > 0 {
		return "", strings.Join(probs, "; ")
	}
	sources := 0
	for _, h := range []bool{hasContent, hasFile, hasPattern} {
		if h {
			sources++
		}
	}
	if sources != 1 {
		probs = append(probs, "exactly one of contentFrom, fileFrom, filePattern is needed")
	}
	file := hasFile || hasPattern
	switch {
	case file && hasMimeFrom:
		probs = append(probs, "a file-sourced binding may not name mimeFrom")
	case !file && hasDeclared == hasMimeFrom:
		probs = append(probs, "exactly one of declaredMime, mimeFrom is needed")
	}
	if file {
		if hasTitleFrom {
			probs = append(probs, "a file-sourced binding titles itself and may not name titleFrom")
		}
		if fan != nil {
			probs = append(probs, "a file-sourced binding may not fan out (filePattern already does)")
		}
	} else {
		if b.Get("titleFromFirstLine") != nil {
			probs = append(probs, "titleFromFirstLine only applies to fileFrom / filePattern")
		}
		if hasTitleFrom == (fan != nil) {
			probs = append(probs, "exactly one of titleFrom, fanOut is needed")
		}
	}
	if hasDeclared && !parityMimes[declared] {
		probs = append(probs, "declaredMime "+strconv.Quote(declared)+" is not a text MIME a binding may author")
	}
	if len(probs) > 0 {
		return "", strings.Join(probs, "; ")
	}
	if parityMemberRe.MatchString(title) {
		return "", "a bound output may not be named " + strconv.Quote(title) + ": a trailing [index] names a member of a fanned-out list"
	}
	for _, ref := range [][2]string{{"contentFrom", content}, {"titleFrom", titleFrom}, {"mimeFrom", mimeFrom}} {
		if ref[1] != "" && !titles[ref[1]] {
			return "", ref[0] + " " + strconv.Quote(ref[1]) + " is not an output of this EndNode (outputs: " + strings.Join(titleList, ", ") + ")"
		}
	}
	if fan != nil {
		if content != title {
			return "", "a fan-out binding must take its content from its own output " + strconv.Quote(title)
		}
		if t, _ := output.Get("type").Str(); t != "array" {
			return "", "fanOut needs an output of type \"array\""
		}
		items := output.Path("json_schema", "items")
		if !items.Is(compile.Object) {
			return "", "the fanned-out list declares no json_schema.items"
		}
		if t, _ := items.Get("type").Str(); t != "string" {
			return "", "the members of a fanned-out list must be declared as strings (json_schema.items.type)"
		}
	}
	if hasExt && produces != nil && !slices.Contains(produces, ext) {
		return "", "extension " + strconv.Quote(ext) + " is not in package.json cinatra.produces [" + strings.Join(produces, ", ") + "]"
	}
	return ext, ""
}

// parityMaterializeNodes collects the ApiNodes on the passthrough route
// (the root, every $referenced_components level and FlowNode subflows)
// and checks the artifact_materialize ones against the tool's grammar.
func parityMaterializeNodes(root *compile.Node, produces []string) []parityRoad {
	var out []parityRoad
	var walk func(n *compile.Node, refKey string, depth int)
	walk = func(n *compile.Node, refKey string, depth int) {
		if !n.Is(compile.Object) || depth > compile.MaxDepth {
			return
		}
		if compile.ComponentType(n) == "ApiNode" {
			if u, ok := n.Get("url").Str(); ok && strings.Contains(u, parityPassthroughURL) {
				if r, ok := parityMaterialize(n, refKey, produces); ok {
					out = append(out, r)
				}
			}
		}
		for _, m := range membersOf(n.Get("$referenced_components")) {
			walk(m.Value, m.Key, depth+1)
		}
		walk(n.Get("subflow"), refKey, depth+1)
	}
	walk(root, "$", 0)
	return out
}

// parityMaterialize checks one passthrough ApiNode; ok false when it is no
// materialise node and has nothing wrong.
func parityMaterialize(n *compile.Node, refKey string, produces []string) (parityRoad, bool) {
	id, _ := n.Get("id").Str()
	if id == "" {
		id = refKey
	}
	data := n.Get("data")
	if s, ok := data.Str(); ok {
		var v map[string]any
		if json.Unmarshal([]byte(s), &v) != nil || v == nil {
			return parityRoad{at: data, err: "a passthrough node's data must be an object (or a JSON string of one) so its tool can be checked"}, true
		}
		return parityMaterializeValue(n, id, v, produces)
	}
	if !data.Is(compile.Object) {
		return parityRoad{}, false
	}
	// Only an artifact_materialize node's input is turned into values; the
	// tool of every other passthrough node is read in place.
	v := map[string]any{}
	if tool := data.Get("tool"); tool != nil {
		v["tool"] = tool.Interface()
		if s, _ := tool.Str(); s == parityMaterializeTool {
			v["input"] = data.Get("input").Interface()
		}
	}
	return parityMaterializeValue(n, id, v, produces)
}

func parityMaterializeValue(n *compile.Node, id string, data map[string]any, produces []string) (parityRoad, bool) {
	at := n.Get("data")
	tool, ok := data["tool"].(string)
	if !ok || tool == "" || strings.Contains(tool, "{{") {
		return parityRoad{at: at, err: "a passthrough node's data.tool must be a literal tool name, not a template or a missing value"}, true
	}
	if tool != parityMaterializeTool {
		return parityRoad{}, false
	}
	input, ok := data["input"].(map[string]any)
	if !ok {
		return parityRoad{at: at, err: "data.input must be an object with extension, content, title, declaredMime and node_id"}, true
	}
	literal := func(k string) (string, bool) {
		s, ok := input[k].(string)
		return s, ok && s != "" && !strings.Contains(s, "{{")
	}
	var probs []string
	ext, okExt := literal("extension")
	switch {
	case !okExt:
		probs = append(probs, "input.extension must be a literal extension name")
	case produces != nil && !slices.Contains(produces, ext):
		probs = append(probs, "input.extension "+strconv.Quote(ext)+" is not in package.json cinatra.produces ["+strings.Join(produces, ", ")+"]")
	}
	if _, present := input["objectTypeId"]; present {
		if ot, ok := literal("objectTypeId"); !ok || !parityObjectTypeRe.MatchString(ot) {
			probs = append(probs, "input.objectTypeId must be a literal @scope/package:local-id")
		}
	}
	if mime, ok := literal("declaredMime"); !ok || !parityMimes[mime] {
		probs = append(probs, "input.declaredMime must be a literal text MIME")
	}
	for _, k := range []string{"content", "title"} {
		if s, ok := input[k].(string); !ok || s == "" {
			probs = append(probs, "input."+k+" must be a non-empty string")
		}
	}
	if nid, ok := literal("node_id"); !ok || nid != id {
		probs = append(probs, "input.node_id must be the literal id of this node ("+strconv.Quote(id)+")")
	}
	if _, present := input["contentJsonField"]; present {
		if _, ok := literal("contentJsonField"); !ok {
			probs = append(probs, "input.contentJsonField must be a literal")
		}
	}
	if len(probs) > 0 {
		return parityRoad{at: at, err: strings.Join(probs, "; ")}, true
	}
	return parityRoad{at: at, ext: ext}, true
}

// parityFlows visits every Flow the platform's scanner walks: the root and
// what $referenced_components and FlowNode subflows hold, at any depth.
// The document is a tree, so no component is met twice: seen counts the
// components met, and the walk stops after MaxDepth*1024 of them (a
// hostile file's bound).
func parityFlows(n *compile.Node, seen *int, visit func(flow *compile.Node)) {
	if !n.Is(compile.Object) || *seen > compile.MaxDepth*1024 {
		return
	}
	*seen++
	if compile.ComponentType(n) == "Flow" {
		visit(n)
	}
	for _, m := range membersOf(n.Get("$referenced_components")) {
		parityFlows(m.Value, seen, visit)
	}
	parityFlows(n.Get("subflow"), seen, visit)
}

// parityFlowID names a Flow as the platform's locations do.
func parityFlowID(flow *compile.Node) string {
	if id, ok := flow.Get("id").Str(); ok {
		return id
	}
	if name, ok := flow.Get("name").Str(); ok {
		return name
	}
	return "<unknown>"
}

// parityWriteDataflow: OAS-RUNTIME-010 on one Flow.
func parityWriteDataflow(p *Pass, flow *compile.Node) {
	var fed map[[2]string]bool // built on the first write node: most flows have none
	for _, m := range membersOf(flow.Get("$referenced_components")) {
		node := m.Value
		if !node.Is(compile.Object) || compile.ComponentType(node) != "ApiNode" {
			continue
		}
		tool, _ := node.Path("data", "tool").Str()
		if !parityWriteTools[tool] {
			continue
		}
		u, _ := node.Get("url").Str()
		inputs := node.Get("inputs")
		if !strings.Contains(u, parityPassthroughURL) || !inputs.Is(compile.Array) {
			continue
		}
		if fed == nil {
			fed = parityFed(flow)
		}
		used := rtPlaceholders(node)
		for _, in := range inputs.Items {
			title, ok := in.Get("title").Str()
			if !ok || !in.Is(compile.Object) || !used.contains(title) || in.Get("default") != nil || fed[[2]string{m.Key, title}] {
				continue
			}
			p.Report(p.Agent.Flow, compile.PointerOf(node), RuleOASRuntime010,
				"passthrough write node "+strconv.Quote(m.Key)+" (tool "+strconv.Quote(tool)+", in flow "+strconv.Quote(parityFlowID(flow))+") reads input "+
					strconv.Quote(title)+", which no DataFlowEdge feeds and no default fills; the run's provenance graph then misses where the written value came from. Add a DataFlowEdge into "+
					strconv.Quote(m.Key)+"."+title+".")
		}
	}
}

// parityFed is the (destination node, input) pairs a Flow's data edges feed.
func parityFed(flow *compile.Node) map[[2]string]bool {
	fed := map[[2]string]bool{}
	if edges := flow.Get("data_flow_connections"); edges.Is(compile.Array) {
		for _, e := range edges.Items {
			if !e.Is(compile.Object) || compile.ComponentType(e) != "DataFlowEdge" {
				continue
			}
			dst, _ := e.Path("destination_node", "$component_ref").Str()
			if !e.Get("destination_node").Is(compile.Object) {
				dst = ""
			}
			in, _ := e.Get("destination_input").Str()
			fed[[2]string{dst, in}] = true
		}
	}
	return fed
}

// membersOf is the members of an object node; none for anything else.
func membersOf(n *compile.Node) []compile.Member {
	if n == nil || n.Kind != compile.Object {
		return nil
	}
	return n.Members
}
