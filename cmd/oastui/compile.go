package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
	"github.com/spf13/cobra"
)

// compileGate runs before the compiler (the review gate of SPEC §3.5). When
// it returns ok=false, `oastui compile` prints blocked (the
// {"error":"review_blocked: …","code":"review_blocked","blockers":[…]}
// document, already formatted) to stdout, writes nothing else and exits 1.
// nil: no gate.
var compileGate func(*compile.Agent) (blocked []byte, ok bool) = reviewGate

// reviewGate is the deterministic review gate (lint.Gate) with the
// .oastui.yaml found upward from the agent. A config that does not load is
// reported on stderr and the defaults apply (they are the strictest).
func reviewGate(a *compile.Agent) ([]byte, bool) {
	var cfg *lint.Config
	start := a.Dir
	if start == "" {
		start = filepath.Dir(a.FlowPath)
	}
	if p, found := lint.FindConfig(start); found {
		c, err := lint.LoadConfig(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "oastui: warning: %v; reviewing with the default config\n", err)
		} else {
			cfg = c
		}
	}
	out, blocked := lint.Gate(a, cfg)
	if !blocked {
		return nil, true
	}
	return append(out, '\n'), false
}

func init() {
	subcommands = append(subcommands, newCompileCmd)
}

func newCompileCmd() *cobra.Command {
	var outPath, format, registry string
	cmd := &cobra.Command{
		Use:   "compile PATH",
		Short: "Compile an agent to CompiledAgentOas and print {\"ok\":…}",
		Long: "compile reads the agent at PATH (a package directory or a flow file), compiles it as the\n" +
			"reference compiler does and prints {\"ok\":true,\"value\":…} or {\"ok\":false,\"error\":\"…\"}.\n" +
			"Exit 0 when it compiles, 1 when it does not, 2 on usage or input errors.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" {
				return usageErrorf("compile: unknown --format %q (only json)", format)
			}
			if registry != "" {
				if st, err := os.Stat(registry); err != nil || st.IsDir() {
					return usageErrorf("compile: --registry %s: not a readable file", registry)
				}
			}
			a, err := compile.Load(args[0], compile.LoadOptions{RegistryPath: registry})
			if err != nil { // compile.ErrNotAnAgent, or a path that does not exist
				return usageErrorf("compile: %v", err)
			}
			if compileGate != nil {
				if blocked, ok := compileGate(a); !ok {
					if _, err := cmd.OutOrStdout().Write(blocked); err != nil {
						return internalErrorf("compile: %v", err)
					}
					return &exitError{code: exitFindings}
				}
			}
			doc, ok, err := compileDocument(a)
			if err != nil {
				return internalErrorf("compile: %v", err)
			}
			if !ok || outPath == "" {
				if _, err := cmd.OutOrStdout().Write(doc); err != nil {
					return internalErrorf("compile: %v", err)
				}
			} else if err := edit.WriteFileAtomic(outPath, doc); err != nil {
				return usageErrorf("compile: --out: %v", err)
			}
			if !ok {
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&outPath, "out", "o", "", "write the result to FILE (atomically) instead of stdout; nothing is written when the agent does not compile")
	cmd.Flags().StringVar(&format, "format", "json", "output format (json)")
	cmd.Flags().StringVar(&registry, "registry", "", "global component registry file (default: agents/_shared/cinatra/components.json found upward, else the built-in one)")
	return cmd
}

// compileDocument compiles a and renders the {"ok":…} result (see
// compile.IndentJSON). ok reports whether the agent compiled.
func compileDocument(a *compile.Agent) (doc []byte, ok bool, err error) {
	res := compile.NewResult(compile.Compile(a))
	doc, err = compile.IndentJSON(res)
	return doc, res.OK, err
}
