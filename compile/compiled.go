package compile

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// CompiledAgentOas is what the compiler derives from an agent's flow
// (reference cinatra.md §11.10). Field names and JSON keys are the
// reference's; parts that are copied verbatim from the agent (schemas,
// dependency maps) are kept as plain JSON values (any) so that whatever the
// author wrote comes back unchanged.
type CompiledAgentOas struct {
	ApprovalPolicy    ApprovalPolicy `json:"approvalPolicy"`
	InputSchema       any            `json:"inputSchema"`  // {type, required, properties} as an Object
	OutputSchema      any            `json:"outputSchema"` // Object, or nil when the EndNode has no outputs
	Prompt            *string        `json:"prompt"`
	PackageName       any            `json:"packageName"`       // string from package.json, or nil
	PackageVersion    any            `json:"packageVersion"`    // string from package.json, or nil
	AgentDependencies any            `json:"agentDependencies"` // package.json cinatra.agentDependencies verbatim, {} when absent
	Type              any            `json:"type"`              // metadata.cinatra.type
	CompiledPlan      []any          `json:"compiledPlan"`      // always []
	HitlScreens       any            `json:"hitlScreens"`       // metadata.cinatra.hitlScreens, [] when absent
	LlmConfig         *LlmConfig     `json:"llmConfig"`
	Toolboxes         []Toolbox      `json:"toolboxes"`
	AgentSpecVersion  any            `json:"agentSpecVersion"`
	TriggerMode       string         `json:"triggerMode"` // "full" | "start-only"
	GatedSteps        []GatedStep    `json:"gatedSteps"`
	// HasArtifactBindings (cinatra#2498): the flow declares at least one
	// outputs[].cinatra.artifact binding (HasArtifactBindings). Newer than
	// the pinned compiler and its oracles; its place in the key order,
	// before cinatraConfig, is the one the platform's own test doubles of
	// the compiled result give it (approximated: the newest compiler's
	// source is not public).
	HasArtifactBindings bool           `json:"hasArtifactBindings"`
	CinatraConfig       *CinatraConfig `json:"cinatraConfig"`
	// Warnings are what the compile says without refusing (the produces
	// road, cinatra#3051: RoadWarning); not part of the JSON, as the
	// platform prints them rather than returning them.
	Warnings []string `json:"-"`

	// nodesDistinct: the compiler's order of the root Flow's nodes names
	// no node twice (StepNodesDistinct).
	nodesDistinct bool
}

// StepNodesDistinct says the compiler numbered its steps over an order
// of the root Flow's nodes that names no node twice (an unreached id
// `nodes` lists twice is named twice): two steps share a NodeID only as
// one FlowNode's gate steps (each its own GateIndex) or as the setup
// step (step 0) and its start node's own step. False when the compiler
// could not tell (an id it found no component for), and for an output
// not made by Compile. A reader keying the steps by node needs no set of
// the keys to find repeats when it is true.
func (c *CompiledAgentOas) StepNodesDistinct() bool { return c != nil && c.nodesDistinct }

// ApprovalPolicy holds the compiled steps in BFS order (step 0, the implicit
// setup step, first when present).
type ApprovalPolicy struct {
	Steps []Step `json:"steps"`
}

// ChildAgent names the child package a step delegates to and how its inputs
// are fed ({{input_params.x}}, {{child_output.x}}, {{<node>_output.x}}).
type ChildAgent struct {
	PackageName  any           `json:"packageName"` // usually a string
	InputMapping OrderedObject `json:"inputMapping"`
}

// ConnectionConfig is an A2AAgent's connection_config (timeout + verify).
type ConnectionConfig struct {
	Timeout float64 `json:"timeout"`
	Verify  bool    `json:"verify"`
}

// Step is one entry of approvalPolicy.steps.
//
// The typed fields are what the rest of oastui reads, and the only place a
// compiled step's values live. Three small unexported fields complete them
// for the JSON: which members are present (a member can be present with a
// zero value, "" or false), the few values the agent wrote with a JSON type
// the typed field cannot hold (a number where a string belongs: the typed
// field stays zero, the JSON carries the value verbatim, as the reference
// emits it), and which kind of step it is, which fixes the order of the
// JSON keys (see stepOrders).
type Step struct {
	StepNumber        int         `json:"stepNumber"`
	Name              string      `json:"name,omitempty"`
	Description       string      `json:"description,omitempty"`
	RequiresApproval  bool        `json:"requiresApproval"`
	HitlOwnedBy       string      `json:"hitlOwnedBy,omitempty"`
	RiskClass         string      `json:"riskClass,omitempty"`
	SkipLlm           bool        `json:"skipLlm,omitempty"`
	NodeType          string      `json:"nodeType,omitempty"` // "agent", "input_message"; "" for step 0
	XRenderer         string      `json:"xRenderer,omitempty"`
	ChildAgent        *ChildAgent `json:"childAgent,omitempty"`
	InputMessageField string      `json:"inputMessageField,omitempty"`
	// InputMessageSchema is the gate's schema as written (an Object, usually).
	InputMessageSchema any               `json:"inputMessageSchema,omitempty"`
	GateCount          *int              `json:"gateCount,omitempty"`
	FiresRendererGate  *bool             `json:"firesRendererGate,omitempty"`
	A2uiSurfaceID      string            `json:"a2uiSurfaceId,omitempty"`
	ConnectionConfig   *ConnectionConfig `json:"connectionConfig,omitempty"`
	// ArtifactReviewTargetsInput marks an artifact-review InputMessageNode gate.
	ArtifactReviewTargetsInput string `json:"artifactReviewTargetsInput,omitempty"`

	// NodeID is the $referenced_components key of the node the step comes
	// from (the StartNode for step 0). Not part of the JSON.
	NodeID string `json:"-"`
	// GateIndex is the index into the FlowNode's metadata.cinatra.gateSteps
	// the step was expanded from, or -1. Not part of the JSON.
	GateIndex int `json:"-"`

	shape   stepShape   // which compiler pass built the step; stepHandBuilt for a Step made elsewhere
	has     memberSet   // the members present in the JSON
	late    memberSet   // members a later pass added after the shape's own (see stepOrders)
	written []rawMember // members whose authored JSON type the typed field cannot hold
}

// stepMember is one member of a step's JSON.
type stepMember uint8

const (
	mStepNumber stepMember = iota
	mNodeType
	mName
	mDescription
	mRequiresApproval
	mRiskClass
	mHitlOwnedBy
	mSkipLlm
	mXRenderer
	mChildAgent
	mInputMessageField
	mInputMessageSchema
	mGateCount
	mFiresRendererGate
	mA2uiSurfaceID
	mConnectionConfig
	mArtifactReviewTargetsInput

	// lateMember marks, in stepOrders, the place of a member that a later
	// pass added to a step that did not have it.
	lateMember stepMember = 0x80
)

var stepKeys = [...]string{
	mStepNumber:                 "stepNumber",
	mNodeType:                   "nodeType",
	mName:                       "name",
	mDescription:                "description",
	mRequiresApproval:           "requiresApproval",
	mRiskClass:                  "riskClass",
	mHitlOwnedBy:                "hitlOwnedBy",
	mSkipLlm:                    "skipLlm",
	mXRenderer:                  "xRenderer",
	mChildAgent:                 "childAgent",
	mInputMessageField:          "inputMessageField",
	mInputMessageSchema:         "inputMessageSchema",
	mGateCount:                  "gateCount",
	mFiresRendererGate:          "firesRendererGate",
	mA2uiSurfaceID:              "a2uiSurfaceId",
	mConnectionConfig:           "connectionConfig",
	mArtifactReviewTargetsInput: "artifactReviewTargetsInput",
}

// memberSet is a set of stepMembers.
type memberSet uint32

func (s memberSet) has(m stepMember) bool { return s&(1<<m) != 0 }

// rawMember is a member's value as the agent wrote it.
type rawMember struct {
	m stepMember
	v any
}

// stepShape is the pass of the reference compiler that built a step; each
// writes its step's members in its own order.
type stepShape uint8

const (
	stepHandBuilt    stepShape = iota // not built by Compile: the struct's order
	stepSetup                         // step 0 (cinatra.md §11.5)
	stepInputMessage                  // an InputMessageNode
	stepAgent                         // an AgentNode
	stepFlowNode                      // a FlowNode without gateSteps
	stepFlowGate                      // one gateStep of a FlowNode
)

// stepOrders is the order in which the reference's object literal and
// assignments create each shape's members (JSON.stringify keeps creation
// order). A member a pass sets again keeps its first place; a member set to
// undefined is not written. The FlowNode's renderer look-up in the child
// agent adds xRenderer and riskClass at the end when the merge left them
// out (lateMember); when the merge set xRenderer to a falsy value, the
// look-up replaces it in its first place.
var stepOrders = [...][]stepMember{
	stepSetup: {mStepNumber, mName, mDescription, mRequiresApproval, mRiskClass, mHitlOwnedBy, mSkipLlm},
	stepInputMessage: {mNodeType, mStepNumber, mRequiresApproval, mRiskClass, mHitlOwnedBy, mSkipLlm,
		mName, mDescription, mXRenderer, mInputMessageField, mInputMessageSchema, mArtifactReviewTargetsInput},
	stepAgent: {mNodeType, mStepNumber, mRequiresApproval, mDescription, mName,
		mRiskClass, mXRenderer, mA2uiSurfaceID, mHitlOwnedBy, mChildAgent, mConnectionConfig},
	stepFlowNode: {mNodeType, mStepNumber, mRequiresApproval, mDescription, mName, mChildAgent,
		mRiskClass, mXRenderer, mA2uiSurfaceID, mHitlOwnedBy, mXRenderer | lateMember, mRiskClass | lateMember},
	stepFlowGate: {mNodeType, mStepNumber, mRequiresApproval, mDescription, mName, mChildAgent,
		mRiskClass, mXRenderer, mHitlOwnedBy, mGateCount, mA2uiSurfaceID, mFiresRendererGate},
}

// str is the typed field of a string member, or nil. (str, flag and get
// are switches, not a table of funcs: a call through a func value makes
// every Step escape to the heap.)
func (s *Step) str(m stepMember) *string {
	switch m {
	case mNodeType:
		return &s.NodeType
	case mName:
		return &s.Name
	case mDescription:
		return &s.Description
	case mRiskClass:
		return &s.RiskClass
	case mHitlOwnedBy:
		return &s.HitlOwnedBy
	case mXRenderer:
		return &s.XRenderer
	case mInputMessageField:
		return &s.InputMessageField
	case mA2uiSurfaceID:
		return &s.A2uiSurfaceID
	case mArtifactReviewTargetsInput:
		return &s.ArtifactReviewTargetsInput
	}
	return nil
}

// flag is the typed field of a boolean member, or nil.
func (s *Step) flag(m stepMember) *bool {
	switch m {
	case mRequiresApproval:
		return &s.RequiresApproval
	case mSkipLlm:
		return &s.SkipLlm
	}
	return nil
}

// get is the member's JSON value (nil when absent).
func (s *Step) get(m stepMember) any {
	if !s.has.has(m) {
		return nil
	}
	for _, w := range s.written {
		if w.m == m {
			return w.v
		}
	}
	if p := s.str(m); p != nil {
		return *p
	}
	if p := s.flag(m); p != nil {
		return *p
	}
	switch m {
	case mStepNumber:
		return s.StepNumber
	case mChildAgent:
		return s.ChildAgent
	case mInputMessageSchema:
		return s.InputMessageSchema
	case mGateCount:
		if s.GateCount != nil {
			return *s.GateCount
		}
	case mFiresRendererGate:
		if s.FiresRendererGate != nil {
			return *s.FiresRendererGate
		}
	case mConnectionConfig:
		return s.ConnectionConfig
	}
	return nil
}

// MarshalJSON writes the step's members in the reference's order
// (stepOrders), values as the reference emits them.
func (s Step) MarshalJSON() ([]byte, error) {
	if s.shape == stepHandBuilt {
		type plain Step
		return marshalNoEscape(plain(s))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for _, e := range stepOrders[s.shape] {
		m := e &^ lateMember
		// a member a later pass added is written at its late place only
		if !s.has.has(m) || s.late.has(m) != (e&lateMember != 0) {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(stepKeys[m])
		b.WriteString(`":`)
		if err := enc.Encode(s.get(m)); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// LlmConfig is the first Agent's llm_config (model id and API type).
type LlmConfig struct {
	ModelID string `json:"modelId"`
	APIType string `json:"apiType,omitempty"`
}

// Toolbox is one MCP toolbox of the first Agent that has any.
type Toolbox struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// GatedStep is a step whose riskClass names an irreversible side effect
// (…_send, …_publish, …_post, …_delete).
type GatedStep struct {
	StepID           any    `json:"stepId"`
	StepNumber       int    `json:"stepNumber"`
	AgentPath        []any  `json:"agentPath"`
	Label            any    `json:"label"`
	ToolName         any    `json:"toolName"`
	InferredOrManual string `json:"inferredOrManual"`
}

// CinatraConfig is the sibling cinatra.json, reduced to the keys the
// reference keeps.
type CinatraConfig struct {
	Limits              *CinatraLimits   `json:"limits,omitempty"`
	RequiredConnections []any            `json:"requiredConnections,omitempty"`
	Defaults            *CinatraDefaults `json:"defaults,omitempty"`
}

// CinatraLimits is cinatra.json limits.
type CinatraLimits struct {
	MaxRecipients float64 `json:"maxRecipients"`
}

// CinatraDefaults is cinatra.json defaults.
type CinatraDefaults struct {
	SenderName *string `json:"senderName"`
}

// ObjField is one member of an OrderedObject.
type ObjField struct {
	Key   string
	Value any
}

// OrderedObject is a JSON object that keeps its members in insertion order when
// marshalled (JavaScript object semantics: setting an existing key replaces
// its value in place).
type OrderedObject []ObjField

// undef marks a member that exists with the value undefined: it keeps its
// place but is not emitted, like JSON.stringify does.
type undefType struct{}

var undef = undefType{}

// Get returns the value of key, or nil.
func (o OrderedObject) Get(key string) any {
	for _, f := range o {
		if f.Key == key {
			if _, u := f.Value.(undefType); u {
				return nil
			}
			return f.Value
		}
	}
	return nil
}

// Has reports whether key is present with a value other than undefined.
func (o OrderedObject) Has(key string) bool {
	for _, f := range o {
		if f.Key == key {
			_, u := f.Value.(undefType)
			return !u
		}
	}
	return false
}

// Set replaces the value of key in place, or appends it.
func (o *OrderedObject) Set(key string, v any) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, ObjField{key, v})
}

// MarshalJSON writes the members in JavaScript's property order
// (JSON.stringify): integer-like keys first in ascending order, then the
// others in insertion order; undefined members are skipped.
func (o OrderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	emit := func(f ObjField) error {
		if _, u := f.Value.(undefType); u {
			return nil
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := marshalNoEscape(f.Key)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalNoEscape(f.Value)
		if err != nil {
			return err
		}
		b.Write(v)
		return nil
	}
	var ints []ObjField
	for _, f := range o {
		if _, ok := arrayIndexKey(f.Key); ok {
			ints = append(ints, f)
		}
	}
	if len(ints) > 0 {
		sort.SliceStable(ints, func(i, j int) bool {
			a, _ := arrayIndexKey(ints[i].Key)
			c, _ := arrayIndexKey(ints[j].Key)
			return a < c
		})
		for _, f := range ints {
			if err := emit(f); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range o {
		if _, ok := arrayIndexKey(f.Key); ok {
			continue
		}
		if err := emit(f); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalNoEscape is json.Marshal without HTML escaping (JSON.stringify
// does not escape <, > and &).
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// rawNode marshals a parsed JSON value as it was written (numbers keep their
// source text).
type rawNode struct{ n *Node }

func (r rawNode) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := writeNode(&b, r.n); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeNode(b *bytes.Buffer, n *Node) error {
	if n == nil {
		b.WriteString("null")
		return nil
	}
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case Number:
		if f, err := strconv.ParseFloat(n.Text, 64); err == nil {
			nb, err := json.Marshal(f)
			if err != nil {
				b.WriteString("null") // ±Inf: JSON.stringify writes null
			} else {
				b.Write(nb)
			}
		} else {
			b.WriteString("null")
		}
	case String:
		s, _ := marshalNoEscape(n.Text)
		b.Write(s)
	case Object:
		// JSON.parse keeps the last duplicate at the first one's place;
		// JSON.stringify puts integer-like keys first.
		b.WriteByte('{')
		for i, e := range entries(n) {
			if i > 0 {
				b.WriteByte(',')
			}
			ks, _ := marshalNoEscape(e.Key)
			b.Write(ks)
			b.WriteByte(':')
			if err := writeNode(b, e.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeNode(b, it); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	}
	return nil
}

// jsonValue turns a node into a value for the compiled output: nil (the
// JavaScript undefined) stays nil, everything else marshals as written.
func jsonValue(n *Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Null:
		return nil
	case String:
		return n.Text
	case Bool:
		return n.Bool
	}
	return rawNode{n}
}

// Result is the reference's CompileOasResult: {"ok":true,"value":…} or
// {"ok":false,"error":"…"}.
type Result struct {
	OK    bool              `json:"ok"`
	Value *CompiledAgentOas `json:"value,omitempty"`
	Error *string           `json:"error,omitempty"`
}

// NewResult wraps what Compile returned.
func NewResult(out *CompiledAgentOas, err error) Result {
	if err != nil {
		msg := err.Error()
		return Result{Error: &msg}
	}
	return Result{OK: true, Value: out}
}

// IndentJSON renders v as oastui prints JSON (compiled output, the diff's
// JSON format): keys in the reference's order, 2-space indent, no HTML
// escaping (as JSON.stringify), trailing newline: the encoder's
// SetIndent("", "  ") output, made by encoding compact and indenting in
// one pass of indentJSON's (the encoder's indent steps its scanner per
// byte; the 33,000-node diff's JSON spent 30 M instructions there).
func IndentJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return indentJSON(make([]byte, 0, 2*b.Len()), b.Bytes()), nil
}

// indentJSON appends to dst the JSON src, which encoding/json wrote
// compact (no space outside strings), indented as its Encoder's
// SetIndent("", "  ") indents it: a newline and two spaces a level after
// an opening bracket and a comma, ": " after a key, an empty object or
// array kept as {} or [], strings copied as they are.
func indentJSON(dst, src []byte) []byte {
	depth := 0
	open := false // an opening bracket's newline is owed (none if it closes at once)
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(src)-1)
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
