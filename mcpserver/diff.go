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
	// MaxChanges caps the changes listed (nil: diff.DefaultMaxChanges).
	MaxChanges *int `json:"maxChanges,omitempty" jsonschema:"list at most this many changes, the most severe first (default 1000; the rest are counted in truncated and the summary); 0 lists them all"`
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
	maxChanges := diff.DefaultMaxChanges
	if in.MaxChanges != nil {
		if *in.MaxChanges < 0 {
			return nil, "", errors.New("maxChanges must be 0 (all) or more")
		}
		maxChanges = *in.MaxChanges
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
	// Confined as every tool is (Server.confine): the registry and the
	// roots' Allow; the callers only in a tree the roots hold.
	r, err := diff.Run(diff.Request{OldPath: p, Old: oldRev, New: newRev, OldLabel: in.Old, NewLabel: newLabel, Config: &cfg,
		Load: s.confine(c), TreeOK: c.roots.Contains, MaxChanges: maxChanges})
	if rerr := c.refusal(); rerr != nil { // a file the agent reads resolves outside the roots
		return nil, "", rerr
	}
	if err != nil {
		return nil, "", err
	}
	return r, "", nil
}

// dirOf is p when it is a directory (at either revision), else its parent.
func dirOf(p string) string {
	if compile.IsAgentDir(p) {
		return p
	}
	return filepath.Dir(p)
}
