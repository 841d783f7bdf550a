package main

import (
	"fmt"
	"os"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/present"
	"github.com/spf13/cobra"
)

// compileGate runs before the compiler (the review gate of SPEC §3.5). When
// it returns ok=false, `oastui compile` prints blocked (the
// {"ok":false,"error":"review_blocked: …","code":"review_blocked","blockers":[…]}
// document, already formatted) to stdout, writes nothing else and exits 1.
// nil: no gate.
var compileGate func(*analysis.Snapshot) (blocked []byte, ok bool) = reviewGate

// reviewGate is the deterministic review gate over the snapshot, reviewed
// with the .oastui.yaml found upward from the agent.
func reviewGate(s *analysis.Snapshot) ([]byte, bool) {
	r := s.Gate().Response()
	if r == nil {
		return nil, true
	}
	return append(r.JSON(), '\n'), false
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
			s := analysis.Run(args[0], analysis.Options{Stages: analysis.StageCompile,
				Load: compile.LoadOptions{RegistryPath: registry}})
			if s.LoadErr != nil { // compile.ErrNotAnAgent, or a path that does not exist
				return usageErrorf("compile: %v", s.LoadErr)
			}
			if s.Config.Err != nil {
				return usageErrorf("compile: config: %v", s.Config.Err)
			}
			if compileGate != nil {
				if blocked, ok := compileGate(s); !ok {
					if _, err := cmd.OutOrStdout().Write(blocked); err != nil {
						return internalErrorf("compile: %v", err)
					}
					return &exitError{code: exitFindings}
				}
			}
			doc, ok, err := compileDocument(s)
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
			// What the compile says without refusing (the produces road,
			// cinatra#3051), on stderr as the platform logs it.
			for _, w := range s.Compiled.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+present.Text(w))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&outPath, "out", "o", "", "write the result to FILE (atomically) instead of stdout; nothing is written when the agent does not compile")
	cmd.Flags().StringVar(&format, "format", "json", "output format (json)")
	cmd.Flags().StringVar(&registry, "registry", "", "global component registry file (default: the tree's _shared/cinatra/components.json, agents/ or extensions/, else the built-in one)")
	mustRegister(cmd, "format", completeValues("json"))
	return cmd
}

// compileDocument renders the snapshot's compile result as {"ok":…} (see
// compile.IndentJSON). ok reports whether the agent compiled.
func compileDocument(s *analysis.Snapshot) (doc []byte, ok bool, err error) {
	return s.CompileDocument()
}
