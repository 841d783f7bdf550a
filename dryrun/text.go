package dryrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Text forms of a result for the faces (the CLI trace, the Run tab).
// They print what they are given: pass a Cleaned result.

// PathHeader is one path's title line.
func PathHeader(p Path) string {
	h := fmt.Sprintf("path %d: %s", p.ID, p.Status)
	if p.End != "" {
		h += " at " + p.End
	}
	if p.Note != "" {
		h += " (" + p.Note + ")"
	}
	return h
}

// StepLines prints one step: its number, node and type (and the flow of a
// nested step), its compiled step numbers, then one line per input with
// its producer, per output, the branch taken and the note. Nested steps
// are indented by their depth.
func StepLines(st Step) []string {
	pad := strings.Repeat("  ", st.Depth)
	head := fmt.Sprintf("%s%d. %s (%s)", pad, st.N, st.Node, st.Type)
	if st.Depth > 0 {
		head += " in " + st.Flow
	}
	if len(st.Steps) > 0 {
		var ns []string
		for _, n := range st.Steps {
			ns = append(ns, fmt.Sprint(n))
		}
		head += " · step " + strings.Join(ns, ",")
	}
	out := []string{head}
	for _, io := range st.Inputs {
		out = append(out, pad+"     in  "+IOText(io))
	}
	for _, io := range st.Outputs {
		out = append(out, pad+"     out "+IOText(io))
	}
	if st.Branch != "" {
		out = append(out, pad+"     → branch "+st.Branch)
	}
	if st.Note != "" {
		out = append(out, pad+"     note: "+st.Note)
	}
	return out
}

// IOText is one input or output: name, type, value and producer, or why
// it has none.
func IOText(io IO) string {
	s := io.Name + ": " + io.Type
	if io.Missing {
		if io.Required {
			return s + " ✗ no value"
		}
		return s + " (none)"
	}
	s += " = " + ValueText(io.Value, 60)
	if io.From != "" {
		s += "  ← " + io.From
	}
	if io.Mismatch != "" {
		s += "  ✗ got " + io.Mismatch
	}
	return s
}

// ValueText is a value as compact JSON, cut to max runes.
func ValueText(v any, max int) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "?"
	}
	r := []rune(strings.TrimSuffix(buf.String(), "\n"))
	if max > 1 && len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return string(r)
}

// Summary is the dry run at a glance, for the head of the text output:
// one line per path with its status, its end, its number of steps and the
// branches that tell it apart from the other paths (a branching node that
// takes another branch, or is not reached, on some other path; the
// branches every path takes alike are left out). Nested steps' branches
// count as the top level's do.
func Summary(res *Result) []string {
	if res == nil || len(res.Paths) == 0 {
		return nil
	}
	type choice struct{ node, branch string }
	taken := make([][]choice, len(res.Paths))
	alike := map[choice]int{} // how many paths take each choice
	for i, p := range res.Paths {
		seen := map[choice]bool{}
		for _, st := range p.Steps {
			if st.Branch == "" {
				continue
			}
			c := choice{st.Node, st.Branch}
			if !seen[c] {
				seen[c] = true
				taken[i] = append(taken[i], c)
				alike[c]++
			}
		}
	}
	out := []string{fmt.Sprintf("%d %s:", len(res.Paths), plural(len(res.Paths), "path", "paths"))}
	for i, p := range res.Paths {
		head := fmt.Sprintf("  path %d: %s", p.ID, p.Status)
		if p.End != "" {
			head += " at " + p.End
		}
		head += fmt.Sprintf(", %d %s", len(p.Steps), plural(len(p.Steps), "step", "steps"))
		var apart []string
		for _, c := range taken[i] {
			if alike[c] < len(res.Paths) {
				apart = append(apart, c.node+" → "+c.branch)
			}
		}
		if len(apart) > 0 {
			head += "; " + strings.Join(apart, ", ")
		} else if len(res.Paths) > 1 {
			head += "; no branch of its own"
		}
		out = append(out, head)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
