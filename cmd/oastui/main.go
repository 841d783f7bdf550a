// Command oastui is a terminal UI and CLI for authoring and reviewing agents
// written as OAS Flow files. `oastui PATH` opens the TUI; the subcommands run
// the same engine headless.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/present"
)

// Exit codes (SPEC §6).
const (
	exitClean    = 0 // no finding at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // usage or input errors
	exitInternal = 3 // internal error
)

// exitError carries an exit code out of a command. A nil-message exitError
// exits quietly (the command already printed what it had to say).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

func internalErrorf(format string, args ...any) error {
	return &exitError{code: exitInternal, msg: fmt.Sprintf(format, args...)}
}

// subcommands are added by the init functions of the files beside this one
// (lint.go, compile.go, graph.go, ...), one file per subcommand.
var subcommands []func() *cobra.Command

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "oastui [PATH]",
		Short:         "Author and review OAS Flow agents in the terminal",
		Long:          "oastui shows an agent's control-flow graph, review findings, compiled output and context slots,\nand re-reads the agent on every save. The subcommands run the same engine headless for CI.",
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          tuiMain,
	}
	root.Flags().String("project", "", "project the context picker (Slots tab, p) resolves for; P cycles the catalog's projects")
	root.Flags().String("catalog", "", "artifact catalog of the context picker (default .oastui/catalog.json at the workspace root)")
	root.Flags().String("audit", "", "audit database the context picker records to (default .oastui/audit.db at the workspace root)")
	addVersionFlag(root)
	for _, sub := range subcommands {
		root.AddCommand(sub())
	}
	return root
}

func main() {
	if p, ok := policyFor(os.Args[1:], os.LookupEnv); ok {
		p.set()
	}
	os.Exit(withProfiles(func() int { return run(os.Args[1:], os.Stdout, os.Stderr) }))
}

// run executes the command line and returns the exit code; tests call it.
func run(args []string, stdout, stderr io.Writer) int {
	return runStdin(args, nil, stdout, stderr)
}

// runStdin is run with stdin (nil: os.Stdin), for `oastui lint -`.
func runStdin(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	if stdin != nil {
		root.SetIn(stdin)
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitClean
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "oastui:", cleanMessage(ee.msg))
		}
		return ee.code
	}
	// cobra's own errors: unknown command or flag, wrong argument count.
	fmt.Fprintln(stderr, "oastui:", cleanMessage(err.Error()))
	return exitUsage
}

// cleanMessage makes an error message safe for the terminal: messages echo
// PATH arguments, file names and values from the agent, so every line goes
// through present.Clean (the one sanitiser); line breaks are kept.
func cleanMessage(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = present.Clean(l)
	}
	return strings.Join(lines, "\n")
}
