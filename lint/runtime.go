package lint

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
)

// Runtime invariants (reference §8, validate-oas-runtime-invariants.ts):
// shapes the pinned pyagentspec / WayFlow runtime refuses to mount. The
// messages are the reference's, word for word; locations point at the
// offending value (the reference's "$.a.b[0]" paths stay in the message
// text where it has them). Per-Flow invariants (001, 004, 005) run on
// every Flow object of the document, nested ones included.

var (
	RuleOASRuntime001 = &Rule{Code: "OAS-RUNTIME-001", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an ApiNode with explicit inputs[] whose {{ placeholder }} set (url, http_method, api_spec_uri, data, query_params, headers) differs from its input titles"}
	RuleOASRuntime002 = &Rule{Code: "OAS-RUNTIME-002", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "a JS-style ternary {{ a ? b : c }} inside a Jinja placeholder"}
	RuleOASRuntime003 = &Rule{Code: "OAS-RUNTIME-003", Severity: compile.Blocker, Group: validatorGroup,
		Doc: `a property with "type":"number" and an integer default (pyagentspec FloatProperty refuses it)`}
	RuleOASRuntime004 = &Rule{Code: "OAS-RUNTIME-004", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an ApiNode using {{ agent_run_id }} without the input, the DataFlowEdge, or a StartNode/Flow input behind it"}
	RuleOASRuntime005 = &Rule{Code: "OAS-RUNTIME-005", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an EndNode output that no DataFlowEdge feeds and no same-named Flow/StartNode input supplies"}
	RuleOASRuntime006 = &Rule{Code: "OAS-RUNTIME-006", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "with metadata.cinatra.llm declared, an /api/llm-bridge ApiNode without data.cinatra_llm in source"}
	RuleOASRuntime007 = &Rule{Code: "OAS-RUNTIME-007", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "with metadata.cinatra.toolboxes declared, an /api/llm-bridge ApiNode without data.toolbox_ids in source"}
	RuleOASRuntime008 = &Rule{Code: "OAS-RUNTIME-008", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an A2AAgent whose agent_url points back into this Cinatra instance (internal composition must use FlowNode subflows)"}
	RuleOASRuntime013 = &Rule{Code: "OAS-RUNTIME-013", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an InputMessageNode gate the pinned WayFlow runtime cannot mount (PluginInputMessageNode, not exactly one string output, message_template with inputs, bad or duplicate input titles)"}
)

// rtWalk collects the whole-document invariants during the validator's
// single walk (002, 003, 008, 013).
type rtWalk struct {
	v *valCtx
	// skillIDs: the walk also reports oas_skill_ids (the agent is not one
	// the skill-free invariant exempts). The walk serves the platform's
	// rules that look at every value (platform_walk.go).
	skillIDs bool
}

func newRtWalk(v *valCtx) *rtWalk {
	return &rtWalk{v: v, skillIDs: !skillIDsExempt[platformSlug(v.p.Agent)]}
}

func (r *rtWalk) report(ptr string, rule *Rule, msg string) { r.v.report(ptr, rule, msg) }

// str: OAS-RUNTIME-002, on string n whose key (valLastKey) is key, and the
// platform's rules on every string (platform_walk.go): oas_skill_ids and
// OAS-RUNTIME-012. The looks are inline, the reports calls: str runs on
// every string of the document.
func (r *rtWalk) str(n *compile.Node, key string) {
	if r.skillIDs && (n.Text == "skillIds" || n.Text == "skill_ids") {
		platformSkillIDs(r.v.p, n)
	}
	if isProseKey(key) {
		platformProse(r.v.p, n, key)
	}
	if strings.IndexByte(n.Text, '{') < 0 || indexBraces(n.Text) < 0 {
		return // indexBraces' first look, inline: nearly every string has no "{"
	}
	r.ternary(n)
}

// ternary: OAS-RUNTIME-002 on string n holding "{{".
func (r *rtWalk) ternary(n *compile.Node) {
	m := rtFindJsTernary(n.Text)
	if m == "" {
		return
	}
	r.report(compile.PointerOf(n), RuleOASRuntime002,
		`Found JS-style ternary inside Jinja placeholder at `+valPathOf(n).dollar()+`: `+
			`"`+m+`". This is broken twice — (a) Jinja conditional `+
			`syntax uses {{ a if cond else b }}, not the JS `+"`? :`"+` form, `+
			`so rendering raises a TemplateSyntaxError at runtime; (b) the `+
			`names inside the ternary are invisible to pyagentspec's `+
			`placeholder regex, so inputs declared in inputs[] will look `+
			`"extra" and pyagentspec will reject the ApiNode at mount. `+
			`Rewrite as {{ ' Title: ' + title if title else '' }} and (if `+
			`the variable is still declared in inputs[]) add a `+
			`{# pyagentspec-input-hint: {{ name }} #} comment sentinel. See `+
			`docs/developing-agents.md.`)
}

// indexBraces is strings.Index(s, "{{"): a search for each "{" with
// IndexByte and a look at the byte after it. Nearly every string the walk
// sees has no "{" at all, and there the one vector search costs a fraction
// of the general substring search's set-up (strings.Index with a
// two-byte needle). Linear: each "{" not followed by another is stepped
// over with the byte after it.
func indexBraces(s string) int {
	for off := 0; ; {
		k := strings.IndexByte(s[off:], '{')
		if k < 0 {
			return -1
		}
		at := off + k
		if at+1 >= len(s) {
			return -1
		}
		if s[at+1] == '{' {
			return at
		}
		off = at + 2 // s[at+1] is not "{": no "{{" starts there either
	}
}

// rtFindJsTernary returns the first {{ … ? … : … }} placeholder (no "}"
// inside) of text, or "". Linear, like the reference's scanner.
func rtFindJsTernary(text string) string {
	i, n := 0, len(text)
	for i < n {
		k := indexBraces(text[i:])
		if k < 0 {
			return ""
		}
		open := i + k
		j := open + 2
		for j < n && text[j] != '}' {
			j++
		}
		if j+1 < n && text[j] == '}' && text[j+1] == '}' {
			inner := text[open+2 : j]
			if q := strings.IndexByte(inner, '?'); q >= 0 && strings.IndexByte(inner[q+1:], ':') >= 0 {
				return text[open : j+2]
			}
			// Every later "{{" before j closes at the same "}}" with a
			// suffix of this body, which is no ternary either: skip them
			// (the reference rescans them, quadratic on "{{{{…}}").
			i = j
		} else {
			i = max(j, open+2)
		}
	}
	return ""
}

// object: OAS-RUNTIME-003, 008, 013 on every object, with the members the
// walk's one scan of it found (metaN: metadata, for OAS-RUNTIME-011).
func (r *rtWalk) object(n *compile.Node, ct string, titleN, typeN, metaN *compile.Node) {
	platformRiskClass(r.v.p, n, metaN)
	if title, ok := titleN.Str(); ok {
		if typ, ok := typeN.Str(); ok && typ == "number" {
			r.floatDefault(n, title)
		}
	}
	switch ct {
	case "A2AAgent":
		r.internalA2A(n)
	case "PluginInputMessageNode", "InputMessageNode":
		r.gate(n, ct)
	}
}

func (r *rtWalk) floatDefault(n *compile.Node, title string) {
	d := n.Get("default")
	f, ok := d.Float()
	if !ok || math.IsInf(f, 0) || f != math.Trunc(f) {
		return
	}
	ds := valJSNumber(d)
	r.report(compile.PointerOf(n)+"/default", RuleOASRuntime003,
		`Property "`+title+`" at `+valPathOf(n).dollar()+` declares "type":"number" with an `+
			`integer literal default (`+ds+`). pyagentspec maps "type":"number" `+
			`to FloatProperty, and constructing FloatProperty(default_value=`+ds+`) `+
			`with an integer literal raises "Error when initializing: `+
			`FloatProperty(...)" at mount. Change "type":"integer" (preferred `+
			`when the field semantically holds a count), or supply a float `+
			`default (e.g. `+ds+`.0). Applies to inputs[], outputs[], EndNode `+
			`passthroughs, and ApiNode inputs/outputs equally — a single `+
			`missed location is enough to fail the mount. See docs/developing-agents.md.`)
}

var rtInternalA2A = []*lazyRegexp{
	newLazyRegexp(`\{\{\s*CINATRA_BASE_URL\s*\}\}`),
	newLazyRegexp(`(?i)https?://localhost(?::\d+)?(?:/|$)`),
	newLazyRegexp(`(?i)https?://127\.0\.0\.1(?::\d+)?(?:/|$)`),
	newLazyRegexp(`(?i)https?://0\.0\.0\.0(?::\d+)?(?:/|$)`),
	newLazyRegexp(`(?i)https?://\[::1\](?::\d+)?(?:/|$)`),
	newLazyRegexp(`(?i)https?://host\.docker\.internal(?::\d+)?(?:/|$)`),
}

func rtIsInternalA2A(u string) bool {
	for _, re := range rtInternalA2A {
		if re.MatchString(u) {
			return true
		}
	}
	return strings.Contains(u, "/api/a2a/agents/")
}

// rtLabel is the reference's `typeof id === "string" ? id : name ?? "<unknown>"`.
func rtLabel(n *compile.Node) string {
	if id, ok := n.Get("id").Str(); ok {
		return id
	}
	name := n.Get("name")
	if name == nil || name.Kind == compile.Null {
		return "<unknown>"
	}
	if s, ok := name.Str(); ok {
		return s
	}
	return valJSON(name)
}

func (r *rtWalk) internalA2A(n *compile.Node) {
	u, _ := n.Get("agent_url").Str()
	if !rtIsInternalA2A(u) {
		return
	}
	shown := u
	if shown == "" {
		shown = "<empty agent_url>"
	}
	r.report(compile.PointerOf(n)+"/agent_url", RuleOASRuntime008,
		`A2AAgent "`+rtLabel(n)+`" at `+valPathOf(n).dollar()+` targets an internal URL (`+
			shown+`). A2A is the cross-instance/`+
			`external protocol; internal sub-agent composition must use `+
			`FlowNode subflow inlining (the email-outreach-agent pattern) `+
			`or a deterministic MCP primitive. wayflowcore's `+
			`AgentExecutionStep explicitly rejects typed outputs on AgentNodes `+
			`wrapping A2AAgent, so this topology cannot return findings to a `+
			`parent flow. See packages/agents/src/validate-oas-runtime-invariants.ts `+
			`OAS-RUNTIME-008 `+
			`for the architectural rule.`)
}

const rtGateDoc = `See docs/internals/workflows/agent-run-hitl-prompt-primitives.md ` +
	`("Pinned-runtime contract for the gate node", cinatra#1830/#2140).`

var rtGateTitleRe = newLazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)

func rtGateLabel(n *compile.Node) string {
	if s, ok := n.Get("id").Str(); ok && s != "" {
		return s
	}
	if s, ok := n.Get("name").Str(); ok && s != "" {
		return s
	}
	return "<unnamed>"
}

// rtPythonTruthy is Python's bool() of a JSON value.
func rtPythonTruthy(n *compile.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case compile.Null:
		return false
	case compile.Bool:
		return n.Bool
	case compile.Number:
		f, ok := n.Float()
		return !ok || f != 0
	case compile.String:
		return n.Text != ""
	case compile.Array:
		return len(n.Items) > 0
	case compile.Object:
		return len(n.Members) > 0
	}
	return false
}

func rtQuoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}

func (r *rtWalk) gate(n *compile.Node, ct string) {
	ptr := func() string { return compile.PointerOf(n) } // for a finding only
	label := rtGateLabel(n)
	if ct == "PluginInputMessageNode" {
		r.report(ptr()+"/component_type", RuleOASRuntime013,
			`Gate "`+label+`" is authored as "PluginInputMessageNode". `+
				`Do not author the reconciled form directly: the host compiler `+
				`(packages/agents/src/oas-compiler.ts) pins `+
				`component_type === "InputMessageNode" to detect a HITL gate, so a `+
				`PluginInputMessageNode is invisible to it — the run gets no approval `+
				`step and no renderer binding even though the WayFlow runtime mounts `+
				`it happily (a SILENTLY ungated side effect). Author `+
				`"InputMessageNode" with declared inputs[] fed by a DataFlowEdge and `+
				`let the loader shim reconcile it at mount. `+rtGateDoc)
		return
	}
	if outs := n.Get("outputs"); outs.Is(compile.Array) {
		switch k := len(outs.Items); {
		case k > 1:
			titles := make([]string, k)
			for i, o := range outs.Items {
				titles[i] = o.Get("title").StringOr("<unnamed>")
			}
			r.report(ptr()+"/outputs", RuleOASRuntime013,
				fmt.Sprintf(`InputMessageNode gate "%s" declares %d `, label, k)+
					`outputs [`+rtQuoteList(titles)+`]. A gate returns `+
					`EXACTLY ONE string output — the resume payload. pyagentspec rejects a `+
					`multi-output gate at mount ("received a property titled `+
					"`"+titles[1]+"`"+`, but expected only properties with the titles: `+
					`['`+titles[0]+`']") and the loader shim cannot repair it. Extract the `+
					`extra fields from the single resume payload in a post-resume node. `+
					rtGateDoc)
		case k == 0:
			r.report(ptr()+"/outputs", RuleOASRuntime013,
				`InputMessageNode gate "`+label+`" declares an EMPTY outputs[]. `+
					`A gate must declare exactly one string output (the resume payload); `+
					`pyagentspec rejects an output-less gate at mount ("expected a property `+
					"titled `user_provided_input`, but none of the passed properties have "+
					`this title: []"). `+rtGateDoc)
		default:
			if t, ok := outs.Items[0].Get("type").Str(); ok && outs.Items[0].Is(compile.Object) && t != "string" {
				r.report(ptr()+"/outputs/0/type", RuleOASRuntime013,
					`InputMessageNode gate "`+label+`" declares its single output `+
						`as "type":"`+t+`". A gate output is the JSON-encoded resume `+
						`payload and must be a string; pyagentspec rejects any other type at `+
						"mount (\"Expected an output of type string, given `"+t+"` "+
						`instead"). Parse the payload in a post-resume node. `+rtGateDoc)
			}
		}
	}
	inputs := n.Get("inputs")
	if !inputs.Is(compile.Array) || len(inputs.Items) == 0 {
		return
	}
	if mt := n.Get("message_template"); rtPythonTruthy(mt) {
		r.report(ptr()+"/message_template", RuleOASRuntime013,
			`InputMessageNode gate "`+label+`" declares inputs[] AND an `+
				`author-supplied "message_template". The WayFlow loader shim skips a `+
				`gate that already carries a message_template, so the declared inputs `+
				`reach pyagentspec unreconciled and the mount is rejected ("received a `+
				"property titled `<name>`, but did not expect any properties\"). Drop "+
				`the message_template and let the shim synthesize it. `+rtGateDoc)
		return
	}
	var bad []string
	titles := make([]string, 0, len(inputs.Items))
	for _, in := range inputs.Items {
		t, ok := in.Get("title").Str()
		if !ok {
			bad = append(bad, "<missing>")
			continue
		}
		titles = append(titles, t)
		if !rtGateTitleRe.MatchString(t) {
			bad = append(bad, `"`+t+`"`)
		}
	}
	if len(bad) > 0 {
		r.report(ptr()+"/inputs", RuleOASRuntime013,
			`InputMessageNode gate "`+label+`" declares input title(s) `+
				`[`+strings.Join(bad, ", ")+`] `+
				`that are not plain Jinja identifiers (/^[A-Za-z_][A-Za-z0-9_]*$/). `+
				`The WayFlow loader shim folds declared gate inputs into a synthesized `+
				`message_template and refuses to do so for a title it cannot safely `+
				`emit, so the gate stays an unreconciled InputMessageNode and `+
				`pyagentspec rejects it at mount ("received a property titled `+
				"`<name>`, but did not expect any properties\"). Rename the input to a "+
				`plain identifier. `+rtGateDoc)
		return
	}
	seen := map[string]bool{}
	var dups []string
	dupSeen := map[string]bool{}
	for _, t := range titles {
		if seen[t] && !dupSeen[t] {
			dups = append(dups, t)
			dupSeen[t] = true
		}
		seen[t] = true
	}
	if len(dups) > 0 {
		r.report(ptr()+"/inputs", RuleOASRuntime013,
			`InputMessageNode gate "`+label+`" declares duplicate input `+
				`title(s) [`+rtQuoteList(dups)+`]. The `+
				`WayFlow loader shim declines to fold duplicate titles, and pyagentspec `+
				`rejects the gate at mount ("Found multiple instances of properties `+
				`(inputs or outputs) with the same title in a InputMessageNode"). `+
				rtGateDoc)
	}
}

// ---------------------------------------------------------------------------
// 006 / 007: bridge ApiNodes, walked as the reference walks them (the root,
// every $referenced_components value, FlowNode subflow objects).
// ---------------------------------------------------------------------------

func (v *valCtx) bridgeNodes(visit func(n *compile.Node, path valPath)) {
	var path valPath
	var walk func(n *compile.Node, depth int)
	walk = func(n *compile.Node, depth int) {
		if !n.Is(compile.Object) || depth > compile.MaxDepth {
			return
		}
		if compile.ComponentType(n) == "ApiNode" {
			if u, ok := n.Get("url").Str(); ok && strings.Contains(u, "/api/llm-bridge") {
				visit(n, path)
			}
		}
		if refs := n.Get("$referenced_components"); refs.Is(compile.Object) {
			for _, m := range valEntries(refs) {
				path = path.key("$referenced_components").key(m.Key)
				walk(m.Value, depth+1)
				path = path[:len(path)-2]
			}
		}
		if sub := n.Get("subflow"); sub.Is(compile.Object) {
			path = path.key("subflow")
			walk(sub, depth+1)
			path = path[:len(path)-1]
		}
	}
	walk(v.root, 0)
}

func (v *valCtx) checkBridgeSource() {
	c := v.root.Path("metadata", "cinatra")
	if llm := c.Get("llm"); llm.Is(compile.Object) {
		v.bridgeNodes(func(n *compile.Node, path valPath) {
			if n.Get("data").Get("cinatra_llm").Is(compile.Object) {
				return
			}
			v.report(path.pointer(), RuleOASRuntime006,
				`ApiNode "`+rtLabel(n)+`" at `+path.dollar()+` targets /api/llm-bridge and the agent `+
					`declares top-level metadata.cinatra.llm, but the ApiNode does `+
					`not carry data.cinatra_llm in source. WayFlow loads source OAS `+
					`directly; the compile-time `+
					`injectCinatraLlmIntoApiNodes pass only runs during `+
					`agent_source_compile/publish and never reaches the runtime body. `+
					`Add data.cinatra_llm: { preferredProvider, preferredModel, `+
					`capabilityRequired? } to the ApiNode's data block matching the `+
					`top-level metadata.cinatra.llm declaration. See `+
					`packages/agents/src/__tests__/source-oas-cinatra-llm-injection.test.ts `+
					`for the contract.`)
		})
	}
	if tb := c.Get("toolboxes"); tb.Is(compile.Array) && len(tb.Items) > 0 {
		for _, t := range tb.Items {
			if !t.Is(compile.String) {
				return
			}
		}
		v.bridgeNodes(func(n *compile.Node, path valPath) {
			if n.Get("data").Get("toolbox_ids").Is(compile.Array) {
				return
			}
			v.report(path.pointer(), RuleOASRuntime007,
				`ApiNode "`+rtLabel(n)+`" at `+path.dollar()+` targets /api/llm-bridge and the agent `+
					`declares top-level metadata.cinatra.toolboxes, but the ApiNode `+
					`does not carry data.toolbox_ids in source. WayFlow loads source `+
					`OAS directly; the compile-time `+
					`propagateToolboxesIntoApiNodes pass only runs during `+
					`agent_source_compile/publish and never reaches the runtime body. `+
					`Without source-side data.toolbox_ids, the bridge defaults to `+
					`["cinatra-mcp"] and your declared toolbox restriction is silently `+
					`lost. Add data.toolbox_ids: [...] to the ApiNode's data block `+
					`matching the top-level metadata.cinatra.toolboxes declaration.`)
		})
	}
}

// ---------------------------------------------------------------------------
// 001 / 004 / 005: per Flow.
// ---------------------------------------------------------------------------

type rtDFE struct{ src, srcOut, dst, dstIn string }

// rtDFEs are a Flow's DataFlowEdges written inline (runtimeFlow), with an
// index by (destination, input) for a large Flow.
type rtDFEs struct {
	list  []rtDFE
	index map[[2]string][]rtDFE // set past rtDFEIndexFrom edges
}

// rtDFEIndexFrom: a Flow with more DataFlowEdges than this indexes them;
// the usual few dozen are searched in order.
const rtDFEIndexFrom = 64

// into lists the edges into input in of node dst, in order.
func (d *rtDFEs) into(dst, in string) []rtDFE {
	if d.index != nil {
		return d.index[[2]string{dst, in}]
	}
	var out []rtDFE
	for _, e := range d.list {
		if e.dst == dst && e.dstIn == in {
			out = append(out, e)
		}
	}
	return out
}

// fed says some edge goes into input in of node dst: len(into(dst, in))
// > 0 without the list.
func (d *rtDFEs) fed(dst, in string) bool {
	if d.index != nil {
		return len(d.index[[2]string{dst, in}]) > 0
	}
	for i := range d.list {
		if e := &d.list[i]; e.dst == dst && e.dstIn == in {
			return true
		}
	}
	return false
}

// rtScratch holds the list of a Flow's data edges and the title and
// placeholder sets runtimeFlow fills between Flows: they were allocated
// anew for every Flow and ApiNode (2.5 MB of the 1,000-agent lint; a set
// holding its first names in itself escapes). release clears them, so the
// pool keeps no string of a document alive, and drops a list grown past
// rtScratchKeep edges.
type rtScratch struct {
	dfes                                            rtDFEs
	flowInputs, startInputs, declared, placeholders rtOrderedSet
}

const rtScratchKeep = 1024

var rtScratchPool = sync.Pool{New: func() any { return new(rtScratch) }}

// edges lists the DataFlowEdges written inline in dc (a Flow's
// data_flow_connections) into the scratch: each edge's source and
// destination $component_ref ("<unknown>" when not a reference) and its
// source_output and destination_input ("" when not strings).
func (sc *rtScratch) edges(dc *compile.Node) *rtDFEs {
	d := &sc.dfes
	d.list, d.index = d.list[:0], nil
	if !dc.Is(compile.Array) {
		return d
	}
	for _, e := range dc.Items {
		if !e.Is(compile.Object) || compile.ComponentType(e) != "DataFlowEdge" {
			continue
		}
		x := rtDFE{src: "<unknown>", dst: "<unknown>"}
		if id, ok := compile.RefID(e.Get("source_node")); ok {
			x.src = id
		}
		if id, ok := compile.RefID(e.Get("destination_node")); ok {
			x.dst = id
		}
		x.srcOut = e.Get("source_output").StringOr("")
		x.dstIn = e.Get("destination_input").StringOr("")
		d.list = append(d.list, x)
	}
	if len(d.list) > rtDFEIndexFrom {
		d.index = make(map[[2]string][]rtDFE, len(d.list))
		for _, e := range d.list {
			k := [2]string{e.dst, e.dstIn}
			d.index[k] = append(d.index[k], e)
		}
	}
	return d
}

func (sc *rtScratch) release() {
	sc.dfes.index = nil
	if cap(sc.dfes.list) > rtScratchKeep {
		return
	}
	clear(sc.dfes.list[:cap(sc.dfes.list)]) // a longer list of an earlier Flow too
	sc.dfes.list = sc.dfes.list[:0]
	sc.flowInputs.reset()
	sc.startInputs.reset()
	sc.declared.reset()
	sc.placeholders.reset()
	rtScratchPool.Put(sc)
}

// rtOrderedSet is a JavaScript Set of strings: insertion order, no
// repeats. Small sets (the usual few titles) need no map.
type rtOrderedSet struct {
	list []string
	has  map[string]bool // built once the set outgrows a linear search
	// the first rtSetInline names, in the set's own allocation: a set
	// grows from empty by doubling, an allocation and a copy each time
	inline [rtSetInline]string
}

const rtSetInline = 8

// reset empties the set for another use and returns it.
func (s *rtOrderedSet) reset() *rtOrderedSet {
	clear(s.inline[:])
	s.list, s.has = nil, nil
	return s
}

func (s *rtOrderedSet) contains(x string) bool {
	if s == nil {
		return false
	}
	if s.has != nil {
		return s.has[x]
	}
	for _, y := range s.list {
		if y == x {
			return true
		}
	}
	return false
}

func (s *rtOrderedSet) add(x string) {
	if s.contains(x) {
		return
	}
	if s.list == nil {
		s.list = s.inline[:0]
	}
	s.list = append(s.list, x)
	if s.has != nil {
		s.has[x] = true
	} else if len(s.list) > 16 {
		s.has = make(map[string]bool, 2*len(s.list))
		for _, y := range s.list {
			s.has[y] = true
		}
	}
}

func (s *rtOrderedSet) minus(o *rtOrderedSet) []string {
	var out []string
	for _, x := range s.list {
		if !o.contains(x) {
			out = append(out, x)
		}
	}
	return out
}

// rtTitles collects the string titles of an array of objects.
func rtTitles(a *compile.Node) []string {
	if !a.Is(compile.Array) {
		return nil
	}
	var out []string
	for _, it := range a.Items {
		if t, ok := it.Get("title").Str(); ok && it.Is(compile.Object) {
			out = append(out, t)
		}
	}
	return out
}

var rtApiSources = []string{"url", "http_method", "api_spec_uri", "data", "query_params", "headers"}

// rtPlaceholders is pyagentspec's placeholder set of an ApiNode: bare
// {{ name }} in the JSON text of its templated fields (the reference runs
// its regex over JSON.stringify of url, http_method, api_spec_uri, data,
// query_params, headers), ALL-CAPS names (environment variables) left out,
// in order of appearance. A match cannot cross a quote or a backslash, and
// JSON escapes every character \s could match but the space, so scanning
// every key and string in stringify order as it is (with \s = " ") finds
// the same names without building the text.
func rtPlaceholders(api *compile.Node) *rtOrderedSet {
	return rtPlaceholdersInto(api, &rtOrderedSet{})
}

// rtPlaceholdersInto is rtPlaceholders into an empty set of the caller's.
func rtPlaceholdersInto(api *compile.Node, set *rtOrderedSet) *rtOrderedSet {
	for _, k := range rtApiSources {
		rtScanPlaceholders(api.Get(k), set, 0)
	}
	return set
}

func rtScanPlaceholders(n *compile.Node, set *rtOrderedSet, depth int) {
	if n == nil || depth > compile.MaxDepth {
		return
	}
	switch n.Kind {
	case compile.String:
		rtScanText(n.Text, set)
	case compile.Array:
		for _, it := range n.Items {
			rtScanPlaceholders(it, set, depth+1)
		}
	case compile.Object:
		for _, m := range valEntries(n) {
			rtScanText(m.Key, set)
			rtScanPlaceholders(m.Value, set, depth+1)
		}
	}
}

func rtScanText(text string, set *rtOrderedSet) {
	compile.EachPlaceholder(text, compile.StringifiedSpace, func(name string, _, _ int) {
		if !rtIsEnvName(name) {
			set.add(name)
		}
	})
}

func rtIsEnvName(s string) bool {
	if s == "" || !(s[0] == '_' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (v *valCtx) runRuntime(w *valWalker) {
	v.checkBridgeSource()
	for _, f := range v.flows {
		v.runtimeFlow(f)
	}
}

func (v *valCtx) runtimeFlow(f valFlow) {
	raw := f.node
	sc := rtScratchPool.Get().(*rtScratch)
	defer sc.release()
	flowInputs := sc.flowInputs.reset()
	for _, t := range rtTitles(raw.Get("inputs")) {
		flowInputs.add(t)
	}
	startRef, ok := compile.RefID(raw.Get("start_node"))
	if !ok {
		startRef = "start"
	}
	refs := raw.Get("$referenced_components")
	entries := valEntries(refs)
	endRef, endIdx := "end", -1
	for i, m := range entries {
		if m.Value.Is(compile.Object) && compile.ComponentType(m.Value) == "EndNode" {
			endRef, endIdx = m.Key, i
			break
		}
	}
	var startInputs *rtOrderedSet
	if s := refs.Get(startRef); s.Is(compile.Object) {
		startInputs = sc.startInputs.reset()
		for _, t := range rtTitles(s.Get("inputs")) {
			startInputs.add(t)
		}
	}
	dfes := sc.edges(raw.Get("data_flow_connections"))
	loc := func(id string) string { return compile.Append(f.ptr, "$referenced_components", id) }

	for _, m := range entries {
		api := m.Value
		if !api.Is(compile.Object) || compile.ComponentType(api) != "ApiNode" {
			continue
		}
		id := m.Key
		inputsNode := api.Get("inputs")
		explicit := inputsNode.Is(compile.Array)
		declared := sc.declared.reset()
		agentRunIDDefault := false
		if explicit {
			for _, in := range inputsNode.Items {
				t, ok := in.Get("title").Str()
				if !ok || !in.Is(compile.Object) {
					continue
				}
				declared.add(t)
				if t == "agent_run_id" && in.Get("default") != nil {
					agentRunIDDefault = true
				}
			}
		}
		ph := rtPlaceholdersInto(api, sc.placeholders.reset())
		// 001
		if explicit {
			if missing := ph.minus(declared); len(missing) > 0 {
				v.report(loc(id), RuleOASRuntime001,
					`ApiNode "`+id+`" references {{ `+strings.Join(missing, " }}, {{ ")+` }} `+
						`via url/data/query_params/headers but does not declare `+
						`[`+rtQuoteList(missing)+`] in inputs[]. `+
						`pyagentspec will reject this at mount: `+
						`"received a property titled '<name>' but expected only properties with the titles: [...]". `+
						`Either add the missing input(s) to the ApiNode inputs[], or remove `+
						`the unmatched {{ ... }} placeholder(s) from the template body. `+
						`(Filtered placeholders like {{ x | tojson }} are invisible to `+
						`pyagentspec's regex — use a {# pyagentspec-input-hint: {{ name }} #} `+
						`comment sentinel to expose the names while preserving the filter; `+
						`see docs/developing-agents.md.)`)
			}
			if extra := declared.minus(ph); len(extra) > 0 {
				slash := make([]string, len(extra))
				for i, x := range extra {
					slash[i] = `"` + x + `"`
				}
				v.report(loc(id), RuleOASRuntime001,
					`ApiNode "`+id+`" declares `+
						`[`+rtQuoteList(extra)+`] in inputs[] but `+
						`the template body has no matching bare {{ name }} placeholder for `+
						strings.Join(slash, " / ")+`. pyagentspec will reject `+
						`this at mount: "ApiNode component received a property titled '<name>' `+
						`but expected only properties with the titles: [...]". Either remove `+
						`the dead input(s) from inputs[], OR if the value is actually used `+
						`via a filter (e.g. {{ `+extra[0]+` | tojson }}), add a `+
						`{# pyagentspec-input-hint: {{ `+extra[0]+` }} #} comment sentinel `+
						`to the template body. (Comment sentinels are invisible at render time `+
						`but match pyagentspec's regex; see docs/developing-agents.md.)`)
			}
		}
		// 004
		if !ph.contains("agent_run_id") {
			continue
		}
		if explicit && !declared.contains("agent_run_id") {
			v.report(loc(id), RuleOASRuntime004,
				`ApiNode "`+id+`" references {{ agent_run_id }} in its template `+
					`body but does not declare "agent_run_id" in inputs[]. `+
					`pyagentspec will reject this at mount with the same "expected only `+
					`properties with the titles: [...]" error as a normal parity break `+
					`(OAS-RUNTIME-001). Add { "title": "agent_run_id", "type": "string" } `+
					`to the ApiNode inputs[], and ensure a DataFlowEdge sources it from `+
					`the StartNode (canonical pattern uses `+
					`start.cinatra_run_id → `+id+`.agent_run_id; any bundled `+
					`flow agent's cinatra/oas.json shows the shape).`)
			continue
		}
		if explicit && agentRunIDDefault {
			continue
		}
		into := dfes.into(id, "agent_run_id")
		if len(into) == 0 {
			v.report(loc(id), RuleOASRuntime004,
				`ApiNode "`+id+`" declares "agent_run_id" in inputs[] but no `+
					`DataFlowEdge feeds it. The Flow loader will reject this at mount `+
					`with "the flow requires the input descriptor ... because some step `+
					`requires it but that is not available in the StartStep". Add a `+
					`DataFlowEdge whose destination_node is "`+id+`" and `+
					`destination_input is "agent_run_id", sourcing it from the StartNode `+
					`output (either start.cinatra_run_id — canonical email-outreach `+
					`pattern — or start.agent_run_id — legacy variant).`)
			continue
		}
		satisfied := false
		for _, e := range into {
			if e.src != startRef {
				continue
			}
			if (e.srcOut == "cinatra_run_id" || e.srcOut == "agent_run_id") &&
				startInputs.contains(e.srcOut) && flowInputs.contains(e.srcOut) {
				satisfied = true
				break
			}
		}
		if !satisfied {
			var si []string
			if startInputs != nil {
				si = startInputs.list
			}
			v.report(loc(id), RuleOASRuntime004,
				`ApiNode "`+id+`" agent_run_id DataFlowEdge does not resolve to a `+
					`StartNode output backed by a matching Flow input. The DFE must source `+
					`from the StartNode (component_ref="`+startRef+`") with `+
					`source_output "cinatra_run_id" (canonical email-outreach pattern) or `+
					`"agent_run_id" (legacy variant), and that name must appear in BOTH `+
					`the Flow root inputs[] AND the StartNode inputs[]. `+
					`Flow inputs: [`+strings.Join(flowInputs.list, ", ")+`]. `+
					`StartNode inputs: [`+strings.Join(si, ", ")+`].`)
		}
	}

	// 005
	if endIdx < 0 {
		return
	}
	for _, out := range rtTitles(entries[endIdx].Value.Get("outputs")) {
		fed := dfes.fed(endRef, out)
		if fed || (flowInputs.contains(out) && startInputs.contains(out)) {
			continue
		}
		v.report(loc(endRef), RuleOASRuntime005,
			`EndNode declares output "`+out+`" but no DataFlowEdge sources it `+
				`and no same-named Flow input is available via the StartNode. `+
				`pyagentspec's Flow loader will reject this at mount with: `+
				`"the flow requires the input descriptor ... because some step requires `+
				`it but that is not available in the StartStep". Three fixes by `+
				`preference: (a) wire an explicit DataFlowEdge from the upstream node `+
				`that actually produces "`+out+`"; (b) declare "`+out+`" in Flow `+
				`inputs + StartNode inputs and add a DataFlowEdge start.`+out+` → `+
				`end.`+out+` for trivial pass-through; (c) if nothing produces the `+
				`value, drop "`+out+`" from the EndNode outputs[] AND Flow outputs[]. `+
				`See docs/developing-agents.md.`)
	}
}
