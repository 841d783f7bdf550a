package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/tui"
	"github.com/oastui/oastui/tui/example"
)

// tuiMain is the root command: `oastui [PATH]` opens the live TUI. What
// it opens is decided by openTarget; a PATH that is not an agent is a
// usage error (exit 2) with the loader's reason, never a blank screen.
func tuiMain(cmd *cobra.Command, args []string) error {
	project, _ := cmd.Flags().GetString("project")
	catalog, _ := cmd.Flags().GetString("catalog")
	audit, _ := cmd.Flags().GetString("audit")
	if catalog != "" {
		if st, err := os.Stat(catalog); err != nil || !st.Mode().IsRegular() {
			return usageErrorf("--catalog %s: not a readable file", catalog)
		}
	}
	rc := tui.RunConfig{Project: project, Catalog: catalog, Audit: audit}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	if hint := subcommandHint(cmd, arg); hint != "" {
		return usageErrorf("%s", hint)
	}
	target, err := openTarget(arg)
	if err != nil {
		return err
	}
	if target.tree == nil && (!isTerminal(os.Stdin) || !isTerminal(os.Stdout)) {
		return usageErrorf("oastui without a subcommand opens the terminal UI, and this is not a terminal;\n" +
			"headless, run: oastui lint PATH (or compile, graph; see oastui --help)")
	}
	switch {
	case target.tree != nil:
		if !isTerminal(os.Stdin) || !isTerminal(os.Stdout) {
			found := target.tree
			if len(found) > 8 {
				found = found[:8]
			}
			return usageErrorf("%s is a tree of agents, not one agent; open one of them, e.g.\n  oastui %s\n(found %s)",
				target.path, found[0], strings.Join(found, ", "))
		}
		// SPEC §1, issue 18: on an agents/ tree the TUI opens the
		// workspace (the live table and call graph of every agent); esc/⌫
		// in an agent comes back to it.
		if err := tui.RunTree(target.path, target.tree, rc); err != nil {
			return internalErrorf("%v", err)
		}
		return nil
	case target.agent != nil:
		rc.Path, rc.Agent = target.path, target.agent
	default:
		dir, cleanup, err := example.Materialize()
		if err != nil {
			return internalErrorf("cannot unpack the bundled example: %v", err)
		}
		defer cleanup()
		defer removeOnHangup(cleanup)()
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			return internalErrorf("cannot load the bundled example: %v", err)
		}
		rc.Path, rc.Agent = dir, a
		rc.DisplayPath = "bundled example (" + dir + ")"
	}
	if err := tui.Run(rc); err != nil {
		return internalErrorf("%v", err)
	}
	return nil
}

// subcommandHint is the message for a PATH that does not exist and looks
// like a mistyped subcommand ("oastui lnit"), else "".
func subcommandHint(cmd *cobra.Command, arg string) string {
	if arg == "" || strings.ContainsAny(arg, `/\.`) {
		return ""
	}
	if _, err := os.Stat(arg); err == nil {
		return ""
	}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's default, applied only when it suggests by itself
	}
	if s := closest(arg, cmd.SuggestionsFor(arg)); len(s) > 0 {
		return fmt.Sprintf("unknown command %q: did you mean %s? (oastui --help lists the commands)", arg, strings.Join(s, " or "))
	}
	return ""
}

// closest keeps the suggestions nearest to arg (cobra's are all within
// its minimum distance, in command order): "lnt" is lint, not init or lsp.
func closest(arg string, s []string) []string {
	best, out := -1, []string(nil)
	for _, c := range s {
		d := levenshtein(strings.ToLower(arg), strings.ToLower(c))
		switch {
		case best < 0 || d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	return out
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// tuiTarget is what `oastui [PATH]` opens: one agent, the list of a tree's
// agents, or (neither set) the bundled example.
type tuiTarget struct {
	path  string
	agent *compile.Agent
	tree  []string
}

// openTarget decides what the TUI opens for PATH (SPEC §6, §1). Given a
// PATH: an agent package or flow file opens; a package.json opens its
// package; a tree of agents opens the list; anything else is a usage error.
// Without one: the agent in the current directory (or the one whose
// cinatra/ folder it is), else the agents/ tree there, else the example.
func openTarget(arg string) (tuiTarget, error) {
	if arg == "" {
		return openHere(".")
	}
	path := arg
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		switch ext := strings.ToLower(filepath.Ext(path)); {
		case filepath.Base(path) == "package.json":
			path = filepath.Dir(path)
		case ext != ".json" && ext != ".yaml" && ext != ".yml":
			return tuiTarget{}, usageErrorf("%s is not an agent: a flow file is .json, .yaml or .yml (or give the package directory)", arg)
		}
	}
	a, err := compile.Load(path, compile.LoadOptions{})
	switch {
	case err == nil:
		return tuiTarget{path: path, agent: a}, nil
	case errors.Is(err, compile.ErrNotAnAgent):
		if found := agentsUnder(path, 0); len(found) > 0 {
			return tuiTarget{path: path, tree: found}, nil
		}
		return tuiTarget{}, usageErrorf("%s is not an agent: %v", arg, err)
	case errors.Is(err, fs.ErrNotExist):
		return tuiTarget{}, usageErrorf("%s: no such file or directory", arg)
	default:
		return tuiTarget{}, usageErrorf("cannot open %s: %v", arg, err)
	}
}

// openHere is openTarget without a PATH, from directory dir.
func openHere(dir string) (tuiTarget, error) {
	if a, err := compile.Load(dir, compile.LoadOptions{}); err == nil {
		return tuiTarget{path: dir, agent: a}, nil
	}
	if abs, err := filepath.Abs(dir); err == nil && filepath.Base(abs) == "cinatra" {
		pkg := filepath.Dir(abs)
		if a, err := compile.Load(pkg, compile.LoadOptions{}); err == nil {
			return tuiTarget{path: pkg, agent: a}, nil
		}
	}
	// Only a directory that is, or holds, an agent tree (agents/ or
	// today's extensions/) is searched: the current directory may be a
	// home directory with nothing to do with agents.
	trees := []string{dir}
	for _, name := range compile.TreeDirNames {
		trees = append(trees, filepath.Join(dir, name))
	}
	for _, tree := range trees {
		abs, err := filepath.Abs(tree)
		if err != nil || !compile.IsTreeDir(filepath.Base(abs)) {
			continue
		}
		if found := agentsUnder(tree, 0); len(found) > 0 {
			return tuiTarget{path: tree, tree: found}, nil
		}
	}
	return tuiTarget{}, nil
}

func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }

// agentsUnder lists up to max agent packages below dir (0: all): the
// workspace the TUI opens on an agents/ tree, or the message naming them
// when there is no terminal.
func agentsUnder(dir string, max int) []string {
	found, _ := compile.FindAgents(dir, max)
	return found
}
