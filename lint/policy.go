package lint

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	celref "cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/ext"

	"github.com/oastui/oastui/compile"
)

// Team policies (issue 38, docs/policies.md): `policies:` in .oastui.yaml,
// each a CEL expression (google/cel-go: linear-time evaluation, typed
// checking with positioned errors, cost budgets; the expression + message
// shape of Kubernetes' ValidatingAdmissionPolicy) over the agent's flow
// model with its subflows inlined. Compiled once when the config is read
// (one run of `oastui lint` reads it once for every agent).

// Policy is one team policy.
type Policy struct {
	ID       string
	Severity compile.Severity
	Message  string // the finding's message (a plain string)
	Match    string // CEL: which nodes the policy is about ("" = once per flow)
	Assert   string // CEL: what must hold; a finding where it is false
	Doc      string // why, for SARIF and `oastui rules`
	Line     int    // the entry in the config file
	Column   int

	match, assert cel.Program
	costLimit     uint64 // the budget they were compiled with (PolicyCostLimit)
}

// Rule is the policy as a rule: for SARIF's rule metadata and `oastui
// rules`.
func (p *Policy) Rule() Rule {
	doc := p.Message
	if p.Doc != "" {
		doc = p.Message + ". " + p.Doc
	}
	return Rule{Code: p.ID, Severity: p.Severity, Doc: doc, Group: GroupPolicy}
}

// GroupPolicy is the group of the team's policies' findings.
const GroupPolicy = "policy"

var RulePolicyFailed = &Rule{Code: "policy_failed", Severity: compile.Warning, Group: groupReview,
	Doc: "a team policy of .oastui.yaml could not be evaluated on this agent: it exceeded its cost budget or its expression failed at run time (a key the agent lacks, a division by zero); the policy is not applied, so its finding would be missed. Reported at the policy's own severity"}

// PolicyCostLimit is the cost budget of one evaluation of one policy
// expression (cel-go's cost units, about one per element a comprehension
// visits and per field read): far above what a policy over a real flow
// needs (a per-node reachability check over the corpus's largest flow
// costs a few hundred), low enough that it stops a runaway expression
// within about a second even on a loaded machine (CEL has no unbounded
// loop: every step is costed, so the budget bounds the time too). A triple comprehension over a 2,000-node flow (8·10⁹) is
// stopped after its first two million steps.
const PolicyCostLimit = 2_000_000

// The vocabulary. Field names are the CEL names (docs/policies.md).

// PolicyAgent is `agent`.
type PolicyAgent struct {
	Package      string   `cel:"package"`
	Version      string   `cel:"version"`
	Produces     []string `cel:"produces"`     // package.json cinatra.produces[].extension
	Consumes     []string `cel:"consumes"`     // package.json cinatra.consumes[].extension
	Dependencies []string `cel:"dependencies"` // the child agents' package names (agentDependencies keys, dependencies[].packageName)
}

// PolicyFlow is `flow`: the agent's top-level Flow with every subflow a
// node runs inlined, as the platform inlines them (reference §11.6).
type PolicyFlow struct {
	ID      string          `cel:"id"`
	Name    string          `cel:"name"`
	Start   string          `cel:"start"` // the StartNode's id
	Ends    []string        `cel:"ends"`  // the EndNodes' ids (of the top-level Flow)
	Nodes   []*PolicyNode   `cel:"nodes"`
	Edges   []*PolicyEdge   `cel:"edges"`
	Outputs []*PolicyOutput `cel:"outputs"` // the top-level Flow's outputs

	succ map[string][]string
}

// PolicyEdge is one control edge: branch is from_branch ("" for next).
type PolicyEdge struct {
	From   string `cel:"from"`
	To     string `cel:"to"`
	Branch string `cel:"branch"`
}

// PolicyOutput is one output of the flow, with the artifact it binds.
type PolicyOutput struct {
	Name     string `cel:"name"`
	Artifact string `cel:"artifact"` // cinatra.artifact.extension ("" when none)
}

// PolicyNode is `node` and each item of flow.nodes.
type PolicyNode struct {
	ID   string `cel:"id"`
	Name string `cel:"name"`
	Kind string `cel:"kind"` // component_type
	// Gate: the platform stops for a human here: an InputMessageNode
	// (always requiresApproval, reference §11.6), or a step whose compiled
	// requiresApproval is true.
	Gate             bool     `cel:"gate"`
	RequiresApproval bool     `cel:"requiresApproval"` // as the compiler sets it (§11.6–11.7)
	RiskClass        string   `cel:"riskClass"`
	Tool             string   `cel:"tool"`     // data.tool of an ApiNode
	URL              string   `cel:"url"`      // an ApiNode's url
	Method           string   `cel:"method"`   // an ApiNode's http_method
	Model            string   `cel:"model"`    // data.cinatra_llm.preferredModel, an Agent's llm_config model_id
	Provider         string   `cel:"provider"` // data.cinatra_llm.preferredProvider
	Inputs           []string `cel:"inputs"`   // input titles
	Outputs          []string `cel:"outputs"`  // output titles
	Pointer          string   `cel:"pointer"`  // JSON Pointer of the component in the flow file
	Subflow          string   `cel:"subflow"`  // the id of the inlined Flow it belongs to ("" for the top level)

	doc *compile.Doc
}

// policyEnv is the CEL environment of every policy.
func policyEnv() (*cel.Env, error) {
	reachesMacro := func(name string, n int) cel.Macro {
		return cel.GlobalMacro(name, n, func(eh cel.MacroExprFactory, _ ast.Expr, args []ast.Expr) (ast.Expr, *common.Error) {
			return eh.NewMemberCall(name, eh.NewIdent("flow"), args...), nil
		})
	}
	flowType := cel.ObjectType("lint.PolicyFlow")
	return cel.NewEnv(
		ext.NativeTypes(reflect.TypeOf(&PolicyAgent{}), reflect.TypeOf(&PolicyFlow{}), reflect.TypeOf(&PolicyNode{}),
			reflect.TypeOf(&PolicyEdge{}), reflect.TypeOf(&PolicyOutput{}), ext.ParseStructTags(true)),
		ext.Strings(), ext.Lists(), ext.Sets(),
		cel.Variable("agent", cel.ObjectType("lint.PolicyAgent")),
		cel.Variable("flow", flowType),
		cel.Variable("node", cel.ObjectType("lint.PolicyNode")),
		cel.Macros(reachesMacro("reaches", 2), reachesMacro("reachesAvoiding", 3)),
		cel.Function("reaches", cel.MemberOverload("flow_reaches", []*cel.Type{flowType, cel.StringType, cel.StringType}, cel.BoolType,
			cel.FunctionBinding(func(args ...celref.Val) celref.Val {
				f, ok := args[0].Value().(*PolicyFlow)
				from, ok1 := args[1].Value().(string)
				to, ok2 := args[2].Value().(string)
				if !ok || !ok1 || !ok2 {
					return types.NewErr("reaches: bad arguments")
				}
				return types.Bool(f.reaches(from, to, nil))
			}))),
		cel.Function("reachesAvoiding", cel.MemberOverload("flow_reaches_avoiding", []*cel.Type{flowType, cel.StringType, cel.StringType, cel.ListType(cel.StringType)}, cel.BoolType,
			cel.FunctionBinding(func(args ...celref.Val) celref.Val {
				f, ok := args[0].Value().(*PolicyFlow)
				from, ok1 := args[1].Value().(string)
				to, ok2 := args[2].Value().(string)
				if !ok || !ok1 || !ok2 {
					return types.NewErr("reachesAvoiding: bad arguments")
				}
				avoid := map[string]bool{}
				l, err := args[3].ConvertToNative(reflect.TypeOf([]string{}))
				if err != nil {
					return types.NewErr("reachesAvoiding: the ids must be a list of strings: %v", err)
				}
				for _, id := range l.([]string) {
					avoid[id] = true
				}
				return types.Bool(f.reaches(from, to, avoid))
			}))),
	)
}

// reaches: a path of control edges leads from one node to the other (a
// node reaches itself), through no node of avoid (the ends included).
func (f *PolicyFlow) reaches(from, to string, avoid map[string]bool) bool {
	if avoid[from] || avoid[to] {
		return false
	}
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == to {
			return true
		}
		for _, m := range f.succ[n] {
			if !seen[m] && !avoid[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	return false
}

// PolicyError is a policy that does not parse or type-check: the config
// file's position of the error, the policy, and CEL's message with the
// expression's line and a caret under the place.
type PolicyError struct {
	Path         string
	Line, Column int
	ID, Field    string // the policy and its member (match or assert)
	Msg          string
	Snippet      string // the expression's line, then the caret line
}

func (e *PolicyError) Error() string {
	s := fmt.Sprintf("%s:%d:%d: policy %q: %s: %s", e.Path, e.Line, e.Column, e.ID, e.Field, e.Msg)
	if e.Snippet != "" {
		s += "\n" + e.Snippet
	}
	return s
}

// exprPos is where a CEL expression sits in the config file: the line and
// column of its first character, and whether it is a block scalar (its
// lines start at indent).
type exprPos struct {
	line, col int
	block     bool
	indent    int
}

// policyCompiles counts the policy expressions compiled (PolicyCompiles).
var policyCompiles atomic.Uint64

// compileExpr compiles one expression of policy id to a program of bool
// type with the cost budget.
func compileExpr(env *cel.Env, costLimit uint64, path, id, field, src string, pos exprPos) (cel.Program, error) {
	policyCompiles.Add(1)
	a, iss := env.Compile(src)
	if iss == nil || iss.Err() == nil {
		if a.OutputType() != cel.BoolType && a.OutputType() != cel.DynType {
			return nil, &PolicyError{Path: path, Line: pos.line, Column: pos.col, ID: id, Field: field,
				Msg: fmt.Sprintf("the expression is of type %s; it must be a bool", a.OutputType())}
		}
		prg, err := env.Program(a, cel.CostLimit(costLimit), cel.EvalOptions(cel.OptOptimize))
		if err != nil {
			return nil, &PolicyError{Path: path, Line: pos.line, Column: pos.col, ID: id, Field: field, Msg: err.Error()}
		}
		return prg, nil
	}
	e := iss.Errors()[0]
	l, c := e.Location.Line(), e.Location.Column() // 1-based line, 0-based column in the expression
	lines := strings.Split(src, "\n")
	pe := &PolicyError{Path: path, ID: id, Field: field, Msg: e.Message}
	if l >= 1 && l <= len(lines) {
		text := lines[l-1]
		c = min(max(c, 0), utf8.RuneCountInString(text))
		pe.Snippet = " | " + text + "\n | " + strings.Repeat(".", c) + "^"
	}
	if pos.block {
		pe.Line, pe.Column = pos.line+l-1, pos.indent+c+1
	} else {
		pe.Line, pe.Column = pos.line, pos.col+c
	}
	return nil, pe
}

// policyVal is a value CEL gets for a policy's variables.
type policyVars struct {
	agent *PolicyAgent
	flow  *PolicyFlow
}

// checkPolicies evaluates the config's policies over agent a: each
// without match once on the flow (a finding at the flow's id), each with
// match once on every node it matches (a finding at the node).
func checkPolicies(a *compile.Agent, ps []*Policy) []Finding {
	v := policyModel(a)
	if v.flow == nil {
		return nil
	}
	var out []Finding
	vars := map[string]any{"agent": v.agent, "flow": v.flow, "node": &PolicyNode{}}
	for _, p := range ps {
		out = append(out, checkPolicy(a, v, p, vars)...)
	}
	return out
}

// checkPolicy evaluates one policy over the agent's vocabulary v.
func checkPolicy(a *compile.Agent, v policyVars, p *Policy, vars map[string]any) []Finding {
	vars["node"] = &PolicyNode{}
	if p.match == nil {
		switch ok, err := evalBool(p.assert, vars); {
		case err != nil:
			return []Finding{policyFailed(a.Flow, "/id", p, err)}
		case !ok:
			return []Finding{policyFinding(a.Flow, "/id", p)}
		}
		return nil
	}
	var out []Finding
	for _, n := range v.flow.Nodes {
		vars["node"] = n
		m, err := evalBool(p.match, vars)
		if err == nil && m {
			var ok bool
			ok, err = evalBool(p.assert, vars)
			if err == nil && !ok {
				out = append(out, policyFinding(n.doc, n.Pointer, p))
			}
		}
		if err != nil {
			return append(out, policyFailed(n.doc, n.Pointer, p, err)) // one failure a policy: the other nodes would say the same
		}
	}
	return out
}

func policyFinding(d *compile.Doc, ptr string, p *Policy) Finding {
	return d.AtNamed(ptr, p.ID, p.Severity, p.Message, idFirst...)
}

func policyFailed(d *compile.Doc, ptr string, p *Policy, err error) Finding {
	msg := fmt.Sprintf("policy %q could not be evaluated here and was not applied: %v", p.ID, err)
	if strings.Contains(err.Error(), "cost limit exceeded") {
		msg = fmt.Sprintf("policy %q was stopped: it exceeded its cost budget (%d) on this agent and was not applied; make its comprehensions smaller (one match per node instead of nested loops over flow.nodes)", p.ID, p.costLimit)
	}
	return d.AtNamed(ptr, RulePolicyFailed.Code, p.Severity, msg, idFirst...)
}

// evalBool runs a bool program under its cost budget (which, CEL having
// no unbounded loop, bounds its time too).
func evalBool(prg cel.Program, vars map[string]any) (bool, error) {
	out, _, err := prg.Eval(vars)
	if err != nil {
		return false, err
	}
	b, ok := out.Value().(bool)
	if !ok {
		return false, errors.New("the expression did not give a bool")
	}
	return b, nil
}
