package main

import (
	"encoding/json"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
)

func init() { subcommands = append(subcommands, newBaselineCmd) }

func newBaselineCmd() *cobra.Command {
	var fl lintFlags
	cmd := &cobra.Command{
		Use:   "baseline PATH...",
		Short: "Write a baseline of the current findings (JSON, on stdout) for lint --baseline",
		Long: `Lint every agent named on the command line as ` + "`oastui lint`" + ` does and print a
baseline: {"schemaVersion":1,"tool":"oastui","toolVersion":…,"findings":[{rule,
file, pointer, fingerprint}]}, with files relative to the repository root. It
holds no message and no value (a secret is only in the fingerprint, hashed), so
it may be committed:

  oastui baseline agents > .oastui-baseline.json
  oastui lint --baseline .oastui-baseline.json agents

lint --baseline then reports only the findings whose fingerprint is not in the
baseline. A fingerprint is rule + file + JSON Pointer + the hash of the value
that triggered the rule: moving lines or reformatting keeps it; a changed
secret or URL is a new finding. Findings silenced by .oastui.yaml are not
written.

Exit codes: 0 baseline written (whatever it holds), 2 usage error, 3 internal error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.failOn, fl.color = "none", "never"
			fl.formatter = baselineFormat{}
			return runLint(cmdIO{cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()}, args, fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.registry, "registry", "", "global component registry file (as for lint)")
	f.StringVar(&fl.profile, "profile", "", "rule profile: cinatra|agentspec (default: detected per file)")
	f.StringVar(&fl.mode, "mode", string(lint.ModeDeterministic), "review mode: deterministic|advisory|full (full adds the dry run)")
	f.StringVar(&fl.config, "config", "", "config file (default: .oastui.yaml found upward from the first PATH)")
	f.StringVar(&fl.root, "root", "", "repository root the files are relative to (default: the nearest directory above the first PATH holding .git)")
	return cmd
}

// baselineFormat renders a Baseline from the findings of a lint run.
type baselineFormat struct{}

func (baselineFormat) Format(w io.Writer, r report.Report) error {
	b := Baseline{SchemaVersion: baselineSchemaVersion, Tool: "oastui", ToolVersion: r.ToolVersion, Findings: []BaselineEntry{}}
	seen := map[string]bool{}
	for _, f := range r.Findings {
		e := BaselineEntry{Rule: f.Code, File: report.RelFile(f.File, r.BaseDir), Pointer: f.Location, Fingerprint: report.Fingerprint(f, r.BaseDir)}
		if seen[e.Fingerprint] {
			continue
		}
		seen[e.Fingerprint] = true
		b.Findings = append(b.Findings, e)
	}
	sort.Slice(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Rule != y.Rule {
			return x.Rule < y.Rule
		}
		if x.Pointer != y.Pointer {
			return x.Pointer < y.Pointer
		}
		return x.Fingerprint < y.Fingerprint
	})
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}
