package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/tui/watch"
)

// WatchConfig is the watcher's configuration for what an analysis read
// (analysis.WatchSet): exactly those files, their directories, and the
// package directories whose new files the sibling scan would read.
func WatchConfig(ws analysis.WatchSet) watch.Config {
	return watch.Config{Files: ws.Files, Dirs: ws.Dirs, Trees: ws.Trees}
}

// RunConfig is what `oastui [PATH]` passes to Run.
type RunConfig struct {
	Path        string
	DisplayPath string
	Options     Options
	Project     string // --project: the context picker's starting project
	Catalog     string // --catalog: the context picker's artifact catalog
	Audit       string // --audit: the audit database the picker records to
	FromList    bool   // opened from the agents/ list (RunTree): esc/⌫ goes back
	// Agent is Path already loaded by the caller (it checked that Path is an
	// agent); nil makes Run load it.
	Agent *compile.Agent

	// The workspace's findings of the agent, and their updates (Config.Outside,
	// Config.OutsideUpdates): set by RunTree.
	outside        []compile.Finding
	outsideUpdates <-chan []compile.Finding
}

// Run opens the TUI on an agent that loads (the caller checked that) and
// returns when the user quits.
func Run(rc RunConfig) error {
	_, err := run(rc)
	return err
}

// run is Run, and says whether the user went back to the agents/ list.
func run(rc RunConfig) (back bool, err error) {
	a := rc.Agent
	if a == nil {
		var err error
		if a, err = compile.Load(rc.Path, rc.Options.Load); err != nil {
			return false, err
		}
	}
	tr, err := TracerFromEnv()
	if err != nil {
		return false, err
	}
	defer tr.Close()
	opts := rc.Options
	opts.Agent = a // the first analysis analyses the agent loaded here; later ones reload
	cfg := Config{Path: rc.Path, DisplayPath: rc.DisplayPath, Options: opts, Tracer: tr, Project: rc.Project,
		Catalog: rc.Catalog, Audit: rc.Audit, FromList: rc.FromList, Outside: rc.outside, OutsideUpdates: rc.outsideUpdates}
	// Until the first analysis says what it read, watch what loading read.
	wcfg := WatchConfig(analysis.WatchSetOf(a, analysis.ConfigPathOf(a, rc.Options.ConfigPath)))
	w, werr := watch.New(wcfg)
	if werr == nil {
		defer w.Close()
		cfg.Batches, cfg.WatchErrors, cfg.Rewatch = w.Batches(), w.Errors(), w.Update
	}
	m := New(cfg)
	if werr != nil {
		m.note = "not watching: " + werr.Error()
	}
	p := tea.NewProgram(m, tea.WithFPS(120))
	_, err = p.Run()
	return m.Back(), err
}

// RunTree opens the workspace screen on the agents/ tree at root (paths
// are its packages): the live table and call graph of every agent. Enter
// opens an agent in the agent view (rc without Path), whose findings
// include the agent's workspace findings, kept current; esc/⌫ there comes
// back to the table with the same agent selected. One recursive watcher
// over the tree runs the whole time, so saves made in the agent view are
// re-reviewed in the table too. It returns when the user quits.
func RunTree(root string, paths []string, rc RunConfig) error {
	m := newWorkspace(root, paths, rc.Options)
	var files []string
	if p := treeConfigPath(root, rc.Options.ConfigPath); p != "" {
		files = append(files, p)
	}
	if tw, err := watch.NewTree(watch.TreeConfig{Root: root, Files: files}); err == nil {
		defer tw.Close()
		m.watchTree(tw.Batches(), tw.Errors())
	} else {
		m.note = "not watching: " + err.Error()
	}
	for {
		if _, err := tea.NewProgram(m).Run(); err != nil {
			return err
		}
		if m.picked == "" {
			return nil
		}
		rc.Path, rc.Agent, rc.FromList = m.picked, nil, true
		// While the agent view runs, the workspace stays live (follow) and
		// hands the view the agent's workspace findings as they change.
		updates, stop, done := make(chan []compile.Finding), make(chan struct{}), make(chan struct{})
		rc.outside, rc.outsideUpdates = m.findingsOf(m.picked), updates
		go func(dir string, last []compile.Finding) { defer close(done); m.follow(dir, last, updates, stop) }(m.picked, rc.outside)
		back, err := run(rc)
		close(stop)
		<-done
		if err != nil {
			m.note = "cannot open " + m.picked + ": " + err.Error()
			continue
		}
		if !back {
			return nil
		}
	}
}

// treeConfigPath is the .oastui.yaml in force for the tree (--config, else
// found upward from root), "" for none: the watcher watches it even when it
// lies above the tree.
func treeConfigPath(root, explicit string) string {
	if explicit != "" {
		return explicit
	}
	return analysis.ResolveConfig("", root).Path
}
