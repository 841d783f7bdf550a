package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Helpers that only tests use (deadcode ./cmd/... reports none in production code).

// WriteParityMarkdown writes docs/parity.md from the table.
func WriteParityMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Parity with the platform\n\n")
	b.WriteString("Generated from `lint/parity.json` by `go generate ./lint`; do not edit by hand.\n")
	b.WriteString("Every check the Cinatra platform runs or pins in a test, in every place it runs it, with its\n")
	b.WriteString("source and the oastui rules that reproduce it, or the reason none does. `oastui rules --parity`\n")
	b.WriteString("prints the same table; `oastui rules CODE` explains one rule with its platform source;\n")
	b.WriteString("[gates.md](gates.md) says how the `--gate` views are read from it and how to add a row.\n")
	for _, place := range ParityPlaces {
		var rows []ParityRow
		for _, r := range parityRows() {
			if r.Place == place {
				rows = append(rows, r)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n| check | severity | source | oastui | notes |\n|---|---|---|---|---|\n", place)
		for _, r := range rows {
			codes := make([]string, len(r.Codes))
			for i, c := range r.Codes {
				if rule := LookupRule(c); rule != nil {
					codes[i] = "[`" + c + "`](rules.md#" + rule.Anchor() + ")"
				} else {
					codes[i] = "`" + c + "`"
				}
			}
			var notes []string
			if r.Reason != "" {
				notes = append(notes, r.Reason)
			}
			if r.Approximated != "" {
				notes = append(notes, "approximated: "+r.Approximated)
			}
			fmt.Fprintf(&b, "| %s | %s | `%s` `%s` @%s — %s | %s | %s |\n", mdCell(r.Check), r.Severity, r.Source.Repo, r.Source.Path,
				shortCommit(r.Source.Commit), mdCell(r.Source.Identifier), strings.Join(codes, ", "), mdCell(strings.Join(notes, "; ")))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Codes are the rules the view runs, sorted.
func (g *GateView) Codes() []string {
	var out []string
	for _, r := range parityRows() {
		if slices.Contains(g.places, r.Place) {
			for _, c := range r.Codes {
				if !slices.Contains(out, c) && LookupRule(c) != nil {
					out = append(out, c)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// ScanAll builds the scan-all response of an agent from its review's
// findings (Apply of the scan-all view, the platform's locations).
func ScanAll(a *compile.Agent, fs []Finding) ScanAllResponse {
	g := LookupGate("scan-all")
	list := []ScanAllFinding{}
	for _, f := range g.Apply(fs) {
		list = append(list, ScanAllFinding{Code: f.Code, Severity: string(f.Severity), Message: f.Message,
			Location: PlatformLocation(a, f), Source: f.Source})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(list) // strings and a fixed struct: cannot fail
	return ScanAllResponse{OK: true, Source: g.source, RulesRun: slices.Clone(g.rulesRun), Findings: strings.TrimRight(buf.String(), "\n")}
}

// PlatformLocation renders a finding's location the way the platform's
// code that raises it does (reference cinatra.md §10): dotted paths with
// [i] for the original scans, "$."-rooted for the runtime walkers,
// `$referenced_components.<id> (Flow "<flowId>")` for the per-Flow
// checks, package.json#<key> for the license scan, none for the
// artifact-parity coverage and grammar (OAS-RUNTIME-009).
func PlatformLocation(a *compile.Agent, f Finding) string {
	switch f.Code {
	case "OAS-RUNTIME-009":
		return ""
	case "agent_package_missing_license":
		return "package.json#license"
	case "OAS-RUNTIME-001", "OAS-RUNTIME-004", "OAS-RUNTIME-005", "OAS-RUNTIME-010":
		node := a.Flow.Lookup(f.Location)
		flow := node.Parent().Parent()
		return "$referenced_components." + node.Key() + " (Flow " + strconv.Quote(parityFlowID(flow)) + ")"
	case "OAS-RUNTIME-002", "OAS-RUNTIME-003", "OAS-RUNTIME-006", "OAS-RUNTIME-007", "OAS-RUNTIME-008", "OAS-RUNTIME-011", "OAS-RUNTIME-012", "OAS-RUNTIME-013":
		p := dottedPath(a.Flow, f.Location)
		if p == "" {
			return "$"
		}
		return "$." + p
	}
	return dottedPath(a.Flow, f.Location)
}

// dottedPath turns a JSON Pointer into keys joined by "." with "[i]" for
// array items.
func dottedPath(d *compile.Doc, ptr string) string {
	n := d.Lookup(ptr)
	var parts []string
	for c := n; c != nil && c.Parent() != nil; c = c.Parent() {
		if c.Parent().Kind == compile.Array {
			for i, it := range c.Parent().Items {
				if it == c {
					parts = append(parts, "["+strconv.Itoa(i)+"]")
					break
				}
			}
			continue
		}
		parts = append(parts, "."+c.Key())
	}
	slices.Reverse(parts)
	return strings.TrimPrefix(strings.Join(parts, ""), ".")
}
