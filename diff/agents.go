package diff

import (
	"fmt"

	"github.com/oastui/oastui/present"

	"github.com/oastui/oastui/analysis"
)

// hasAgent says the snapshot holds an agent.
func hasAgent(s *analysis.Snapshot) bool { return s != nil && s.Agent != nil }

// presence: an agent on one side only (a tree diff where a package was
// added or removed, the first commit of an agent) is one change, and
// nothing else is compared. A removed agent is breaking when an agent of
// the tree still calls it (opts.Callers), else warn: whatever called it
// from outside the tree cannot be known from the files. It reports
// whether it found such a change.
func (d *differ) presence(old, new *analysis.Snapshot, opts Options) bool {
	switch {
	case hasAgent(old) == hasAgent(new):
		return false
	case hasAgent(old) && opts.NewErr != nil: // the files are there and do not load
		d.healthOf("", opts.NewErr.Error())
		return true
	case hasAgent(new) && opts.OldErr != nil:
		d.healthOf(opts.OldErr.Error(), "")
		return true
	case hasAgent(new):
		name, pkg := new.AgentName(), new.Agent.PackageName()
		d.add(CheckAgentAdded, agentSubject(new), "", "", pkg+versionSuffix(new),
			fmt.Sprintf("agent %s added", agentLabel(name, pkg)), nil, pos(new.Agent.Flow, ""))
		return true
	}
	name, pkg := old.AgentName(), old.Agent.PackageName()
	c := d.add(CheckAgentRemoved, agentSubject(old), "", pkg+versionSuffix(old), "",
		fmt.Sprintf("agent %s removed", agentLabel(name, pkg)), pos(old.Agent.Flow, ""), nil)
	for _, ca := range opts.Callers {
		c.Callers = append(c.Callers, Caller{Package: present.Text(ca.Package), Dir: ca.Dir, Via: present.Text(ca.Via), Range: present.Text(ca.Range)})
	}
	if len(opts.Callers) == 0 {
		c.Level = Warn
		if opts.Tree {
			c.Reason = "no agent of the tree calls it"
		} else {
			c.Reason = "no tree was searched for callers"
		}
	}
	return true
}

// agentSubject names an agent across revisions: its package, else its
// directory.
func agentSubject(s *analysis.Snapshot) string {
	if p := s.Agent.PackageName(); p != "" {
		return p
	}
	return s.Agent.Dir
}

func agentLabel(name, pkg string) string {
	switch {
	case pkg == "":
		return quote(name)
	case name == "":
		return pkg
	}
	return fmt.Sprintf("%q (%s)", name, pkg)
}

func versionSuffix(s *analysis.Snapshot) string {
	if v := s.PackageVersion(); v != "" {
		return "@" + v
	}
	return ""
}
