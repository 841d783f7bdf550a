package tui

import (
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/tui/watch"
)

// WatchConfig lists what to watch for the agent at path: its directory and
// cinatra/ subdirectory, the registry's directory, and the files whose
// changes re-run the analysis.
func WatchConfig(a *compile.Agent) watch.Config {
	var cfg watch.Config
	if a.Dir != "" {
		cfg.Dirs = append(cfg.Dirs, a.Dir, filepath.Join(a.Dir, "cinatra"))
		for _, c := range compile.FlowCandidates {
			cfg.Files = append(cfg.Files, filepath.Join(a.Dir, filepath.FromSlash(c)))
		}
		cfg.Files = append(cfg.Files, filepath.Join(a.Dir, "package.json"), filepath.Join(a.Dir, "cinatra.json"))
	}
	if a.FlowPath != "" {
		cfg.Dirs = append(cfg.Dirs, filepath.Dir(a.FlowPath))
		cfg.Files = append(cfg.Files, a.FlowPath)
	}
	if a.RegistryPath != "" {
		cfg.Dirs = append(cfg.Dirs, filepath.Dir(a.RegistryPath))
		cfg.Files = append(cfg.Files, a.RegistryPath)
	}
	start := a.Dir
	if start == "" {
		start = a.FlowPath
	}
	if p, ok := lint.FindConfig(start); ok {
		cfg.Dirs = append(cfg.Dirs, filepath.Dir(p))
		cfg.Files = append(cfg.Files, p)
	}
	return cfg
}

// RunConfig is what `oastui [PATH]` passes to Run.
type RunConfig struct {
	Path        string
	DisplayPath string
	Options     Options
	Project     string // --project: the context picker's starting project
	// Agent is Path already loaded by the caller (it checked that Path is an
	// agent); nil makes Run load it.
	Agent *compile.Agent
}

// Run opens the TUI on an agent that loads (the caller checked that) and
// returns when the user quits.
func Run(rc RunConfig) error {
	a := rc.Agent
	if a == nil {
		var err error
		if a, err = compile.Load(rc.Path, rc.Options.Load); err != nil {
			return err
		}
	}
	tr, err := TracerFromEnv()
	if err != nil {
		return err
	}
	defer tr.Close()
	cfg := Config{Path: rc.Path, DisplayPath: rc.DisplayPath, Options: rc.Options, Tracer: tr, Project: rc.Project}
	wcfg := WatchConfig(a)
	w, werr := watch.New(wcfg)
	if werr == nil {
		defer w.Close()
		cfg.Batches, cfg.WatchErrors = w.Batches(), w.Errors()
	}
	m := New(cfg)
	if werr != nil {
		m.note = "not watching: " + werr.Error()
	}
	p := tea.NewProgram(m, tea.WithFPS(120))
	_, err = p.Run()
	return err
}
