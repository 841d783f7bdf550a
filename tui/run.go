package tui

import (
	"errors"

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
	// Agent is Path already loaded by the caller, the entry that checked
	// that Path is an agent: the first analysis analyses it.
	Agent *compile.Agent
}

// Run opens the TUI on the agent the caller loaded (RunConfig.Agent) and
// returns when the user quits.
func Run(rc RunConfig) error {
	a := rc.Agent
	if a == nil {
		return errors.New("tui.Run: no agent (the entry loads PATH and hands it in)")
	}
	tr, err := TracerFromEnv()
	if err != nil {
		return err
	}
	defer tr.Close()
	opts := rc.Options
	opts.Agent = a // the first analysis analyses the agent loaded here; later ones reload
	cfg := Config{Path: rc.Path, DisplayPath: rc.DisplayPath, Options: opts, Tracer: tr, Project: rc.Project,
		Catalog: rc.Catalog, Audit: rc.Audit}
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
	_, err = tea.NewProgram(m, tea.WithFPS(120)).Run()
	return err
}

// RunTree opens the workspace screen on the agents/ tree at root (paths
// are its packages): the live table and call graph of every agent. Enter
// opens an agent in the agent view, a second screen of the same program,
// whose findings include the agent's workspace findings, kept current;
// esc/⌫ there comes back to the table with the same agent selected. One
// recursive watcher over the tree runs the whole time, so saves made in
// the agent view are re-reviewed in the table too. It returns when the
// user quits, once every goroutine it started has stopped.
func RunTree(root string, paths []string, rc RunConfig) error {
	tr, err := TracerFromEnv()
	if err != nil {
		return err
	}
	defer tr.Close()
	a, stop := startTree(root, paths, rc, tr)
	defer stop()
	_, err = tea.NewProgram(a, tea.WithFPS(120)).Run()
	return err
}

// startTree builds the root model on the tree with its watcher; stop ends
// them (the screens' goroutines, then the watcher).
func startTree(root string, paths []string, rc RunConfig, tr *Tracer) (a *app, stop func()) {
	m := newWorkspace(root, paths, rc.Options)
	var files []string
	if p := treeConfigPath(root, rc.Options.ConfigPath); p != "" {
		files = append(files, p)
	}
	tw, err := watch.NewTree(watch.TreeConfig{Root: root, Files: files})
	if err == nil {
		m.watchTree(tw.Batches(), tw.Errors())
	} else {
		m.note = "not watching: " + err.Error()
	}
	a = newApp(m, rc, tr)
	return a, func() {
		a.close()
		if tw != nil {
			tw.Close()
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
