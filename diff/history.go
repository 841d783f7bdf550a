package diff

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"path/filepath"
	"time"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Entry is one line of an agent's history: the working tree's changes
// against HEAD (Hash ""), or a commit against its first parent.
type Entry struct {
	Hash    string // "" for the working tree
	Short   string
	Parent  string // "" for a root commit (the agent is new there)
	Author  string // sanitised
	When    time.Time
	Subject string // sanitised
}

// WorkingTree says the entry is the uncommitted state of the files.
func (e Entry) WorkingTree() bool { return e.Hash == "" }

// HistoryLimit is how many commits History lists at most.
const HistoryLimit = 200

// History lists the history of the agent of snapshot s: first the working
// tree (against HEAD), then the commits touching the files its analysis
// read (its watch set: flow, package.json, cinatra.json, registry,
// config…), newest first. An agent outside a git work tree is an error
// wrapping compile.ErrNotGitWorkTree.
func History(s *analysis.Snapshot) ([]Entry, error) {
	if s == nil || s.Agent == nil {
		return nil, fmt.Errorf("no agent loaded")
	}
	dir := s.Agent.Dir
	if dir == "" {
		dir = filepath.Dir(s.FlowFile())
	}
	log, err := compile.GitLog(dir, s.WatchSet().Files, HistoryLimit)
	if err != nil {
		return nil, err
	}
	out := []Entry{{Short: "working tree", Subject: "uncommitted changes", Parent: "HEAD"}}
	if len(log) == 0 {
		out[0].Parent = ""
	}
	for _, c := range log {
		out = append(out, Entry{Hash: c.Hash, Short: c.Short, Parent: c.Parent, Author: present.Text(c.Author), When: c.When, Subject: present.Text(c.Subject)})
	}
	return out, nil
}

// Step is the diff of one history entry: the entry's revision of the agent
// at path (the working tree for the top entry) against its parent's (HEAD
// for the top entry; nothing for a root commit, where the agent is new).
// Both sides are loaded and reviewed as `oastui diff` loads them; cfg is
// the config in force (nil: found upward from the agent).
func Step(path string, e Entry, cfg *analysis.ConfigResult) (*Result, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := abs
	if !compile.IsAgentDirRev(abs, nil) {
		dir = filepath.Dir(abs)
	}
	var newRev *compile.GitRev
	if !e.WorkingTree() {
		if newRev, err = compile.OpenGitRev(dir, e.Hash); err != nil {
			return nil, err
		}
		defer newRev.Close()
	}
	var oldRev *compile.GitRev
	if e.Parent != "" {
		if oldRev, err = compile.OpenGitRev(dir, e.Parent); err != nil {
			return nil, err
		}
		defer oldRev.Close()
	}
	var oldSnap, newSnap *analysis.Snapshot
	if oldRev != nil {
		if oldSnap = Analyze(abs, oldRev, cfg); oldSnap.Agent == nil {
			oldSnap = nil // the agent is new at this commit
		}
	}
	if newSnap = Analyze(abs, newRev, cfg); newSnap.Agent == nil {
		newSnap = nil // the agent is gone at this commit
	}
	var levels, reasons map[string]string
	cfgPath := ""
	if cfg != nil && cfg.Config != nil {
		levels, reasons, cfgPath = cfg.Config.Diff, cfg.Config.DiffReasons, cfg.Path
	} else if newSnap != nil && newSnap.Config.Config != nil {
		levels, reasons, cfgPath = newSnap.Config.Config.Diff, newSnap.Config.Config.DiffReasons, newSnap.Config.Path
	}
	if ValidateLevels(levels) != nil || ValidateReasons(levels, reasons) != nil {
		levels = nil // a safety check lowered without a reason is not lowered
	}
	opts := Options{OldRev: e.Parent, NewRev: e.Hash, Levels: levels}
	opts.BaseLevels, _ = BaseLevels(oldRev, cfgPath)
	if e.WorkingTree() {
		opts.NewRev = "working tree"
	}
	return Diff(oldSnap, newSnap, opts), nil
}
