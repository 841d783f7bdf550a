package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/oastui/oastui/present"
)

// summaryFormat: one line per agent linted (--format summary), worst
// first as in the workspace view: `path  status  N blockers, N warnings,
// N suggestions`, then a total line. For a lead scanning a tree of agents
// before reading the findings of one.
type summaryFormat struct{}

func (summaryFormat) UsesTargets() bool { return true }

func (summaryFormat) Format(w io.Writer, r Report) error {
	width := 0
	for _, t := range r.Targets {
		width = max(width, len(present.Clean(t.Path)))
	}
	var b strings.Builder
	tot := Summary{}
	broken, agents, others := 0, 0, 0
	for _, t := range r.Targets {
		if t.NotAgent {
			others++
		} else {
			agents++
		}
		status := "ok"
		switch {
		case t.Problem != "":
			status = t.Problem
			broken++
		case t.Blockers > 0:
			status = "blocked"
		case t.Warnings > 0:
			status = "warnings"
		case t.Suggestions > 0:
			status = "suggestions"
		}
		tot.Blockers += t.Blockers
		tot.Warnings += t.Warnings
		tot.Suggestions += t.Suggestions
		fmt.Fprintf(&b, "%-*s  %-15s  %s\n", width, present.Clean(t.Path), status, counts(t.Blockers, t.Warnings, t.Suggestions))
	}
	other := ""
	if others > 0 {
		other = fmt.Sprintf(" (%d in %d %s of no agent)", tot.Blockers+tot.Warnings+tot.Suggestions-inAgents(r.Targets), others, word(others, "file"))
	}
	fmt.Fprintf(&b, "%d agents: %d do not parse or load, %s%s\n", agents, broken, counts(tot.Blockers, tot.Warnings, tot.Suggestions), other)
	_, err := io.WriteString(w, b.String())
	return err
}

// inAgents counts the findings of the agents' lines.
func inAgents(ts []Target) int {
	n := 0
	for _, t := range ts {
		if !t.NotAgent {
			n += t.Blockers + t.Warnings + t.Suggestions
		}
	}
	return n
}

func counts(bl, wa, su int) string {
	return fmt.Sprintf("%d %s, %d %s, %d %s", bl, word(bl, "blocker"), wa, word(wa, "warning"), su, word(su, "suggestion"))
}

func word(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}
