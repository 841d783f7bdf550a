package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newRunCmd) }

// runSchemaVersion is the version of `oastui run --dry --format json`.
const runSchemaVersion = 1

// maxStubsBytes bounds the --stubs file.
const maxStubsBytes = 4 << 20

func newRunCmd() *cobra.Command {
	var dry bool
	var stubsPath, format, registry string
	var maxVisits, maxStates int
	cmd := &cobra.Command{
		Use:   "run PATH --dry",
		Short: "Dry-run an agent: walk its flow on stub data and print the trace of every path",
		Long: "run --dry walks the agent's flow symbolically: from the StartNode, with values stubbed from the\n" +
			"input schemas (default, enum, examples, else a typed stub), along the control edges in the\n" +
			"compiled step order, into subflows and child agents, down every branch (each node at most\n" +
			"--max-visits times per path, at most --max-states node runs in all). Tools, LLMs and API calls\n" +
			"return values shaped by their declared outputs, or the canned outputs of --stubs FILE\n" +
			"(YAML or JSON: nodes: {NODE_ID: {OUTPUT: VALUE}}; a canned value decides a branch).\n" +
			"It prints each path's steps (node, inputs with their producer, outputs, branch taken) and the\n" +
			"dryrun_* findings (review mode full). Exit 1 when a dryrun_* finding is a blocker.\n" +
			"Live runs (models, tools) are not supported: --dry is required.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !dry {
				return usageErrorf("run: live runs are not supported (they need the platform's models and tools); use --dry to walk the flow on stub data")
			}
			switch format {
			case "text", "json":
			default:
				return usageErrorf("run: unknown --format %q (text or json)", format)
			}
			if maxVisits < 1 || maxStates < 1 {
				return usageErrorf("run: --max-visits and --max-states must be at least 1")
			}
			var stubs dryrun.Stubs
			if stubsPath != "" {
				src, err := compile.ReadFileLimited(stubsPath, maxStubsBytes)
				if err != nil {
					return usageErrorf("run: --stubs: %v", err)
				}
				if stubs, err = dryrun.ParseStubs(src); err != nil {
					return usageErrorf("run: --stubs %s: %s", stubsPath, present.Text(err.Error()))
				}
			}
			if registry != "" {
				if st, err := os.Stat(registry); err != nil || st.IsDir() {
					return usageErrorf("run: --registry %s: not a readable file", registry)
				}
			}
			s := analysis.Run(args[0], analysis.Options{Mode: lint.ModeFull,
				Load:   compile.LoadOptions{RegistryPath: registry},
				DryRun: dryrun.Options{MaxVisits: maxVisits, MaxStates: maxStates, Stubs: stubs}})
			if s.LoadErr != nil {
				return usageErrorf("run: %v", s.LoadErr)
			}
			if s.Config.Err != nil {
				return usageErrorf("run: config: %v", s.Config.Err)
			}
			if !s.Parsed() || s.DryRun == nil {
				return usageErrorf("run: %s does not parse", s.FlowFile())
			}
			if err := stubs.Check(s.Agent, s.Agent.FindAgent); err != nil {
				return usageErrorf("run: --stubs %s: %s", stubsPath, present.Text(err.Error()))
			}
			var fs []compile.Finding
			blocked := false
			for _, f := range s.Review.Findings {
				if f.Group == lint.GroupDryRun {
					fs = append(fs, f)
					blocked = blocked || f.Severity == compile.Blocker
				}
			}
			res := s.DryRun.Presented(present.Text)
			var err error
			if format == "json" {
				err = writeRunJSON(cmd.OutOrStdout(), s, res, fs)
			} else {
				err = writeRunText(cmd.OutOrStdout(), s, res, fs)
			}
			if err != nil {
				return internalErrorf("run: %v", err)
			}
			if blocked {
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dry, "dry", false, "walk the flow on stub data (required: live runs are not supported)")
	f.StringVar(&stubsPath, "stubs", "", "canned outputs per node, YAML or JSON: nodes: {NODE_ID: {OUTPUT: VALUE}}")
	f.StringVar(&format, "format", "text", "output format: text or json")
	f.IntVar(&maxVisits, "max-visits", dryrun.DefaultMaxVisits, "how often one node may run on one path (loops)")
	f.IntVar(&maxStates, "max-states", dryrun.DefaultMaxStates, "node runs of the whole exploration before it stops")
	f.StringVar(&registry, "registry", "", "global component registry file (as for lint)")
	mustRegister(cmd, "format", completeValues("text", "json"))
	return cmd
}

// runJSON is the --format json document.
type runJSON struct {
	SchemaVersion int               `json:"schemaVersion"`
	File          string            `json:"file"`
	Explored      int               `json:"explored"`
	Total         int               `json:"total"`
	States        int               `json:"states"`
	Capped        bool              `json:"capped"`
	Note          string            `json:"note"`
	Paths         []dryrun.Path     `json:"paths"`
	Findings      []compile.Finding `json:"findings"`
}

func writeRunJSON(w io.Writer, s *analysis.Snapshot, res *dryrun.Result, fs []compile.Finding) error {
	out := runJSON{SchemaVersion: runSchemaVersion, File: present.Text(s.FlowFile()), Explored: res.Explored, Total: res.Total,
		States: res.States, Capped: res.Capped, Note: res.Note, Paths: res.Paths, Findings: cleanFindings(fs)}
	if out.Findings == nil {
		out.Findings = []compile.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func cleanFindings(fs []compile.Finding) []compile.Finding {
	out := make([]compile.Finding, len(fs))
	for i, f := range fs {
		f.Message, f.File, f.Location = present.Text(f.Message), present.Text(f.File), present.Text(f.Location)
		f.Fixes = nil
		out[i] = f
	}
	return out
}

func writeRunText(w io.Writer, s *analysis.Snapshot, res *dryrun.Result, fs []compile.Finding) error {
	var b strings.Builder
	fmt.Fprintf(&b, "dry run of %s (%s)\n%s; %d node runs\n", present.Text(s.AgentName()), present.Text(s.FlowFile()), res.Note, res.States)
	// The summary first (issue 37): the paths and the branches that tell
	// them apart, before each path's steps.
	if sum := dryrun.Summary(res); len(sum) > 0 {
		b.WriteString("\n" + strings.Join(sum, "\n") + "\n")
	}
	for _, p := range res.Paths {
		b.WriteString("\n")
		b.WriteString(dryrun.PathHeader(p) + "\n")
		for _, st := range p.Steps {
			for _, l := range dryrun.StepLines(st) {
				b.WriteString("  " + l + "\n")
			}
		}
	}
	b.WriteString("\n")
	if len(fs) == 0 {
		b.WriteString("no dryrun_* findings\n")
	}
	for _, f := range cleanFindings(fs) {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", f.File, f.Line, f.Column, f.Severity, f.Message, f.Code)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
