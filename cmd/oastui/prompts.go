package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/present"
	"github.com/oastui/oastui/prompts"
)

func init() { subcommands = append(subcommands, newPromptsCmd) }

func newPromptsCmd() *cobra.Command {
	var node, format, config string
	cmd := &cobra.Command{
		Use:   "prompts PATH [--node ID] [--format text|json]",
		Short: "Show what each LLM step will be sent: templates, placeholder provenance, previews, tokens, usage by ContextOS bucket",
		Long: "prompts reads the agent at PATH and, for every LLM-bearing node (Cinatra llm-bridge ApiNodes; Agent Spec\n" +
			"LlmNode, AgentNode and Agent), prints the prompt templates with each placeholder's provenance (data edge,\n" +
			"StartNode input, context slot, default, or unresolved), the system prompt after the platform's fallback\n" +
			"chain, a preview rendered on sample values, token counts (tiktoken o200k_base and cl100k_base) against the\n" +
			"model's context window, and the agent's usage by ContextOS bucket (policy, tool, evidence, memory,\n" +
			"business, session) next to the ContextOS example budget (an example, not a limit) and, when .oastui.yaml\n" +
			"has a budget:, against its limits. Sample values and non-OpenAI counts are estimates.\n" +
			"--format json has \"schema_version\".",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("prompts: --format must be text or json, not %q", format)
			}
			s := analysis.Run(args[0], analysis.Options{Stages: analysis.StageCompile | analysis.StagePrompts, ConfigPath: config})
			if s.LoadErr != nil {
				return usageErrorf("prompts: %v", s.LoadErr)
			}
			if s.Config.Err != nil {
				return usageErrorf("prompts: config: %v", s.Config.Err)
			}
			if !s.Parsed() {
				msg := "the flow file does not parse"
				if f := s.Agent.Flow; f != nil && f.Err != nil {
					msg += ": " + f.Err.Error()
				}
				return usageErrorf("prompts: %s: %s", present.Text(s.Agent.FlowPath), present.Text(msg))
			}
			r := s.Prompts.Presented(present.Text)
			if node != "" {
				var keep []*prompts.NodePrompt
				for _, n := range r.Nodes {
					if n.ID == node || n.Pointer == node {
						keep = append(keep, n)
					}
				}
				if len(keep) == 0 {
					ids := make([]string, len(r.Nodes))
					for i, n := range r.Nodes {
						ids[i] = n.ID
					}
					return usageErrorf("prompts: no LLM-bearing node %q (the agent's: %s)", present.Text(node), strings.Join(ids, ", "))
				}
				r.Nodes = keep
			}
			var b bytes.Buffer
			if format == "json" {
				boundPlaceholders(r, promptsMaxJSONPlaceholders)
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				if err := enc.Encode(r); err != nil {
					return internalErrorf("prompts: %v", err)
				}
			} else {
				writePromptsText(&b, r, node == "")
			}
			if _, err := cmd.OutOrStdout().Write(b.Bytes()); err != nil {
				return internalErrorf("prompts: %v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&node, "node", "", "only this node (its id or JSON Pointer)")
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	cmd.Flags().StringVar(&config, "config", "", "the .oastui.yaml to use (default: found upward from PATH)")
	return cmd
}

// writePromptsText is the text report: one section per node, then the
// budget table (withBudget).
func writePromptsText(w io.Writer, r *prompts.Report, withBudget bool) {
	fmt.Fprintf(w, "%s: %d LLM-bearing node(s); tokens as %s\n", r.File, len(r.Nodes), strings.Join(r.Encodings, " / "))
	if r.Err != "" {
		fmt.Fprintf(w, "tokenizer unavailable: %s\n", r.Err)
	}
	for _, n := range r.Nodes {
		fmt.Fprintln(w)
		writeNodeText(w, n, r.Encodings)
	}
	if withBudget {
		fmt.Fprintln(w)
		writeBudgetText(w, r)
	}
}

func writeNodeText(w io.Writer, n *prompts.NodePrompt, encs []string) {
	step := ""
	if n.Step > 0 {
		step = fmt.Sprintf(", compiled step %d", n.Step)
	}
	fmt.Fprintf(w, "== %d. %s %q (%s, %s) in flow %s%s, %d:%d %s\n", n.Order, n.ID, n.Name, n.ComponentType, n.Kind, n.Flow, step, n.Line, n.Column, n.Pointer)
	fmt.Fprintf(w, "model:   %s\n", modelText(n.Model))
	var chain []string
	for _, c := range n.System.Chain {
		mark := "-"
		switch {
		case c.Used:
			mark = "✓ used"
		case c.Present:
			mark = "present"
		}
		chain = append(chain, c.Field+" ["+mark+"]")
	}
	fmt.Fprintf(w, "system:  %s  (chain: %s)\n", n.System.Source, strings.Join(chain, " → "))
	if n.Skill != nil {
		fmt.Fprintf(w, "skill:   %s %s, %s", orDash(n.Skill.Path), n.Skill.Status, n.Skill.Placement)
		if n.Skill.Tokens > 0 {
			fmt.Fprintf(w, ", %d tokens", n.Skill.Tokens)
		}
		fmt.Fprintf(w, ": %s\n", n.Skill.Note)
	}
	if n.Tools != nil {
		fmt.Fprintf(w, "tools:   %s (%d tokens of schema)", strings.Join(n.Tools.Names, ", "), n.Tools.Tokens)
		if len(n.Tools.Toolboxes) > 0 {
			fmt.Fprintf(w, "; toolboxes %s (schemas served at run time, not counted)", strings.Join(n.Tools.Toolboxes, ", "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "tokens:  static %s · preview %s", countsText(n.Tokens.Static, encs), countsText(n.Tokens.Preview, encs))
	if n.Model.Window > 0 {
		fmt.Fprintf(w, " · window %d: static prompt %.2f%%", n.Model.Window, 100*n.Tokens.WindowShare)
	} else {
		fmt.Fprint(w, " · window unknown")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "placeholders (%d):\n", len(n.Placeholders))
	for i, p := range n.Placeholders {
		if i == promptsMaxPlaceholders {
			fmt.Fprintf(w, "  … %d more placeholders (--format json lists up to %d)\n", len(n.Placeholders)-i, promptsMaxJSONPlaceholders)
			break
		}
		fmt.Fprintf(w, "  {{ %s }} in %s ← %s; sample %q (%s, %d tokens) [%s]\n", p.Name, strings.Join(p.Roles, "+"),
			p.Provenance.Text(), trimSample(p.Sample), p.SampleFrom, p.Tokens, p.Bucket)
	}
	fmt.Fprintf(w, "--- system (%s) ---\n%s\n", n.System.Source, n.Preview.System)
	fmt.Fprintf(w, "--- user ---\n%s\n", n.Preview.User)
}

// promptsMaxPlaceholders bounds the placeholders the text report lists per
// node: a template of 100,000 placeholders wrote 10 MB of them.
const promptsMaxPlaceholders = 200

// promptsMaxJSONPlaceholders bounds the placeholders --format json lists
// per node (placeholders_omitted counts the others), and the segments of
// each template (segments_omitted): a template of 100,000 placeholders
// wrote 60 MB of JSON (issue 26 item 14).
const promptsMaxJSONPlaceholders = 1000

// boundPlaceholders keeps the first max placeholders of each node of r (a
// copy the face owns: Report.Clean's) and the first 2·max+1 segments of
// each template (a placeholder and the text after it, each), and counts
// the others.
func boundPlaceholders(r *prompts.Report, max int) {
	for _, n := range r.Nodes {
		if len(n.Placeholders) > max {
			n.PlaceholdersOmitted = len(n.Placeholders) - max
			n.Placeholders = n.Placeholders[:max:max]
		}
		for i := range n.Templates {
			t := &n.Templates[i]
			if k := 2*max + 1; len(t.Segments) > k {
				t.SegmentsOmitted = len(t.Segments) - k
				t.Segments = t.Segments[:k:k]
			}
		}
	}
}

func modelText(m prompts.Model) string {
	id := strings.TrimSpace(m.Provider + " " + m.ID)
	if id == "" {
		id = "none named"
	}
	s := fmt.Sprintf("%s (%s), %s", id, m.Source, m.Encoding)
	if !m.Exact {
		s += " as an estimate"
	}
	if m.Capability != "" {
		s += ", capability " + m.Capability
	}
	return s
}

func trimSample(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

func countsText(c prompts.Counts, encs []string) string {
	parts := make([]string, len(encs))
	for i, e := range encs {
		parts[i] = fmt.Sprint(c[e])
	}
	return strings.Join(parts, " / ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeBudgetText is the usage table: one row per step (static /
// estimate per bucket), the ContextOS example budget (not a limit), the
// configured budget if any, the exceeded buckets and the notes.
func writeBudgetText(w io.Writer, r *prompts.Report) {
	fmt.Fprintln(w, "== usage by ContextOS bucket, per LLM call, in each step's encoding (static/estimate)")
	head := fmt.Sprintf("%-4s %-24s", "step", "node")
	for _, b := range prompts.Buckets {
		head += fmt.Sprintf(" %13s", b)
	}
	fmt.Fprintln(w, head+"  total")
	for _, s := range r.Steps {
		line := fmt.Sprintf("%-4d %-24s", s.Order, trimCol(s.Node, 24))
		for _, b := range prompts.Buckets {
			line += fmt.Sprintf(" %13s", fmt.Sprintf("%d/%d", s.Static[b], s.Estimate[b]))
		}
		fmt.Fprintf(w, "%s  %d\n", line, s.Total)
	}
	line := fmt.Sprintf("%-4s %-24s", "", "example (not a limit)")
	for _, b := range prompts.Buckets {
		line += fmt.Sprintf(" %13d", r.Example.Buckets[b])
	}
	fmt.Fprintf(w, "%s  %d\n", line, r.Example.Total)
	if r.Budget.Limited() {
		line = fmt.Sprintf("%-4s %-24s", "", "budget (.oastui.yaml)")
		for _, b := range prompts.Buckets {
			cell := "-"
			if n, ok := r.Budget.Buckets[b]; ok {
				cell = fmt.Sprint(n)
			}
			line += fmt.Sprintf(" %13s", cell)
		}
		total := "-"
		if r.Budget.Total > 0 {
			total = fmt.Sprint(r.Budget.Total)
		}
		if r.Budget.WindowShare > 0 {
			total += fmt.Sprintf(", %d%% of the window", r.Budget.WindowShare)
		}
		fmt.Fprintf(w, "%s  %s\n", line, total)
	}
	line = fmt.Sprintf("%-4s %-24s", "", "run total (estimate)")
	sum := 0
	for _, b := range prompts.Buckets {
		line += fmt.Sprintf(" %13d", r.Totals[b])
		sum += r.Totals[b]
	}
	fmt.Fprintf(w, "%s  %d\n", line, sum)
	for _, e := range r.Exceeded {
		fmt.Fprintf(w, "exceeded: step %d (%s): %s %d > %d [prompt_budget_exceeded]\n", e.Order, e.Node, e.Bucket, e.Tokens, e.Budget)
	}
	if !r.Budget.Limited() {
		fmt.Fprintln(w, "no budget: .oastui.yaml sets none (the example is the ContextOS example run budget, for scale)")
	}
	fmt.Fprintf(w, "assumed artifact size: %d tokens\n", r.Budget.ArtifactTokens)
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
}

func trimCol(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
