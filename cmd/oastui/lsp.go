package main

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lsp"
)

func init() { subcommands = append(subcommands, newLspCmd) }

func newLspCmd() *cobra.Command {
	var mode, profile, registry, config string
	var stdio bool
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP over stdio): findings, fixes, definitions and hovers in your editor",
		Long: "lsp speaks the Language Server Protocol on stdin/stdout. It reviews the editor's unsaved buffers\n" +
			"of agent files (cinatra/oas.json with its package.json, cinatra.json and registry, open buffers\n" +
			"taking the place of the files on disk) exactly as `oastui lint` reviews the saved files, and\n" +
			"publishes the findings as diagnostics; code actions are the findings' fixes; definition,\n" +
			"references, hover and the document outline follow $component_refs and flow nodes.\n" +
			"Logs go to stderr. --stdio is accepted (and implied) for clients that pass it.\n" +
			"See the README's \"Editor integration\" for Neovim, VS Code and Helix.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch lint.Mode(mode) {
			case lint.ModeDeterministic, lint.ModeAdvisory:
			default:
				return usageErrorf("--mode must be deterministic or advisory (got %q)", mode)
			}
			switch profile {
			case "", string(compile.ProfileCinatra), string(compile.ProfileAgentSpec):
			default:
				return usageErrorf("--profile must be cinatra or agentspec (got %q)", profile)
			}
			if registry != "" {
				if st, err := os.Stat(registry); err != nil || st.IsDir() {
					return usageErrorf("lsp: --registry %s: not a readable file", registry)
				}
			}
			s := lsp.New(cmd.OutOrStdout(), lsp.Options{
				Mode:       lint.Mode(mode),
				Load:       compile.LoadOptions{RegistryPath: registry, Profile: compile.Profile(profile)},
				ConfigPath: config,
				Version:    versionString(),
				Log:        cmd.ErrOrStderr(),
			})
			err := s.Serve(context.Background(), cmd.InOrStdin())
			switch {
			case err == nil, errors.Is(err, io.EOF):
				return nil
			case errors.Is(err, lsp.ErrExitWithoutShutdown):
				return &exitError{code: exitFindings} // the protocol's exit code 1
			}
			return internalErrorf("lsp: %v", err)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&stdio, "stdio", true, "talk LSP over stdin/stdout (the only transport; accepted for clients that pass it)")
	f.StringVar(&mode, "mode", string(lint.ModeDeterministic), "review mode: deterministic|advisory")
	f.StringVar(&profile, "profile", "", "rule profile: cinatra|agentspec (default: detected per file)")
	f.StringVar(&registry, "registry", "", "global component registry file (default: the tree root's _shared/cinatra/components.json, agents/ or extensions/, else the built-in one)")
	f.StringVar(&config, "config", "", "config file (default: the .oastui.yaml found upward from each agent)")
	return cmd
}
