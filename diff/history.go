package diff

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/oastui/oastui/present"

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
	var newRev *compile.GitRev
	if !e.WorkingTree() {
		if newRev, err = OpenRev(abs, e.Hash); err != nil {
			return nil, err
		}
		defer newRev.Close()
	}
	var oldRev *compile.GitRev
	if e.Parent != "" {
		if oldRev, err = OpenRev(abs, e.Parent); err != nil {
			return nil, err
		}
		defer oldRev.Close()
	}
	label := e.Hash
	if e.WorkingTree() {
		label = "working tree"
	}
	return Run(Request{OldPath: abs, Old: oldRev, OldNone: e.Parent == "", New: newRev, OldLabel: e.Parent, NewLabel: label, Config: cfg,
		MaxChanges: DefaultMaxChanges})
}
