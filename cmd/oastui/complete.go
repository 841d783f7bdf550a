package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
)

// Shell completion of flag values (cobra's `oastui completion SHELL`; the
// shells ask `oastui __complete …`). Every flag with a fixed set of values
// offers them; path flags complete file names.

// completeValues completes a flag from a fixed list of values.
func completeValues(values ...string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeFormatList completes lint's --format: a comma list of names, so
// the names are offered after the last comma (`text,sa` → `text,sarif`).
func completeFormatList(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	head, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		head, last = toComplete[:i+1], toComplete[i+1:]
	}
	if strings.Contains(last, ":") { // FORMAT:PATH: the path is the user's
		return nil, cobra.ShellCompDirectiveDefault
	}
	var out []cobra.Completion
	for _, n := range report.Names() {
		if strings.HasPrefix(n, last) {
			out = append(out, head+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func completeFlowFiles(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"json", "yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
}

// mustRegister registers a completion; it fails only for a flag that does
// not exist (a programming error the tests catch).
func mustRegister(cmd *cobra.Command, flag string, fn cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(flag, fn); err != nil {
		panic(err)
	}
}

func registerLintCompletions(cmd *cobra.Command) {
	mustRegister(cmd, "format", completeFormatList)
	mustRegister(cmd, "out-format", completeFormatList)
	mustRegister(cmd, "fail-on", completeValues("blocker", "warning", "suggestion", "none"))
	mustRegister(cmd, "mode", completeValues(string(lint.ModeDeterministic), string(lint.ModeAdvisory), string(lint.ModeFull)))
	mustRegister(cmd, "profile", completeValues("cinatra", "agentspec"))
	mustRegister(cmd, "color", completeValues("auto", "always", "never"))
	mustRegister(cmd, "stdin-filename", completeFlowFiles)
}
