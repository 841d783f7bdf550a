package compile

// The compiled output beside the steps: schemas, prompt, llmConfig,
// toolboxes (reference cinatra.md §11.9), the A2AAgent connection config
// (§11.6) and the sibling package.json and cinatra.json (§11.10).

// resolve is resolveComponentRef: local $referenced_components, then the
// global registry; a value counts when it is a non-null object (or array).
func (c *compiler) resolve(id *Node) *Node {
	key := jsString(id)
	if l := c.ref(key); truthy(l) && isObj(l) {
		return l
	}
	if g := get(c.reg, key); truthy(g) && isObj(g) {
		return g
	}
	return nil
}

// ref is the root Flow's $referenced_components[id].
func (c *compiler) ref(id string) *Node {
	if c.refMap == nil {
		return c.refs.Get(id) // indexed: a look-up, the last duplicate winning
	}
	return c.refMap[id]
}

func (c *compiler) inputSchema(start *Node) (any, error) {
	cin := path(start, "metadata", "cinatra")
	inputs := coalesce(get(start, "inputs"), &Node{Kind: Array})
	required := coalesce(get(cin, "required"), &Node{Kind: Array})
	hidden := coalesce(get(cin, "hidden"), &Node{Kind: Array})
	renderers := coalesce(get(cin, "inputRenderers"), &Node{Kind: Object})
	sources := coalesce(get(cin, "inputDataSources"), &Node{Kind: Object})
	titles := coalesce(get(cin, "inputTitles"), &Node{Kind: Object})
	var props objBuilder
	inHidden := includer(hidden, "startHidden")
	items, err := iterate(inputs, "startInputs")
	if err != nil {
		return nil, err
	}
	for _, prop := range items {
		if nullish(prop) {
			return nil, typeErr("Cannot destructure property 'title' of 'prop' as it is %s.", jsString(prop))
		}
		title := get(prop, "title")
		typ := get(prop, "type")
		key := jsString(title)
		shape := OrderedObject{{"type", val(typ)}, {"title", val(coalesce(get(titles, key), title))}}
		if f := get(prop, "format"); truthy(f) {
			shape.Set("format", jsonValue(f))
		}
		if d := get(prop, "description"); truthy(d) {
			shape.Set("description", jsonValue(d))
		}
		if it := coalesce(get(prop, "items"), get(get(prop, "json_schema"), "items")); truthy(it) {
			shape.Set("items", jsonValue(it))
		}
		subProps := coalesce(get(prop, "properties"), get(get(prop, "json_schema"), "properties"))
		subReq := coalesce(get(prop, "required"), get(get(prop, "json_schema"), "required"))
		if str(typ) == "object" && typ.Kind == String && truthy(subProps) && subProps.Kind == Object {
			shape.Set("properties", jsonValue(subProps))
			if subReq != nil && subReq.Kind == Array {
				shape.Set("required", jsonValue(subReq))
			}
		}
		if r := get(renderers, key); truthy(r) {
			shape.Set("x-renderer", jsonValue(r))
		}
		if d := get(sources, key); truthy(d) {
			shape.Set("x-data-source", jsonValue(d))
		}
		in, err := inHidden(title)
		if err != nil {
			return nil, err
		}
		if in {
			shape.Set("x-hidden", true)
		}
		props.set(key, shape)
	}
	return OrderedObject{{"type", "object"}, {"required", jsonValue(required)}, {"properties", props.object()}}, nil
}

func (c *compiler) outputSchema(end *Node) (any, error) {
	outs := coalesce(get(end, "outputs"), &Node{Kind: Array})
	if length(outs) <= 0 {
		return nil, nil
	}
	items, err := iterate(outs, "endOutputs")
	if err != nil {
		return nil, err
	}
	var props objBuilder
	for _, prop := range items {
		if nullish(prop) {
			return nil, typeErr("Cannot destructure property 'title' of 'prop' as it is %s.", jsString(prop))
		}
		title := get(prop, "title")
		shape := OrderedObject{{"type", val(get(prop, "type"))}, {"title", val(title)}}
		if f := get(prop, "format"); truthy(f) {
			shape.Set("format", jsonValue(f))
		}
		if d := get(prop, "description"); truthy(d) {
			shape.Set("description", jsonValue(d))
		}
		if it := coalesce(get(prop, "items"), get(get(prop, "json_schema"), "items")); truthy(it) {
			shape.Set("items", jsonValue(it))
		}
		props.set(jsString(title), shape)
	}
	return OrderedObject{{"type", "object"}, {"properties", props.object()}}, nil
}

func (c *compiler) prompt(agentNodeIDs []string) *string {
	for _, id := range agentNodeIDs {
		ref := get(get(c.ref(id), "agent"), "$component_ref")
		if !truthy(ref) {
			continue
		}
		agent := c.ref(jsString(ref))
		if !truthy(agent) {
			continue
		}
		if ComponentType(agent) == "Agent" {
			if p, ok := get(agent, "system_prompt").Str(); ok {
				return &p
			}
		}
	}
	return nil
}

// resolveInlineOrRef: an inline component, or the one a $component_ref names.
func (c *compiler) resolveInlineOrRef(raw *Node) *Node {
	if raw.Kind == Object && hasMember(raw, "$component_ref") {
		return c.resolve(raw.Get("$component_ref"))
	}
	return raw
}

func hasMember(n *Node, key string) bool {
	for _, m := range n.Members {
		if m.Key == key {
			return true
		}
	}
	return false
}

func (c *compiler) firstAgents(agentNodeIDs []string, fn func(agent *Node) bool) {
	for _, id := range agentNodeIDs {
		ref := get(get(c.ref(id), "agent"), "$component_ref")
		if !truthy(ref) {
			continue
		}
		agent := c.resolve(ref)
		if agent == nil || ComponentType(agent) != "Agent" {
			continue
		}
		if fn(agent) {
			return
		}
	}
}

func (c *compiler) llmConfig(agentNodeIDs []string) *LlmConfig {
	var out *LlmConfig
	c.firstAgents(agentNodeIDs, func(agent *Node) bool {
		raw := get(agent, "llm_config")
		if !truthy(raw) || !isObj(raw) {
			return false
		}
		cfg := c.resolveInlineOrRef(raw)
		if cfg == nil {
			return false
		}
		model, ok := get(cfg, "model_id").Str()
		if !ok {
			return false
		}
		out = &LlmConfig{ModelID: model}
		if t := str(get(cfg, "api_type")); t == "chat_completions" || t == "responses" {
			out.APIType = t
		}
		return true
	})
	return out
}

func (c *compiler) toolboxes(agentNodeIDs []string) []Toolbox {
	out := []Toolbox{}
	c.firstAgents(agentNodeIDs, func(agent *Node) bool {
		list := get(agent, "toolboxes")
		if list == nil || list.Kind != Array || len(list.Items) == 0 {
			return false
		}
		var got []Toolbox
		for _, e := range list.Items {
			if !truthy(e) || !isObj(e) {
				continue
			}
			tb := c.resolveInlineOrRef(e)
			if tb == nil || ComponentType(tb) != "MCPToolBox" {
				continue
			}
			id, ok1 := get(tb, "id").Str()
			u, ok2 := path(tb, "client_transport", "url").Str()
			if !ok1 || !ok2 {
				continue
			}
			got = append(got, Toolbox{ID: id, URL: u})
		}
		if len(got) > 0 {
			out = got
			return true
		}
		return false
	})
	return out
}

// connectionConfig is the {timeout, verify} of an A2AAgent's
// connection_config (inline or ref) when both have their types, else nil.
func (c *compiler) connectionConfig(agent *Node) *ConnectionConfig {
	if agent == nil || ComponentType(agent) != "A2AAgent" {
		return nil
	}
	raw := get(agent, "connection_config")
	if !truthy(raw) || !isObj(raw) {
		return nil
	}
	cc := c.resolveInlineOrRef(raw)
	if cc == nil {
		return nil
	}
	t, v := get(cc, "timeout"), get(cc, "verify")
	if t == nil || t.Kind != Number || v == nil || v.Kind != Bool {
		return nil
	}
	f, _ := t.Float()
	return &ConnectionConfig{Timeout: f, Verify: v.Bool}
}

// sibling is what the reference reads from package.json.
type sibling struct {
	name, version     any // string or nil
	agentDependencies any
	produces          []string
	producesRefs      []producesRef
}

type producesRef struct{ extension, objectTypeID string }

func readSibling(d *Doc) *sibling {
	if d == nil || d.Root == nil || d.Root.Kind == Null {
		return nil
	}
	r := d.Root
	s := &sibling{agentDependencies: OrderedObject{}}
	if v, ok := get(r, "name").Str(); ok {
		s.name = v
	}
	if v, ok := get(r, "version").Str(); ok {
		s.version = v
	}
	if deps := path(r, "cinatra", "agentDependencies"); !nullish(deps) {
		s.agentDependencies = jsonValue(deps)
	}
	s.produces, s.producesRefs = []string{}, []producesRef{}
	if raw := path(r, "cinatra", "produces"); raw != nil && raw.Kind == Array {
		var refs []producesRef
		for _, it := range raw.Items {
			if !truthy(it) || !isObj(it) {
				continue
			}
			ext, ok := get(it, "extension").Str()
			if !ok || ext == "" {
				continue
			}
			refs = append(refs, producesRef{extension: ext, objectTypeID: str(get(it, "objectTypeId"))})
		}
		if len(refs) == len(raw.Items) {
			s.producesRefs = refs
			for _, r := range refs {
				s.produces = append(s.produces, r.extension)
			}
		}
	}
	return s
}

func readCinatraConfig(d *Doc) *CinatraConfig {
	if d == nil || d.Root == nil || d.Root.Kind == Null {
		return nil
	}
	r := d.Root
	out := &CinatraConfig{}
	if l := get(r, "limits"); truthy(l) && isObj(l) {
		if m := get(l, "maxRecipients"); m != nil && m.Kind == Number {
			if f, _ := m.Float(); f > 0 {
				out.Limits = &CinatraLimits{MaxRecipients: f}
			}
		}
	}
	if rc := get(r, "requiredConnections"); rc != nil && rc.Kind == Array {
		for _, it := range rc.Items {
			if truthy(it) && isObj(it) && get(it, "type").Is(String) {
				out.RequiredConnections = append(out.RequiredConnections, jsonValue(it))
			}
		}
	}
	if df := get(r, "defaults"); truthy(df) && isObj(df) {
		sn := get(df, "senderName")
		if sn != nil && sn.Kind == String {
			v := sn.Text
			out.Defaults = &CinatraDefaults{SenderName: &v}
		} else if sn != nil && sn.Kind == Null {
			out.Defaults = &CinatraDefaults{}
		}
	}
	return out
}
