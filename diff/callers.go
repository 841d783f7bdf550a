package diff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/oastui/oastui/present"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/workspace"
)

// CallerAgent is an agent of the tree that calls the diffed agent: what
// it binds of its inputs and reads of its outputs.
type CallerAgent struct {
	Package string
	Dir     string
	Via     string   // the node or package.json declaration naming it
	Range   string   // its dependency range ("" when it declares none)
	Inputs  []string // inputs it binds (its input mapping)
	Outputs []string // outputs it reads (data edges from the calling node, {{child_output.x}})
}

// CallerIndex is who calls whom in an agents/ tree, built once for all
// the agents a diff compares: each package analysed once, when a question
// first needs it (loaded, reviewed and compiled by analysis.Run), its calls
// read from the snapshot (compile.Agent.ChildCalls, the platform's rule of
// which node runs which child: compile.CalledPackage) and its declared
// dependencies. The agent asked about is not analysed for its own
// question (a one-agent diff never reads the agent a third time). Not safe
// for concurrent use.
type CallerIndex struct {
	names  []string // the tree's packages, sorted
	pkgs   *compile.PackageIndex
	rev    *compile.GitRev
	agents map[string]*treeAgent // analysed so far (nil: no agent there)
}

type treeAgent struct {
	name string
	s    *analysis.Snapshot
}

// NewCallerIndex reads the packages of the tree at root (an agents/
// directory, compile.TreeRoot) from rev (nil: the disk).
func NewCallerIndex(root string, rev *compile.GitRev) *CallerIndex {
	ix := &CallerIndex{rev: rev, agents: map[string]*treeAgent{}}
	if root == "" {
		return ix
	}
	ix.pkgs = compile.ScanPackagesRev(root, rev)
	ix.names = sortedKeys(ix.pkgs.ByName)
	return ix
}

// agent is the tree's package name, analysed on first use (nil when it
// holds no flow).
func (ix *CallerIndex) agent(name string) *treeAgent {
	if ta, done := ix.agents[name]; done {
		return ta
	}
	var ta *treeAgent
	s := analysis.Run(ix.pkgs.ByName[name], analysis.Options{Load: compile.LoadOptions{NoSiblings: true, Rev: ix.rev, Packages: ix.pkgs},
		Stages: analysis.StageCompile, Config: &analysis.ConfigResult{}})
	if s.Agent != nil && s.Agent.Flow != nil {
		ta = &treeAgent{name: name, s: s}
	}
	ix.agents[name] = ta
	return ta
}

// DependencyRange is the one reading of a declared dependency's range: the
// legacy map's value, versionConstraint's range or string, or an exact
// versionConstraint {"kind": "exact", "version": V} as "=V".
func DependencyRange(pkg *compile.Doc, d compile.Dependency) string {
	if d.Version != "" || d.Form != "dependencies" || pkg == nil {
		return d.Version
	}
	vc := pkg.Lookup(compile.Append(d.Pointer, "versionConstraint"))
	if ver := vc.Get("version").StringOr(""); ver != "" {
		return "=" + ver
	}
	return ""
}

// Of lists the agents of the tree that call or declare the package pkg:
// what they bind of its inputs and read of its outputs.
func (ix *CallerIndex) Of(pkg string) []CallerAgent {
	if ix == nil || pkg == "" {
		return nil
	}
	var out []CallerAgent
	for _, name := range ix.names {
		if name == pkg {
			continue
		}
		ta := ix.agent(name)
		if ta == nil {
			continue
		}
		a := ta.s.Agent
		c := CallerAgent{Package: ta.name, Dir: a.Dir}
		found := false
		for _, dep := range a.Dependencies() {
			if dep.PackageName == pkg {
				found = true
				if r := DependencyRange(a.Package, dep); r != "" {
					c.Range = r
				}
				c.Via = "package.json " + dep.Form
			}
		}
		callNodes := map[string]bool{}
		for _, cc := range a.ChildCalls() {
			if cc.Package != pkg {
				continue
			}
			callNodes[cc.ID] = true
			found = true
			if c.Via == "" || strings.HasPrefix(c.Via, "package.json") {
				c.Via = fmt.Sprintf("%s %q", cc.Type, cc.ID)
			}
		}
		if !found {
			continue
		}
		in, outs := map[string]bool{}, map[string]bool{}
		if comp := ta.s.Compiled; comp != nil {
			for _, st := range comp.ApprovalPolicy.Steps {
				if st.ChildAgent == nil {
					continue
				}
				if p, _ := st.ChildAgent.PackageName.(string); p != pkg {
					for _, f := range st.ChildAgent.InputMapping {
						collectChildOutputs(fmt.Sprint(f.Value), outs)
					}
					continue
				}
				for _, f := range st.ChildAgent.InputMapping {
					in[f.Key] = true
				}
			}
		}
		if len(callNodes) > 0 && ta.s.Parsed() {
			for _, f := range a.Flows() {
				g, err := ta.s.Flow(f.Pointer).Model()
				if err != nil {
					continue
				}
				for _, e := range g.Data {
					if callNodes[e.From] && e.Output != "" {
						outs[e.Output] = true
					}
					if callNodes[e.To] && e.Input != "" {
						in[e.Input] = true
					}
				}
			}
		}
		c.Inputs, c.Outputs = sortedKeys(in), sortedKeys(outs)
		out = append(out, c)
	}
	return out
}

// collectChildOutputs adds the x of every {{child_output.x}} in s.
func collectChildOutputs(s string, into map[string]bool) {
	for {
		i := strings.Index(s, "child_output.")
		if i < 0 {
			return
		}
		s = s[i+len("child_output."):]
		j := 0
		for j < len(s) && (s[j] == '_' || s[j] == '-' || s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
			j++
		}
		if j > 0 {
			into[s[:j]] = true
		}
	}
}

// callers lists, on each breaking contract or approval change, the
// callers of the tree; a breaking contract change about a port no caller
// uses is demoted to warn, with the reason. Approval safety is never
// demoted: it protects the people the agent acts for, not its callers.
func (d *differ) callers(opts Options) {
	newVersion, _ := workspace.ParseVersion(d.new.pkg.version)
	for i := range d.out {
		c := &d.out[i]
		chk := byID[c.Check]
		if c.Level != Breaking || !(chk.Contract || chk.Safety) {
			continue
		}
		affected := 0
		for _, ca := range opts.Callers {
			cl := Caller{Package: present.Text(ca.Package), Dir: ca.Dir, Via: present.Text(ca.Via), Range: present.Text(ca.Range)}
			if r, ok := workspace.ParseRange(ca.Range); ok && ca.Range != "" {
				cl.Accepts = r.Allows(newVersion)
			}
			hit := true
			if c.Port != "" {
				list := ca.Inputs
				if strings.HasPrefix(c.Check, "diff_output") {
					list = ca.Outputs
				}
				cl.Binds = contains(list, c.Port)
				hit = cl.Binds || c.Check == "diff_input_added_required" || c.Check == "diff_input_made_required"
			}
			if hit {
				affected++
			}
			c.Callers = append(c.Callers, cl)
		}
		if !opts.Tree || chk.Safety || c.Port == "" || affected > 0 {
			continue
		}
		c.Level = Warn
		if len(opts.Callers) == 0 {
			c.Reason = "no agent of the tree calls it"
		} else {
			c.Reason = fmt.Sprintf("no caller in the tree uses %s (%d caller(s) checked)", c.Port, len(opts.Callers))
		}
	}
}

func contains(l []string, s string) bool {
	i := sort.SearchStrings(l, s)
	return i < len(l) && l[i] == s
}
