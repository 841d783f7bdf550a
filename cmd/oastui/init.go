package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
)

func init() { subcommands = append(subcommands, newInitCmd) }

// topPolicies finds a top-level policies: key in a YAML file's text.
var topPolicies = regexp.MustCompile(`(?m)^policies\s*:`)

// newInitCmd is `oastui init --policies [DIR]`: the starter team policies
// (lint.StarterPolicies, docs/policies.md) written into DIR/.oastui.yaml,
// a new file or appended to one that has no policies: yet. The result
// is read back as a config before it is written: a file it would break is
// left as it is.
func newInitCmd() *cobra.Command {
	var policies bool
	cmd := &cobra.Command{
		Use:   "init --policies [DIR]",
		Short: "Write the starter team policies into DIR/.oastui.yaml (docs/policies.md)",
		Long: "init --policies writes a commented starter set of team policies (CEL over each agent's flow:\n" +
			"approval before a side effect, approved models, no write tool on a read_only step, produced\n" +
			"artifacts materialised) into DIR/.oastui.yaml (default: the working directory): a new file, or\n" +
			"appended to one without policies:. Exit 2 when the file already has policies: or would not load.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !policies {
				return usageErrorf("init: say what to write: --policies writes the starter team policies")
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return usageErrorf("init: %s is not a directory", dir)
			}
			path := filepath.Join(dir, lint.ConfigFileNames[0])
			for _, name := range lint.ConfigFileNames[1:] {
				if p := filepath.Join(dir, name); fileExists(p) {
					path = p
				}
			}
			old, err := os.ReadFile(path)
			if err != nil && !os.IsNotExist(err) {
				return usageErrorf("init: %v", err)
			}
			if topPolicies.Match(old) {
				return usageErrorf("init: %s already has policies: (docs/policies.md shows the starter set to merge by hand)", path)
			}
			text := lint.StarterPolicies
			if len(old) > 0 {
				sep := "\n"
				if old[len(old)-1] != '\n' {
					sep = "\n\n"
				}
				text = string(old) + sep + text
			}
			if _, err := lint.ParseConfig(path, []byte(text)); err != nil {
				return usageErrorf("init: %s would not load with the starter policies, left as it is: %v", path, err)
			}
			if err := edit.WriteFileAtomic(path, []byte(text)); err != nil {
				return usageErrorf("init: %v", err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "oastui: wrote the starter team policies to %s (docs/policies.md; oastui rules lists them)\n", cleanMessage(path))
			return nil
		},
	}
	cmd.Flags().BoolVar(&policies, "policies", false, "write the starter team policies")
	return cmd
}

// fileExists: a regular file is at p.
func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
