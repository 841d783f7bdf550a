package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/lint"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newRulesCmd) }

// ruleEntry is one rule as `oastui rules --format json` prints it.
type ruleEntry struct {
	Code     string   `json:"code"`
	Severity string   `json:"severity"`
	Group    string   `json:"group"`
	Profiles []string `json:"profiles"`
	Tags     []string `json:"tags"`
	Doc      string   `json:"doc"`
	Fixable  bool     `json:"fixable"`
	Fixes    []string `json:"fixes"` // titles of the automatic fixes, [] when none
	// FixTiers is each fix's tier (safe, unsafe, dangerous; docs/fixes.md),
	// in the order of Fixes.
	FixTiers []string `json:"fix_tiers"`
}

func ruleEntries() []ruleEntry {
	out := make([]ruleEntry, 0, len(lint.All))
	for _, r := range lint.All {
		tags := append([]string{}, r.Tags...)
		tiers := []string{}
		for _, t := range r.FixTiers {
			tiers = append(tiers, string(t))
		}
		out = append(out, ruleEntry{Code: r.Code, Severity: string(r.Severity), Group: r.Group,
			Profiles: r.ProfileNames(), Tags: tags, Doc: r.Doc, Fixable: r.Fixable(), Fixes: append([]string{}, r.AutoFixes...), FixTiers: tiers})
	}
	return out
}

// policyEntries are the team's policies of the .oastui.yaml in force
// (--config, else the one found upward from the working directory) as
// rule entries of group "policy", after the built-in rules.
func policyEntries(config string) ([]ruleEntry, error) {
	res := analysis.ResolveConfig(config, ".")
	if res.Err != nil {
		return nil, usageErrorf("config: %v", res.Err)
	}
	var out []ruleEntry
	if res.Config == nil {
		return out, nil
	}
	for _, p := range res.Config.Policies {
		r := p.Rule()
		out = append(out, ruleEntry{Code: r.Code, Severity: string(r.Severity), Group: r.Group,
			Profiles: r.ProfileNames(), Tags: []string{}, Doc: r.Doc, Fixes: []string{}, FixTiers: []string{}})
	}
	return out, nil
}

func newRulesCmd() *cobra.Command {
	var format, config string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every rule oastui reports, with its severity, group, profiles, tags and doc",
		Long: "rules lists every finding code oastui can report, in the order of its rule list: the codes\n" +
			"raised while loading, then each check's rules. The severity is the default; .oastui.yaml may\n" +
			"change it. --format json prints an array of objects (code, severity, group, profiles, tags, doc,\n" +
			"fixable, fixes, fix_tiers: each fix's tier, safe, unsafe or dangerous). A fixable rule's findings carry automatic fixes (`oastui lint --fix`);\n" +
			"the others have no safe mechanical fix. The team's policies of .oastui.yaml (policies:) follow,\n" +
			"group policy (docs/policies.md).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			policies, err := policyEntries(config)
			if err != nil {
				return err
			}
			all := append(ruleEntries(), policies...)
			switch format {
			case "text":
				err = writeRulesText(cmd.OutOrStdout(), all)
			case "json":
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				err = enc.Encode(all)
			default:
				return usageErrorf("rules: unknown --format %q (text or json)", format)
			}
			if err != nil {
				return internalErrorf("rules: %v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&config, "config", "", "the .oastui.yaml whose team policies are listed after the built-in rules (default: the one found upward from the working directory)")
	mustRegister(cmd, "format", completeValues("text", "json"))
	return cmd
}

// writeRulesText prints two lines a rule:
//
//	code  severity  group  profiles  [tags]  fixable
//	    doc
func writeRulesText(w io.Writer, rs []ruleEntry) error {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s  %s  %s  %s", r.Code, r.Severity, r.Group, strings.Join(r.Profiles, ","))
		if len(r.Tags) > 0 {
			fmt.Fprintf(&b, "  [%s]", strings.Join(r.Tags, ","))
		}
		if r.Fixable {
			b.WriteString("  fixable")
		}
		fmt.Fprintf(&b, "\n    %s\n", r.Doc)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
