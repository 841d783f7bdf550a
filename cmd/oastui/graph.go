package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/present"
	"github.com/oastui/oastui/workspace"
	"github.com/spf13/cobra"
)

func init() {
	subcommands = append(subcommands, newGraphCmd)
}

func newGraphCmd() *cobra.Command {
	var flowID, format, registry string
	var ascii, data, noFindings, ws bool
	cmd := &cobra.Command{
		Use:   "graph PATH",
		Short: "Print the control-flow graph of an agent (text, DOT or Mermaid)",
		Long: "graph reads the agent at PATH and prints the control-flow graph of its top-level flow, or of the\n" +
			"nested Flow whose id --flow names. text draws it with box-drawing characters (--ascii for plain\n" +
			"ASCII) with the compiler's step numbers, approval gates (✋), subflows (⊞) and the review's\n" +
			"blocker/warning counts per node; dot and mermaid print one node per flow node and one edge\n" +
			"per control edge, for Graphviz and Mermaid.\n\n" +
			"With --workspace, PATH is a directory of agent packages (agents/ or extensions/): graph reviews every agent and\n" +
			"draws the call graph of the tree instead: orchestrator → child agent, missing children and\n" +
			"versions the dependent does not accept marked, followed by the workspace findings.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text", "dot", "mermaid":
			default:
				return usageErrorf("graph: unknown --format %q (text, dot or mermaid)", format)
			}
			if registry != "" {
				if st, err := os.Stat(registry); err != nil || st.IsDir() {
					return usageErrorf("graph: --registry %s: not a readable file", registry)
				}
			}
			if ws {
				return workspaceGraph(cmd, args[0], format, registry, flowgraph.Options{ASCII: ascii})
			}
			s := analysis.Run(args[0], analysis.Options{Stages: analysis.StageGraphs,
				Load: compile.LoadOptions{RegistryPath: registry}})
			if s.LoadErr != nil {
				if errors.Is(s.LoadErr, compile.ErrNotAnAgent) && len(agentsUnder(args[0], 1)) > 0 {
					return usageErrorf("graph: %v\n%s holds agent packages: oastui graph %s --workspace draws how they call each other", s.LoadErr, args[0], args[0])
				}
				return usageErrorf("graph: %v", s.LoadErr)
			}
			if s.Config.Err != nil {
				return usageErrorf("graph: config: %v", s.Config.Err)
			}
			a := s.Agent
			if !s.Parsed() {
				for _, f := range a.Findings {
					if f.Severity == compile.Blocker {
						return usageErrorf("graph: %s:%d:%d: %s [%s]", f.File, f.Line, f.Column, f.Message, f.Code)
					}
				}
				return usageErrorf("graph: %s does not parse", a.FlowPath)
			}
			ptr := ""
			if flowID != "" {
				p, ok := flowgraph.FindFlow(a, flowID)
				if !ok {
					return usageErrorf("graph: no Flow with id %q in %s (flows: %s)", flowID, a.FlowPath, strings.Join(flowIDs(a), ", "))
				}
				ptr = p
			}
			// The snapshot's graph carries the review's counts per node; with
			// --no-findings the snapshot's model of the flow (no counts) is
			// drawn instead. The default text is the snapshot's drawing
			// (Drawn); every other output lays the graph out once or not at
			// all (DOT, Mermaid), from the snapshot's graph not drawn (Marked).
			fl := s.Flow(ptr)
			drawn := format == "text" && !ascii && !data && !noFindings
			var g *flowgraph.Graph
			why := "no such flow"
			switch {
			case fl == nil:
			case drawn:
				fl.Drawn()
				g, why = fl.Graph, fl.Err
			case noFindings: // the model itself: no copy with counts made to be dropped
				if m, err := fl.Model(); err != nil {
					why = err.Error()
				} else {
					g = m
				}
			default:
				g, why = fl.Marked()
			}
			if g == nil {
				return usageErrorf("graph: %s: %s", a.FlowPath, why)
			}
			opts := flowgraph.Options{ASCII: ascii, ShowData: data}
			var err error
			out := cmd.OutOrStdout()
			switch {
			case format == "dot":
				_, err = fmt.Fprint(out, flowgraph.DOT(g))
			case format == "mermaid":
				_, err = fmt.Fprint(out, flowgraph.Mermaid(g))
			case drawn:
				_, err = fmt.Fprint(out, flowgraph.TextOf(g, fl.Canvas, opts)) // the snapshot drew it so
			default:
				_, err = fmt.Fprint(out, graphText(g, opts))
			}
			if err != nil {
				return internalErrorf("graph: %v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&flowID, "flow", "", "draw the nested Flow with this id instead of the top-level flow")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, dot or mermaid")
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw with ASCII characters only (terminals without box drawing)")
	cmd.Flags().BoolVar(&data, "data", false, "list the data-flow connections under the drawing (text)")
	cmd.Flags().BoolVar(&noFindings, "no-findings", false, "draw no blocker/warning counts on nodes")
	cmd.Flags().BoolVar(&ws, "workspace", false, "PATH is a tree of agents: draw how they call each other (child agents through FlowNodes/AgentNodes and package.json dependencies), with the workspace findings")
	cmd.Flags().StringVar(&registry, "registry", "", "global component registry file (default: the tree root's _shared/cinatra/components.json, agents/ or extensions/, else the built-in one)")
	mustRegister(cmd, "format", completeValues("text", "dot", "mermaid"))
	return cmd
}

// flowIDs lists the ids of every Flow of the document, sorted.
func flowIDs(a *compile.Agent) []string {
	var ids []string
	for _, f := range a.Flows() {
		ids = append(ids, present.Text(f.ID()))
	}
	sort.Strings(ids)
	return ids
}

// graphText is the drawing `oastui graph` prints (flowgraph.Text).
func graphText(g *flowgraph.Graph, opts flowgraph.Options) string { return flowgraph.Text(g, opts) }

// graphFitWidth is the width a text drawing is expected to fit: the
// terminal's when stdout is one, else 120 columns.
func graphFitWidth(out io.Writer) int {
	if f, ok := out.(*os.File); ok && isTerminal(f) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
	}
	return 120
}

// wideNote says, under a call graph whose boxes would be wider than
// graphFitWidth (so it was printed as a tree), how wide the drawing is and
// which formats draw it at any width.
func wideNote(out io.Writer, widest int, dir string) error {
	if fit := graphFitWidth(out); widest > fit {
		_, err := fmt.Fprintf(out, "\n(calls shown as a tree: the drawing is %d columns wide, wider than %d; to draw it,\n"+
			"  oastui graph %s --workspace --format dot | dot -Tsvg > calls.svg   or   --format mermaid)\n", widest, fit, dir)
		return err
	}
	return nil
}

// workspaceGraph is `oastui graph DIR --workspace`: every agent of the
// tree reviewed (the workspace's rows) and its call graph printed.
func workspaceGraph(cmd *cobra.Command, dir, format, registry string, opts flowgraph.Options) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usageErrorf("graph: --workspace: %s is not a directory", dir)
	}
	dirs, err := compile.FindAgents(dir, 0)
	if err != nil {
		return usageErrorf("graph: %v", err)
	}
	if len(dirs) == 0 {
		return usageErrorf("graph: --workspace: no agent package below %s", dir)
	}
	cfg := analysis.ResolveConfig("", dir)
	if cfg.Err != nil {
		return usageErrorf("graph: config: %v", cfg.Err)
	}
	agents := workspace.ReviewAll(dir, dirs, analysis.Options{Config: &cfg, Load: compile.LoadOptions{RegistryPath: registry}}, 0, nil)
	ix := workspace.Build(dir, agents, cfg.Config)
	out := cmd.OutOrStdout()
	switch format {
	case "dot":
		_, err = fmt.Fprint(out, flowgraph.DOT(ix.CallGraph().Graph))
	case "mermaid":
		_, err = fmt.Fprint(out, flowgraph.Mermaid(ix.CallGraph().Graph))
	default:
		text, drawn := ix.TextFit(opts, graphFitWidth(out))
		_, err = fmt.Fprint(out, text)
		if err == nil {
			err = wideNote(out, drawn, dir)
		}
	}
	if err != nil {
		return internalErrorf("graph: %v", err)
	}
	return nil
}
