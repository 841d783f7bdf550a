package mcpserver

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/diff"
)

// ---- agent_diff (issue 29): what changed between two revisions of an
// agent, and whom it breaks, as `oastui diff --format json` names it.

func (s *Server) addDiffTool() {
	addTool(s, "agent_diff", "Review a change to an agent",
		"What changed between two git revisions of an agent (default: HEAD against the working tree), named "+
			"as `oastui diff` names it: each change with its check id, level (breaking, warn, info), fingerprint, "+
			"message, node, old and new positions, prompt word diffs, and the callers in the tree it breaks.", true, s.diff)
}

// DiffInput is agent_diff's input.
type DiffInput struct {
	Path string `json:"path" jsonschema:"the agent: a package directory (agents/<vendor>/<slug>) or a flow file, relative to the first workspace root or absolute inside a root"`
	Old  string `json:"old,omitempty" jsonschema:"the old git revision (default HEAD)"`
	New  string `json:"new,omitempty" jsonschema:"the new git revision (default: the working tree)"`
}

func (s *Server) diff(_ context.Context, c *call, in DiffInput) (*diff.Result, string, error) {
	if in.Path == "" {
		return nil, "", errors.New("path is required")
	}
	p, err := c.roots.Resolve(in.Path)
	if err != nil {
		return nil, "", err
	}
	if in.Old == "" {
		in.Old = "HEAD"
	}
	oldRev, err := compile.OpenGitRev(dirOf(p), in.Old)
	if err != nil {
		return nil, "", err
	}
	defer oldRev.Close()
	var newRev *compile.GitRev
	newLabel := "working tree"
	if in.New != "" {
		if newRev, err = compile.OpenGitRev(dirOf(p), in.New); err != nil {
			return nil, "", err
		}
		defer newRev.Close()
		newLabel = in.New
	}
	cfg := analysis.ResolveConfig("", p)
	if err := c.confineConfig(cfg.Path); err != nil {
		return nil, "", err
	}
	if cfg.Err != nil {
		return nil, "", cfg.Err
	}
	var levels map[string]string
	if cfg.Config != nil {
		levels = cfg.Config.Diff
	}
	if err := diff.ValidateLevels(levels); err != nil {
		return nil, "", err
	}
	var reasons map[string]string
	if cfg.Config != nil {
		reasons = cfg.Config.DiffReasons
	}
	if err := diff.ValidateReasons(levels, reasons); err != nil {
		return nil, "", err
	}
	baseLevels, _ := diff.BaseLevels(oldRev, cfg.Path)
	lo := s.confine(c)
	o, n := diff.AnalyzeLoad(p, lo, oldRev, &cfg), diff.AnalyzeLoad(p, lo, newRev, &cfg)
	if err := c.refusal(); err != nil {
		return nil, "", err
	}
	for _, sn := range []*analysis.Snapshot{o, n} {
		if sn.LoadErr != nil {
			return nil, "", sn.LoadErr
		}
	}
	opts := diff.Options{OldRev: in.Old, NewRev: newLabel, Levels: levels, BaseLevels: baseLevels}
	// The callers are searched in the agent's tree only when the roots hold
	// it (a one-agent root lists none rather than read above it).
	if root := n.Agent.TreeRoot; root != "" && c.roots.Contains(root) {
		opts.Tree = true
		opts.Callers = diff.FindCallers(root, n.Agent.PackageName(), newRev)
	}
	return diff.Diff(o, n, opts), "", nil
}

// dirOf is p when it is a directory (at either revision), else its parent.
func dirOf(p string) string {
	if compile.IsAgentDir(p) {
		return p
	}
	return filepath.Dir(p)
}
