package compile

import (
	"fmt"
	"regexp"
	"strings"
)

// The reference's artifact-output checks (cinatra artifact-binding.ts):
// `outputs[].cinatra.artifact` bindings on top-level EndNodes and
// `artifact_materialize` passthrough ApiNodes, validated against
// package.json cinatra.produces when package.json is readable.

var authorableMimes = []string{"text/markdown", "text/plain", "text/html", "application/json", "application/xml"}

var (
	objectTypeIDRe   = regexp.MustCompile(`^@[\w-]+/[\w-]+:[\w-]+$`)
	fanOutIdentityRe = regexp.MustCompile(`\[\d+\]$`)
)

func isAuthorableMime(s string) bool {
	for _, m := range authorableMimes {
		if m == s {
			return true
		}
	}
	return false
}

var fanOutSchema = zObject{strict: true, zopt: zopt{optional: true}, fields: []zField{
	{"mode", zLiteral{val: "member"}},
	{"titleFrom", zLiteral{val: "first-line"}},
	{"titlePrefix", zString{min: 1}},
}}

var bindingSchema = zObject{strict: true, fields: []zField{
	{"extension", zString{min: 1}},
	{"objectTypeId", zString{zopt: zopt{optional: true}}},
	{"contentFrom", zString{zopt: zopt{optional: true}, min: 1}},
	{"fileFrom", zString{zopt: zopt{optional: true}, min: 1}},
	{"filePattern", zString{zopt: zopt{optional: true}, min: 1}},
	{"titleFromFirstLine", zBool{zopt{optional: true}}},
	{"declaredMime", zString{zopt: zopt{optional: true}, min: 1}},
	{"mimeFrom", zString{zopt: zopt{optional: true}, min: 1}},
	{"titleFrom", zString{zopt: zopt{optional: true}, min: 1}},
	{"fanOut", fanOutSchema},
}}

// checkBinding validates one binding object: the strict schema, then (only
// when that passes, as zod runs refinements) the cross-field rules.
func checkBinding(b *Node) []StructuralIssue {
	var out []StructuralIssue
	bindingSchema.check(b, &zpath{}, &out)
	if ot := b.Get("objectTypeId"); ot.Is(String) && !objectTypeIDRe.MatchString(ot.Text) {
		addIssue(&out, []string{"objectTypeId"}, "objectTypeId must be a namespaced object type id (@scope/package:local-id)")
	}
	if len(out) > 0 {
		return out
	}
	var sources []string
	for _, k := range []string{"contentFrom", "fileFrom", "filePattern"} {
		if b.Get(k) != nil {
			sources = append(sources, k)
		}
	}
	switch {
	case len(sources) == 0:
		addIssue(&out, nil, "exactly one content source is required: contentFrom, fileFrom or filePattern")
	case len(sources) > 1:
		addIssue(&out, nil, "exactly one content source is allowed; this binding declares "+strings.Join(sources, " and "))
	}
	file := b.Get("fileFrom") != nil || b.Get("filePattern") != nil
	hasDeclared, hasFrom := b.Get("declaredMime") != nil, b.Get("mimeFrom") != nil
	if file {
		if hasFrom {
			addIssue(&out, []string{"mimeFrom"}, "a file-sourced binding may not carry mimeFrom — declare declaredMime, or leave the form to the detection ladder")
		}
	} else if hasDeclared == hasFrom {
		addIssue(&out, nil, "exactly one of declaredMime / mimeFrom is required")
	}
	hasTitle, hasFan := b.Get("titleFrom") != nil, b.Get("fanOut") != nil
	if file {
		if hasTitle {
			addIssue(&out, []string{"titleFrom"}, "a file-sourced binding must not carry titleFrom — the file's own name, or its first line behind titleFromFirstLine, is the title")
		}
		if hasFan {
			addIssue(&out, []string{"fanOut"}, "a file-sourced binding must not carry fanOut — filePattern IS the file fan-out")
		}
	} else {
		if b.Get("titleFromFirstLine") != nil {
			addIssue(&out, []string{"titleFromFirstLine"}, "titleFromFirstLine is only meaningful on a file source (fileFrom / filePattern)")
		}
		if hasTitle == hasFan {
			if hasFan {
				addIssue(&out, nil, "a fan-out binding must not carry titleFrom — each member's title comes from its own first line")
			} else {
				addIssue(&out, nil, "titleFrom is required (or declare fanOut, whose members title themselves)")
			}
		}
	}
	if dm := b.Get("declaredMime"); dm.Is(String) && !isAuthorableMime(dm.Text) {
		addIssue(&out, []string{"declaredMime"}, fmt.Sprintf(`declaredMime "%s" is not text-authorable; allowed: %s (binary artifacts use the upload/template paths)`, dm.Text, strings.Join(authorableMimes, ", ")))
	}
	return out
}

func typedProducesFor(refs []producesRef, ext string) string {
	for _, r := range refs {
		if r.extension == ext && r.objectTypeID != "" {
			return r.objectTypeID
		}
	}
	return ""
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// collectArtifactBindings validates every outputs[].cinatra.artifact of the
// top-level EndNodes. known: package.json was readable (parity applies).
func collectArtifactBindings(root *Node, known bool, produces []string, refs []producesRef) []ArtifactRefusal {
	var errs []ArtifactRefusal
	comps := root.Get("$referenced_components")
	if !comps.Is(Object) {
		return nil
	}
	for _, e := range entries(comps) {
		nodeID, comp := e.Key, e.Value
		if !comp.Is(Object) || ComponentType(comp) != "EndNode" {
			continue
		}
		outs := comp.Get("outputs").itemsOrNil()
		var titles []string
		seen := map[string]bool{}
		for _, o := range outs {
			if t, ok := o.Get("title").Str(); ok && o.Is(Object) {
				titles = append(titles, t)
				seen[t] = true
			}
		}
		for _, o := range outs {
			if !o.Is(Object) {
				continue
			}
			title, hasTitle := o.Get("title").Str()
			var art *Node
			if ann := o.Get("cinatra"); ann.Is(Object) {
				art = ann.Get("artifact")
			}
			if nullish(art) {
				continue
			}
			shown := title
			if !hasTitle {
				shown = "<untitled>"
			}
			where := fmt.Sprintf("$referenced_components.%s.outputs[%s].cinatra.artifact", nodeID, shown)
			if !hasTitle {
				errs = append(errs, ArtifactRefusal{At: o, Msg: where + `: the annotated output has no string "title"`})
				continue
			}
			if issues := checkBinding(art); len(issues) > 0 {
				for _, is := range issues {
					p := ""
					if len(is.Path) > 0 {
						p = "." + strings.Join(is.Path, ".")
					}
					errs = append(errs, ArtifactRefusal{At: nodeAt(art, is.Path), Msg: where + p + ": " + is.Message})
				}
				continue
			}
			if fanOutIdentityRe.MatchString(title) {
				errs = append(errs, ArtifactRefusal{At: art, Msg: fmt.Sprintf(`%s: a bound output may not be named "%s" — a trailing [index] is reserved for the members of a fanned-out list`, where, title)})
				continue
			}
			refErr := false
			for _, f := range []string{"contentFrom", "titleFrom", "mimeFrom"} {
				v, ok := art.Get(f).Str()
				if !ok {
					continue
				}
				if !seen[v] {
					errs = append(errs, ArtifactRefusal{At: art.Get(f), Msg: fmt.Sprintf(`%s.%s: "%s" does not name an output of EndNode "%s" (outputs: [%s])`, where, f, v, nodeID, strings.Join(dedupe(titles), ", "))})
					refErr = true
				}
			}
			if refErr {
				continue
			}
			if art.Get("fanOut") != nil {
				if cf := str(art.Get("contentFrom")); cf != title {
					errs = append(errs, ArtifactRefusal{At: art.Get("contentFrom"), Msg: fmt.Sprintf(`%s.contentFrom: a fan-out binding must name its OWN output ("%s"), not "%s" — the annotated list IS the fanned-out list`, where, title, jsString(art.Get("contentFrom")))})
					continue
				}
				if t := o.Get("type"); str(t) != "array" || !t.Is(String) {
					ts := "<none>"
					if !nullish(t) {
						ts = jsString(t)
					}
					errs = append(errs, ArtifactRefusal{At: art, Msg: fmt.Sprintf(`%s: fanOut requires an output of type "array" (output "%s" declares type "%s")`, where, title, ts)})
					continue
				}
				items := o.Get("json_schema").Get("items")
				if !items.Is(Object) {
					errs = append(errs, ArtifactRefusal{At: art, Msg: fmt.Sprintf(`%s: the bound list "%s" leaves its member level undeclared (json_schema.items) — a bound structured list declares its members`, where, title)})
					continue
				}
				if it := items.Get("type"); !it.Is(String) || it.Text != "string" {
					ts := "<none>"
					if !nullish(it) {
						ts = jsString(it)
					}
					errs = append(errs, ArtifactRefusal{At: art, Msg: fmt.Sprintf(`%s: fanOut members must be declared plain string members (json_schema.items.type "string"; "%s" declares "%s")`, where, title, ts)})
					continue
				}
			}
			ext := str(art.Get("extension"))
			if known && !containsStr(produces, ext) {
				errs = append(errs, ArtifactRefusal{At: art.Get("extension"), Msg: fmt.Sprintf(`%s.extension: "%s" is not declared in package.json cinatra.produces ([%s]) — declared production and bindings must agree`, where, ext, strings.Join(produces, ", "))})
				continue
			}
			if pt := typedProducesFor(refs, ext); pt != "" {
				if ot, ok := art.Get("objectTypeId").Str(); ok && ot != pt {
					errs = append(errs, ArtifactRefusal{At: art.Get("objectTypeId"), Msg: fmt.Sprintf(`%s.objectTypeId: "%s" contradicts the typed cinatra.produces entry for "%s" (declares type "%s") — a binding may narrow a coarse produces entry but must agree with a typed one`, where, ot, ext, pt)})
					continue
				}
			}
		}
	}
	return errs
}

// dedupe keeps the first of equal strings (a JavaScript Set's order).
func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// jsonStringify is JSON.stringify for an error message (undefined → "undefined").
func jsonStringify(n *Node) string {
	if n == nil {
		return "undefined"
	}
	b, err := rawNode{n}.MarshalJSON()
	if err != nil {
		return "null"
	}
	return string(b)
}

// collectMaterializeNodes validates every artifact_materialize passthrough
// ApiNode (url containing /api/agents/passthrough), top-level components
// and FlowNode subflows, nested Flows included.
func collectMaterializeNodes(root *Node, known bool, produces []string, refs []producesRef, bridgeData map[*Node]bool) []ArtifactRefusal {
	var errs []ArtifactRefusal
	// path is the steps from the root to the component visited at depth d
	// (path[:d+1]), joined only for an error: a stack the walk truncates
	// and extends, where a step allocated per component (the recursive
	// closure's argument escapes) cost two allocations per node of a
	// 33,000-node flow
	path := []pathStep{{text: "$"}}
	var visit func(n *Node, refKey string, depth int)
	visit = func(n *Node, refKey string, depth int) {
		if !n.Is(Object) || depth > MaxDepth {
			return
		}
		// the three members the walk reads, in one scan (the last of a
		// repeated key wins, as with Get)
		var ct, rc, sf *Node
		for i := range n.Members {
			switch m := &n.Members[i]; m.Key {
			case "component_type":
				ct = m.Value
			case "$referenced_components":
				rc = m.Value
			case "subflow":
				sf = m.Value
			}
		}
		if ct.StringOr("") == "ApiNode" {
			if u, ok := n.Get("url").Str(); ok && strings.Contains(u, "/api/agents/passthrough") {
				errs = append(errs, checkMaterializeNode(n, refKey, joinSteps(path[:depth+1]), known, produces, refs, bridgeData[n])...)
			}
		}
		if rc.Is(Object) {
			for _, e := range entries(rc) {
				path = append(path[:depth+1], pathStep{text: ".$referenced_components.", key: e.Key})
				visit(e.Value, e.Key, depth+1)
			}
		}
		if sf.Is(Object) {
			path = append(path[:depth+1], pathStep{text: ".subflow"})
			visit(sf, refKey, depth+1)
		}
	}
	visit(root, "$", 0)
	return errs
}

// pathStep is one step of the path an error names, joined only for an
// error (the walk visits every component; few are passthrough nodes).
type pathStep struct {
	text, key string // the step is text+key (key kept apart: no string made per component)
}

// joinSteps is the path of the steps, root first.
func joinSteps(steps []pathStep) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.text)
		b.WriteString(s.key)
	}
	return b.String()
}

func isTemplated(s string) bool { return strings.Contains(s, "{{") }

func checkMaterializeNode(n *Node, refKey, path string, known bool, produces []string, refs []producesRef, dataReplaced bool) []ArtifactRefusal {
	var errs []ArtifactRefusal
	one := func(at *Node, msg string) []ArtifactRefusal { return []ArtifactRefusal{{At: at, Msg: msg}} }
	nodeID := refKey
	if id, ok := n.Get("id").Str(); ok && id != "" {
		nodeID = id
	}
	where := fmt.Sprintf(`%s (ApiNode "%s")`, path, nodeID)
	data := n.Get("data")
	dataAt := data
	if dataAt == nil {
		dataAt = n
	}
	if dataReplaced {
		data = &Node{Kind: Object}
	}
	if data.Is(String) {
		parsed, err := Parse([]byte(data.Text))
		if err != nil || !parsed.Is(Object) {
			return one(dataAt, where+".data: a passthrough data block must be object-shaped (or a parseable JSON string) so the tool selection is statically validatable (got a non-JSON string)")
		}
		data = parsed
	}
	if !data.Is(Object) {
		return nil
	}
	tool := data.Get("tool")
	if t, ok := tool.Str(); !ok || t == "" || isTemplated(t) {
		return one(orNode(tool, dataAt), fmt.Sprintf("%s.data.tool: passthrough tool selection must be a literal string (got %s) — a templated/dynamic tool cannot be compile-validated", where, jsonStringify(tool)))
	}
	if tool.Text != "artifact_materialize" {
		return nil
	}
	input := data.Get("input")
	if !input.Is(Object) {
		return one(orNode(input, dataAt), where+".data.input: required object with {extension, content, declaredMime, title, node_id}")
	}
	fieldErr := func(field, msg string) {
		errs = append(errs, ArtifactRefusal{At: orNode(input.Get(field), input), Msg: fmt.Sprintf("%s.data.input.%s: %s", where, field, msg)})
	}

	ext := input.Get("extension")
	if s, ok := ext.Str(); !ok || s == "" || isTemplated(s) {
		fieldErr("extension", fmt.Sprintf("must be a literal artifact-extension package name (got %s)", jsonStringify(ext)))
	} else if known && !containsStr(produces, s) {
		fieldErr("extension", fmt.Sprintf(`"%s" is not declared in package.json cinatra.produces ([%s]) — declared production and materialization must agree`, s, strings.Join(produces, ", ")))
	}
	if ot := input.Get("objectTypeId"); ot != nil {
		if s, ok := ot.Str(); !ok || s == "" || isTemplated(s) || !objectTypeIDRe.MatchString(s) {
			fieldErr("objectTypeId", fmt.Sprintf("when present, must be a literal namespaced object type id (@scope/package:local-id) (got %s)", jsonStringify(ot)))
		} else if e, ok := ext.Str(); ok {
			if pt := typedProducesFor(refs, e); pt != "" && pt != s {
				fieldErr("objectTypeId", fmt.Sprintf(`"%s" contradicts the typed cinatra.produces entry for "%s" (declares type "%s") — narrowing a coarse entry is allowed, contradicting a typed one is not`, s, e, pt))
			}
		}
	}
	dm := input.Get("declaredMime")
	if s, ok := dm.Str(); !ok || s == "" || isTemplated(s) {
		fieldErr("declaredMime", fmt.Sprintf("must be a literal MIME type (got %s)", jsonStringify(dm)))
	} else if !isAuthorableMime(s) {
		fieldErr("declaredMime", fmt.Sprintf(`"%s" is not text-authorable; allowed: %s (binary artifacts use the upload/template paths)`, s, strings.Join(authorableMimes, ", ")))
	}
	hasArtifact, hasBase := input.Get("artifactId") != nil, input.Get("baseRepresentationRevisionId") != nil
	if hasArtifact != hasBase {
		f := "artifactId"
		if hasArtifact {
			f = "baseRepresentationRevisionId"
		}
		fieldErr(f, "an append names the artifact it revises AND the revision it read — declare both (artifactId + baseRepresentationRevisionId) or neither")
	}
	required := []string{"content", "title"}
	if hasArtifact && hasBase {
		required = []string{"content", "artifactId", "baseRepresentationRevisionId"}
	}
	for _, f := range required {
		if s, ok := input.Get(f).Str(); !ok || s == "" {
			fieldErr(f, fmt.Sprintf(`must be a non-empty string (a flow-variable placeholder such as "{{ %s }}")`, f))
		}
	}
	nid := input.Get("node_id")
	if s, ok := nid.Str(); !ok || s == "" || isTemplated(s) {
		fieldErr("node_id", fmt.Sprintf(`must be a literal string equal to this ApiNode's id ("%s") — it is the idempotency-ledger output identity (got %s)`, nodeID, jsonStringify(nid)))
	} else if s != nodeID {
		fieldErr("node_id", fmt.Sprintf(`"%s" must equal this ApiNode's id ("%s") — two materialize nodes sharing one ledger identity would silently collapse same-byte outputs into one artifact`, s, nodeID))
	}
	if cj := input.Get("contentJsonField"); cj != nil {
		if s, ok := cj.Str(); !ok || s == "" || isTemplated(s) {
			fieldErr("contentJsonField", fmt.Sprintf("when present, must be a literal field name (got %s)", jsonStringify(cj)))
		}
	}
	return errs
}
