package analysis

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// ConfigResult is the .oastui.yaml an analysis used.
type ConfigResult struct {
	Config *lint.Config // nil: the defaults (the strictest)
	Path   string       // the file in force ("" for defaults or a config handed in)
	Err    error        // why Path could not be used; the defaults apply then
}

// ResolveConfig is the one config resolver of oastui: explicit (--config)
// when given, else the .oastui.yaml found upward from start (an agent
// directory, a flow file or any PATH). A config that does not load is
// returned with its error and a nil Config, so every face decides the same
// way: the CLI stops with exit 2, the TUI shows the error and reviews with
// the defaults.
func ResolveConfig(explicit, start string) ConfigResult {
	path := explicit
	if path == "" {
		path, _ = lint.FindConfig(start)
	}
	if path == "" {
		return ConfigResult{}
	}
	c, err := lint.LoadConfig(path)
	if err != nil {
		return ConfigResult{Path: path, Err: err}
	}
	return ConfigResult{Config: c, Path: path}
}

// ConfigFor is the config an analysis with opts would resolve for the
// loaded agent a: a caller that must know it before Run (a diff, whether the
// review needs the prompt report) hands the result in as opts.Config, and
// it is resolved once.
func ConfigFor(opts Options, a *compile.Agent) ConfigResult { return resolveConfig(opts, a) }

// resolveConfig picks the config of one analysis: the one handed in, else
// --config, else the one found upward from the agent (read afresh on every
// analysis, so that editing it applies on the next save).
func resolveConfig(opts Options, a *compile.Agent) ConfigResult {
	if opts.Config != nil {
		return *opts.Config
	}
	p := ConfigPathOf(a, opts.ConfigPath)
	if p == "" {
		return ConfigResult{}
	}
	if err := compile.CheckAllowed(p, opts.Load.Allow); err != nil {
		return ConfigResult{Path: p, Err: err} // confined (LoadOptions.Allow): the config is a file loading reads
	}
	return ResolveConfig(p, "")
}

// agentStart is where the config search of an agent starts.
func agentStart(a *compile.Agent) string {
	if a.Dir != "" {
		return a.Dir
	}
	return a.FlowPath
}

// ConfigPathOf is the config file an analysis of a would use: explicit
// (--config) when given, else the one found upward ("" for none).
func ConfigPathOf(a *compile.Agent, explicit string) string {
	if explicit != "" {
		return explicit
	}
	p, _ := lint.FindConfig(agentStart(a))
	return p
}
