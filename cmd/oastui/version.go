package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// the module version from the build info is used.
var version = ""

// versionString is the version oastui reports everywhere: `oastui
// version`, `oastui --version`, SARIF driver.version and baselines.
func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func init() {
	subcommands = append(subcommands, func() *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the oastui version",
			Args:  cobra.NoArgs,
			Run: func(cmd *cobra.Command, args []string) {
				fmt.Fprintln(cmd.OutOrStdout(), "oastui", versionString())
			},
		}
	})
}

// addVersionFlag gives the root command --version, printing what `oastui
// version` prints.
func addVersionFlag(root *cobra.Command) {
	root.Version = versionString()
	root.SetVersionTemplate("oastui {{.Version}}\n")
}
