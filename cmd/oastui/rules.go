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
	var parity bool
	cmd := &cobra.Command{
		Use:   "rules [CODE]",
		Short: "List every rule oastui reports, explain one, or print the parity table with the platform",
		Long: "rules lists every finding code oastui can report, in the order of its rule list: the codes\n" +
			"raised while loading, then each check's rules. The severity is the default; .oastui.yaml may\n" +
			"change it. --format json prints an array of objects (code, severity, group, profiles, tags, doc,\n" +
			"fixable, fixes, fix_tiers: each fix's tier, safe, unsafe or dangerous). A fixable rule's\n" +
			"findings carry automatic fixes (`oastui lint --fix` applies the safe ones); the others have\n" +
			"no mechanical fix. The team's policies of .oastui.yaml (policies:) follow, group policy\n" +
			"(docs/policies.md).\n\n" +
			"rules CODE explains one rule (or team policy): what it reports, its fixes, and the platform\n" +
			"checks it reproduces with their source (repository, path, commit, identifier).\n\n" +
			"rules --parity prints the parity table (lint/parity.json, docs/parity.md): every check the\n" +
			"platform runs or pins in a test, in every place, with its source and the oastui rules that\n" +
			"reproduce it or the reason none does; --format json prints its rows.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("rules: unknown --format %q (text or json)", format)
			}
			var v any
			var text func(io.Writer) error
			switch {
			case parity && len(args) > 0:
				return usageErrorf("rules: --parity takes no CODE")
			case parity:
				rows := lint.Parity()
				v, text = rows, func(w io.Writer) error { return lint.WriteParityText(w, rows) }
			case len(args) == 1:
				e, ok := ruleExplanation(args[0])
				if !ok {
					policies, err := policyEntries(config)
					if err != nil {
						return err
					}
					for _, p := range policies {
						if p.Code == args[0] {
							e, ok = ruleExplained{ruleEntry: p, Platform: []lint.ParityRow{}}, true
						}
					}
				}
				if !ok {
					return usageErrorf("rules: no rule %q (oastui rules lists them)", args[0])
				}
				v, text = e, func(w io.Writer) error { return writeRuleExplanation(w, e) }
			default:
				policies, err := policyEntries(config)
				if err != nil {
					return err
				}
				rs := append(ruleEntries(), policies...)
				v, text = rs, func(w io.Writer) error { return writeRulesText(w, rs) }
			}
			var err error
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				err = enc.Encode(v)
			} else {
				err = text(cmd.OutOrStdout())
			}
			if err != nil {
				return internalErrorf("rules: %v", err)
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			codes := make([]string, len(lint.All))
			for i, r := range lint.All {
				codes[i] = r.Code
			}
			return codes, cobra.ShellCompDirectiveNoFileComp
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&parity, "parity", false, "print the parity table with the platform's checks")
	cmd.Flags().StringVar(&config, "config", "", "the .oastui.yaml whose team policies are listed after the built-in rules (default: the one found upward from the working directory)")
	mustRegister(cmd, "format", completeValues("text", "json"))
	return cmd
}

// ruleExplained is `oastui rules CODE`: the rule and the platform checks
// it reproduces.
type ruleExplained struct {
	ruleEntry
	Platform []lint.ParityRow `json:"platform"` // [] for a rule of oastui's own
	DocURL   string           `json:"docUrl"`
}

func ruleExplanation(code string) (ruleExplained, bool) {
	r := lint.LookupRule(code)
	if r == nil {
		return ruleExplained{}, false
	}
	for _, e := range ruleEntries() {
		if e.Code == r.Code {
			rows := lint.ParityOf(r.Code)
			if rows == nil {
				rows = []lint.ParityRow{}
			}
			return ruleExplained{ruleEntry: e, Platform: rows, DocURL: lint.RulesDocURL + "#" + r.Anchor()}, true
		}
	}
	return ruleExplained{}, false
}

func writeRuleExplanation(w io.Writer, e ruleExplained) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s  %s  %s\n\n%s\n", e.Code, e.Severity, e.Group, strings.Join(e.Profiles, ","), e.Doc)
	if len(e.Fixes) > 0 {
		fmt.Fprintf(&b, "\nautomatic fixes (oastui lint --fix applies the first):\n")
		for _, f := range e.Fixes {
			fmt.Fprintf(&b, "  - %s\n", f)
		}
	}
	if len(e.Platform) == 0 {
		b.WriteString("\nplatform: none — a rule of oastui's own (the platform runs no such check; docs/parity.md)\n")
	} else {
		b.WriteString("\nplatform checks it reproduces:\n")
		var rows strings.Builder
		if err := lint.WriteParityText(&rows, e.Platform); err != nil {
			return err
		}
		for _, l := range strings.Split(strings.TrimRight(rows.String(), "\n"), "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	fmt.Fprintf(&b, "\n%s\n", e.DocURL)
	_, err := io.WriteString(w, b.String())
	return err
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
