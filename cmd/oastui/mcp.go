package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/mcpserver"
)

func init() { subcommands = append(subcommands, newMcpCmd) }

// mcpBeforeCall is mcpserver.Options.BeforeCall of `oastui mcp`: nil in
// the shipped binary (no flag, no environment variable sets it); this
// package's tests set it in the server process they start, to inject a
// panic into a tool call.
var mcpBeforeCall func(tool string, args []byte)

func newMcpCmd() *cobra.Command {
	var roots []string
	var registry string
	cmd := &cobra.Command{
		Use:   "mcp [--root DIR]...",
		Short: "Serve oastui's review, compile, graph, fix and resolve as MCP tools over stdio",
		Long: `mcp is a Model Context Protocol server on stdin/stdout for AI coding agents
(Claude Code, Claude Desktop, VS Code and other MCP clients). Its tools run
the engine the CLI runs:

  agent_source_review  path or inline JSON + mode -> findings, buckets, fixes, gate
  agent_compile        -> the {"ok":...} document oastui compile prints
  agent_graph          -> nodes, edges, BFS step order, the oastui graph drawing
  agent_fix            -> the unified diff of a named fix; written only with apply=true
  context_resolve      -> a context slot's refs, as oastui resolve

Every path a tool is given must resolve, symlinks followed, inside the
workspace roots: the roots the client lists (roots/list), else the --root
directories, else the directory the server was started in. Secrets are
masked in every result. Nothing is printed on stdout but the protocol.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if registry != "" {
				if st, err := os.Stat(registry); err != nil || st.IsDir() {
					return usageErrorf("mcp: --registry %s: not a readable file", registry)
				}
			}
			s, err := mcpserver.New(mcpserver.Options{Roots: roots, Version: versionString(), Registry: registry, BeforeCall: mcpBeforeCall})
			if err != nil {
				return usageErrorf("mcp: %v", err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			err = s.Run(ctx)
			if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
				return nil
			}
			return internalErrorf("mcp: %v", err)
		},
	}
	cmd.Flags().StringArrayVar(&roots, "root", nil, "a directory tools may read and fix files in when the client lists no roots (repeatable; default: the working directory)")
	cmd.Flags().StringVar(&registry, "registry", "", "global component registry file (default: the tree root's _shared/cinatra/components.json, agents/ or extensions/, else the built-in one)")
	return cmd
}
