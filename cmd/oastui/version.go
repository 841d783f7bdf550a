package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// the module version from the build info is used.
var version = ""

func init() {
	subcommands = append(subcommands, func() *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the oastui version",
			Args:  cobra.NoArgs,
			Run: func(cmd *cobra.Command, args []string) {
				v := version
				if v == "" {
					v = "(devel)"
					if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
						v = bi.Main.Version
					}
				}
				fmt.Fprintln(cmd.OutOrStdout(), "oastui", v)
			},
		}
	})
}
