package lint

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/oastui/oastui/compile"
)

// The structure check of the agentspec profile: the document against the
// official JSON Schema of its declared agentspec_version (schemas/README.md
// says where the files come from), with the validator's errors rewritten
// into one readable finding per problem. The schemas describe a root as an
// anyOf over every component type and every component field as an anyOf
// over the concrete types of its family; a failing anyOf is resolved by
// following the branch whose component_type matches the object (or the
// $component_ref branch for a reference), so the user sees that branch's
// problem, never a dump of sixty branches.

var (
	RuleAgentSpecSchema = &Rule{Code: "agentspec_schema", Severity: compile.Blocker, Group: "agentspec",
		Doc: "the document breaks the official Agent Spec JSON Schema of its declared version (a missing required field, a wrong type or value)"}
	RuleAgentSpecUnknownField = &Rule{Code: "agentspec_unknown_field", Severity: compile.Warning, Group: "agentspec",
		Doc: "D6: a field the component's JSON Schema does not define (additionalProperties: false); the SDK silently drops it"}
)

//go:embed schemas/*.json
var schemaFS embed.FS

// schemaFiles maps a declared version to its schema. 26.2.0's schema is
// byte-identical to 26.1.2's. A document without a version is checked
// against the newest schema; 26.3.1 and 26.4.0 have none here and are not
// structure-checked (their schemas are not in the corpus snapshot).
var schemaFiles = map[string]string{
	"25.4.1": "agentspec_json_spec_25_4_1.json",
	"25.4.2": "agentspec_json_spec_25_4_2.json",
	"25.4.0": "agentspec_json_spec_25_4_1.json",
	"26.1.0": "agentspec_json_spec_26_1_0.json",
	"26.1.2": "agentspec_json_spec_26_1_2.json",
	"26.2.0": "agentspec_json_spec_26_1_2.json",
	"":       "agentspec_json_spec_26_1_2.json",
}

// compiledSchema is one schema file, compiled: a validator per $defs entry
// that a top-level object can be checked against.
type compiledSchema struct {
	defs  map[string]*jsonschema.Schema
	types map[string]bool // component types the file defines
	err   error
}

var schemaCache = func() map[string]func() *compiledSchema {
	m := map[string]func() *compiledSchema{}
	for _, file := range schemaFiles {
		if _, done := m[file]; !done {
			m[file] = sync.OnceValue(func() *compiledSchema { return compileSchemaFile(file) })
		}
	}
	return m
}()

func compileSchemaFile(file string) *compiledSchema {
	cs := &compiledSchema{defs: map[string]*jsonschema.Schema{}, types: map[string]bool{}}
	src, err := schemaFS.ReadFile("schemas/" + file)
	if err != nil {
		cs.err = err
		return cs
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		cs.err = err
		return cs
	}
	collectComponentTypes(doc, cs.types)
	url := "mem:///" + file
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		cs.err = err
		return cs
	}
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	names := []string{"ComponentReferenceWithNestedReferences"}
	for t := range cs.types {
		if _, ok := defs[t]; ok {
			names = append(names, t)
		}
	}
	for _, name := range names {
		sch, err := c.Compile(url + "#/$defs/" + name)
		if err != nil {
			cs.err = err
			return cs
		}
		cs.defs[name] = sch
	}
	return cs
}

// collectComponentTypes finds every "component_type": {"const": X}.
func collectComponentTypes(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if ct, ok := x["component_type"].(map[string]any); ok {
			if s, ok := ct["const"].(string); ok {
				out[s] = true
			}
		}
		for _, c := range x {
			collectComponentTypes(c, out)
		}
	case []any:
		for _, c := range x {
			collectComponentTypes(c, out)
		}
	}
}

// knownComponentTypes is compile.ComponentTypes as a set (the schemas'
// own, abstract types excluded: schemaComponentTypes, which the tests
// compare with it).
var knownComponentTypes = sync.OnceValue(func() map[string]bool {
	known := map[string]bool{}
	for _, t := range compile.ComponentTypes() {
		known[t] = true
	}
	return known
})

var printer = message.NewPrinter(language.English)

// checkSchema validates each top-level configuration.
func checkSchema(p *Pass, doc *compile.Doc, tops []topComponent) {
	for _, t := range tops {
		if !t.node.Is(compile.Object) {
			continue
		}
		ver := t.node.Get("agentspec_version")
		vs := ""
		if ver != nil {
			s, ok := ver.Str()
			if !ok {
				continue
			}
			vs = s
		}
		file, ok := schemaFiles[vs]
		if !ok {
			continue // unknown version (reported), or one without a schema here
		}
		cs := schemaCache[file]()
		if cs.err != nil {
			continue
		}
		def := compile.ComponentType(t.node)
		if t.node.Get("$component_ref") != nil {
			def = "ComponentReferenceWithNestedReferences"
		}
		sch := cs.defs[def]
		if sch == nil {
			continue // unknown type, or one newer than the version: other rules report it
		}
		inst, _ := t.node.Interface().(map[string]any)
		delete(inst, "agentspec_version") // checked by the version rules; the schemas' Base* forbid it
		stripInlineIgnores(inst)          // oastui's own member (inline_ignore.go), not the format's
		err := sch.Validate(inst)
		ve, ok := err.(*jsonschema.ValidationError)
		if !ok || ve == nil {
			continue
		}
		r := schemaReporter{p: p, doc: doc, base: compile.SplitPointer(t.ptr), version: vs, seen: map[string]bool{}, types: cs.types}
		r.collect(ve)
		// The SDK gates only some features by version (D10); others, such
		// as Swarm's handoff modes, load under an older declared version
		// although that version's schema predates them. A problem the
		// newest schema does not have is a warning, not a blocker.
		newest := schemaCache[schemaFiles[""]]()
		if file != schemaFiles[""] && newest.err == nil && newest.defs[def] != nil {
			nr := schemaReporter{p: p, doc: doc, base: r.base, version: "", seen: map[string]bool{}, types: newest.types}
			if nerr, ok := newest.defs[def].Validate(inst).(*jsonschema.ValidationError); ok && nerr != nil {
				nr.collect(nerr)
			}
			inNewest := map[string]bool{}
			for _, pr := range nr.found {
				inNewest[pr.ptr+"\x00"+pr.rule.Code] = true
			}
			for i, pr := range r.found {
				switch {
				case inNewest[pr.ptr+"\x00"+pr.rule.Code]:
				case pr.rule == RuleAgentSpecSchema:
					r.found[i].sev = compile.Warning
					r.found[i].msg += " (newer Agent Spec schemas allow it, and the SDK loads it)"
				case pr.rule == RuleAgentSpecUnknownField:
					r.found[i].msg = strings.TrimSuffix(pr.msg, "; the SDK drops it silently") + " (newer versions define it: declare the version the file needs)"
				}
			}
		}
		for _, pr := range r.found {
			f := doc.At(pr.ptr, pr.rule.Code, pr.sev, pr.msg)
			p.ReportFinding(f)
		}
	}
}

// schemaProblem is one rewritten schema error, before it is reported.
type schemaProblem struct {
	ptr, msg string
	rule     *Rule
	sev      compile.Severity
}

type schemaReporter struct {
	p       *Pass
	doc     *compile.Doc
	base    []string // pointer tokens of the validated object in the document
	version string
	seen    map[string]bool
	found   []schemaProblem
	types   map[string]bool // component types the schema defines
}

func (r *schemaReporter) ptr(loc []string) string {
	return compile.Pointer(append(append([]string{}, r.base...), loc...)...)
}

func isChoice(e *jsonschema.ValidationError) bool {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return true
	}
	return false
}

// misses reports whether branch e fails on the discriminator of the object
// at loc: its component_type const, the $component_ref a reference needs,
// or the JSON type of the value itself.
func misses(e *jsonschema.ValidationError, loc []string) bool {
	if slices.Equal(e.InstanceLocation, loc) {
		switch k := e.ErrorKind.(type) {
		case *kind.Type:
			return true
		case *kind.Required:
			for _, m := range k.Missing {
				if m == "$component_ref" || m == "component_type" {
					return true
				}
			}
		case *kind.Const, *kind.Enum:
			return true
		}
		if isChoice(e) {
			for _, c := range e.Causes {
				if !misses(c, loc) {
					return false
				}
			}
			return true
		}
	}
	if len(e.InstanceLocation) == len(loc)+1 && slices.Equal(e.InstanceLocation[:len(loc)], loc) && e.InstanceLocation[len(loc)] == "component_type" {
		switch e.ErrorKind.(type) {
		case *kind.Const, *kind.Enum:
			return true
		}
	}
	for _, c := range e.Causes {
		if misses(c, loc) {
			return true
		}
	}
	return false
}

// mentions reports whether a branch's errors come from the schema of
// component type ct ($defs/ct, $defs/Basect or $defs/Versionedct).
func mentions(e *jsonschema.ValidationError, ct string) bool {
	for _, name := range []string{ct, "Base" + ct, "Versioned" + ct} {
		marker := "/$defs/" + name
		if i := strings.Index(e.SchemaURL, marker); i >= 0 {
			rest := e.SchemaURL[i+len(marker):]
			if rest == "" || rest[0] == '/' {
				return true
			}
		}
	}
	for _, c := range e.Causes {
		if mentions(c, ct) {
			return true
		}
	}
	return false
}

// wantsRef: one branch of the choice is a $component_ref reference, so the
// choice is between component types.
func wantsRef(e *jsonschema.ValidationError, loc []string) bool {
	if k, ok := e.ErrorKind.(*kind.Required); ok && slices.Equal(e.InstanceLocation, loc) {
		for _, m := range k.Missing {
			if m == "$component_ref" {
				return true
			}
		}
	}
	for _, c := range e.Causes {
		if wantsRef(c, loc) {
			return true
		}
	}
	return false
}

// leaves counts the leaf errors of a branch (to prefer the closest one).
func leaves(e *jsonschema.ValidationError) int {
	if len(e.Causes) == 0 {
		return 1
	}
	n := 0
	for _, c := range e.Causes {
		n += leaves(c)
	}
	return n
}

func (r *schemaReporter) collect(e *jsonschema.ValidationError) {
	if isChoice(e) {
		if n := r.instance(e.InstanceLocation); n.Is(compile.Object) && n.Get("component_type") == nil && n.Get("$component_ref") == nil && wantsRef(e, e.InstanceLocation) {
			r.noBranch(e) // a component without a type: no branch can be "its" branch
			return
		}
		if ct := compile.ComponentType(r.instance(e.InstanceLocation)); ct != "" && !r.types[ct] {
			return // a type this version's schema does not know: D3 or D10 reports it
		}
		var on []*jsonschema.ValidationError
		for _, c := range e.Causes {
			if !misses(c, e.InstanceLocation) {
				on = append(on, c)
			}
		}
		if len(on) == 0 {
			r.noBranch(e)
			return
		}
		// Prefer the branches that are about the object's own type: a
		// schema without a component_type const (25.4.1's inline
		// SSETransport) must not win just because it has fewer errors.
		if ct := compile.ComponentType(r.instance(e.InstanceLocation)); ct != "" {
			var typed []*jsonschema.ValidationError
			for _, c := range on {
				if mentions(c, ct) {
					typed = append(typed, c)
				}
			}
			if len(typed) > 0 {
				on = typed
			}
		}
		best := on[0]
		for _, c := range on[1:] {
			if leaves(c) < leaves(best) {
				best = c
			}
		}
		r.collect(best)
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			r.collect(c)
		}
		return
	}
	r.leaf(e)
}

// instance returns the document node at loc.
func (r *schemaReporter) instance(loc []string) *compile.Node {
	return r.doc.Lookup(r.ptr(loc))
}

// what names the object at loc for a message: `Flow "name"`.
func (r *schemaReporter) what(loc []string) string {
	n := r.instance(loc)
	if ct := compile.ComponentType(n); ct != "" {
		if name := n.Get("name").StringOr(""); name != "" {
			return fmt.Sprintf("%s %q", ct, name)
		}
		return ct
	}
	if len(loc) == 0 {
		return "the component"
	}
	return fmt.Sprintf("%q", loc[len(loc)-1])
}

// insideUnknown: the problem lies in a component whose type other rules
// already report (missing, not a string, unknown, plugin).
func (r *schemaReporter) insideUnknown(loc []string) bool {
	known := knownComponentTypes()
	for i := 0; i <= len(loc); i++ {
		n := r.instance(loc[:i])
		if !n.Is(compile.Object) {
			continue
		}
		ctn := n.Get("component_type")
		if ctn == nil {
			continue
		}
		if ct, ok := ctn.Str(); !ok || !known[ct] {
			return true
		}
	}
	return false
}

func (r *schemaReporter) report(loc []string, rule *Rule, msg string) {
	ptr := r.ptr(loc)
	if _, isRef := compile.RefID(r.instance(loc)); isRef && rule == RuleAgentSpecSchema {
		// A reference where the schema wants a plain value: a
		// disaggregated sensitive field (D11 checks it resolves).
		return
	}
	key := ptr + "\x00" + rule.Code + "\x00" + msg
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.found = append(r.found, schemaProblem{ptr: ptr, rule: rule, msg: msg, sev: rule.Severity})
}

// noBranch: no branch of an anyOf fits the value at all.
func (r *schemaReporter) noBranch(e *jsonschema.ValidationError) {
	loc := e.InstanceLocation
	if r.insideUnknown(loc) {
		return
	}
	n := r.instance(loc)
	if n.Is(compile.Object) && n.Get("component_type") == nil && n.Get("$component_ref") == nil {
		for _, f := range r.p.Findings() {
			if f.Location == r.ptr(loc) && f.Code == RuleComponentTypeMissing.Code {
				return
			}
		}
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s must be a component (with a component_type) or a {\"$component_ref\": …} reference", r.what(loc)))
		return
	}
	// Plain alternatives such as string-or-null: list the wanted types.
	want := map[string]bool{}
	var walk func(*jsonschema.ValidationError)
	walk = func(x *jsonschema.ValidationError) {
		if t, ok := x.ErrorKind.(*kind.Type); ok && slices.Equal(x.InstanceLocation, loc) {
			for _, w := range t.Want {
				want[w] = true
			}
		}
		for _, c := range x.Causes {
			walk(c)
		}
	}
	walk(e)
	got := "missing"
	if n != nil {
		got = n.Kind.String()
	}
	if n.Is(compile.Object) {
		if ct := compile.ComponentType(n); ct != "" {
			if !r.types[ct] {
				return // a type newer than the declared version: D10 reports it
			}
			r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("a %s cannot stand here in Agent Spec %s", ct, r.versionText()))
			return
		}
	}
	if len(want) > 0 {
		ws := sortedKeys(want)
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s must be %s, not %s", r.what(loc), strings.Join(ws, " or "), got))
		return
	}
	r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s does not have any of the forms Agent Spec %s allows here", r.what(loc), r.versionText()))
}

func (r *schemaReporter) versionText() string {
	if r.version == "" {
		return "(checked against the newest schema, 26.1.2)"
	}
	return r.version
}

func (r *schemaReporter) leaf(e *jsonschema.ValidationError) {
	loc := e.InstanceLocation
	if r.insideUnknown(loc) {
		return
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		props := append([]string{}, k.Properties...)
		sort.Strings(props)
		for _, prop := range props {
			if prop == "agentspec_version" || prop == "component_type" || (prop == "air_version" && len(loc) == 0) {
				continue // the version rules report these; some old schemas forget component_type on concrete subclasses
			}
			fl := append(append([]string{}, loc...), prop)
			r.report(fl, RuleAgentSpecUnknownField, fmt.Sprintf("%s has no field %q in Agent Spec %s; the SDK drops it silently", r.what(loc), prop, r.versionText()))
		}
	case *kind.Required:
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s is missing the required field%s %s", r.what(loc), plural(len(k.Missing)), quoteList(k.Missing)))
	case *kind.Type:
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s must be %s, not %s", r.what(loc), strings.Join(k.Want, " or "), k.Got))
	case *kind.Pattern:
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s does not match the pattern %s", r.what(loc), k.Want)) // never echo the value
	case *kind.Format:
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s is not a valid %s", r.what(loc), k.Want))
	default:
		r.report(loc, RuleAgentSpecSchema, fmt.Sprintf("%s: %s", r.what(loc), k.LocalizedString(printer)))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
