package main

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/tui"
	"github.com/oastui/oastui/tui/example"
)

func init() { runTUI = tuiMain }

// tuiMain is the root command: `oastui [PATH]` opens the live TUI. Without
// PATH it opens the agent in the current directory, or the bundled example
// when the current directory holds none. A PATH that is not an agent is a
// usage error (exit 2) with the loader's reason, never a blank screen.
func tuiMain(cmd *cobra.Command, args []string) error {
	project, _ := cmd.Flags().GetString("project")
	rc := tui.RunConfig{Project: project}
	if len(args) == 1 {
		rc.Path = args[0]
		a, err := compile.Load(rc.Path, compile.LoadOptions{})
		rc.Agent = a
		if err != nil {
			switch {
			case errors.Is(err, compile.ErrNotAnAgent):
				if found := agentsUnder(rc.Path, 500); len(found) > 0 {
					if isTerminal(os.Stdin) && isTerminal(os.Stdout) {
						// SPEC §1: on an agents/ tree the TUI opens a list.
						picked, err := tui.ChooseAgent(rc.Path, found)
						if err != nil {
							return internalErrorf("%v", err)
						}
						if picked == "" {
							return nil
						}
						rc.Path = picked
						if err := tui.Run(rc); err != nil {
							return internalErrorf("%v", err)
						}
						return nil
					}
					if len(found) > 8 {
						found = found[:8]
					}
					return usageErrorf("%s is a tree of agents, not one agent; open one of them, e.g.\n  oastui %s\n(found %s)",
						rc.Path, found[0], strings.Join(found, ", "))
				}
				return usageErrorf("%s is not an agent: %v", rc.Path, err)
			case errors.Is(err, fs.ErrNotExist):
				return usageErrorf("%s: no such file or directory", rc.Path)
			default:
				return usageErrorf("cannot open %s: %v", rc.Path, err)
			}
		}
	} else if a, err := compile.Load(".", compile.LoadOptions{}); err == nil {
		rc.Path, rc.Agent = ".", a
	} else {
		dir, cleanup, err := example.Materialize()
		if err != nil {
			return internalErrorf("cannot unpack the bundled example: %v", err)
		}
		defer cleanup()
		rc.Path = dir
		rc.DisplayPath = "bundled example (" + dir + ")"
	}
	if err := tui.Run(rc); err != nil {
		return internalErrorf("%v", err)
	}
	return nil
}

func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }

// agentsUnder lists up to max agent packages below dir: the list the TUI
// offers on an agents/ tree, or the message naming them when there is no
// terminal.
func agentsUnder(dir string, max int) []string {
	found, _ := compile.FindAgents(dir, max)
	return found
}
