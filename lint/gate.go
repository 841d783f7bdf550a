package lint

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// Gate is the compile/publish gate's verdict over one agent (SPEC §3.5,
// seed 003 §8): the blockers of its deterministic review, whatever mode the
// review ran in (advisory and dry-run findings never count). Run computes it
// with the review; no face reviews a second time to ask the gate.
type Gate struct {
	// Blockers are the deterministic review's blockers, sorted and
	// deduplicated; none: the gate lets the agent through.
	Blockers []Finding
}

// Blocked says whether a deterministic blocker stops compilation.
func (g Gate) Blocked() bool { return len(g.Blockers) > 0 }

// Response is the review_blocked response of a blocked gate, nil when the
// gate lets the agent through.
func (g Gate) Response() *GateResult {
	if !g.Blocked() {
		return nil
	}
	// The response is the platform's contract (SPEC §3.5): the seed's
	// findings, without oastui's fixes (byte offsets into local files) and
	// span ends.
	plain := make([]Finding, len(g.Blockers))
	for i, f := range g.Blockers {
		f.Fixes, f.EndLine, f.EndColumn = nil, 0, 0
		f.Location = present.Text(f.Location) // a token used as an id is in the pointer
		plain[i] = f
	}
	return &GateResult{
		Error:    "review_blocked: " + strconv.Itoa(len(plain)) + " deterministic blockers",
		Code:     "review_blocked",
		Blockers: plain,
	}
}

// GateResult is the review_blocked response of the compile/publish gate
// (seed 003 §8): only the blockers, never warnings or suggestions.
type GateResult struct {
	OK       bool      `json:"ok"` // always false: the README's {"ok":false,…} shape, like compile's own failures
	Error    string    `json:"error"`
	Code     string    `json:"code"`
	Blockers []Finding `json:"blockers"`
}

// JSON is the response as `oastui compile` prints it, exactly
//
//	{"ok":false,"error":"review_blocked: N deterministic blockers","code":"review_blocked","blockers":[…]}
//
// as one line of JSON without a trailing newline (the same input gives
// byte-identical output).
func (r *GateResult) JSON() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		// Findings are plain strings and numbers; this cannot fail.
		return []byte(`{"ok":false,"error":"review_blocked","code":"review_blocked","blockers":[]}`)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// deterministicGate is the gate of a review in mode advisory or full: the
// checks' findings (found, before any dry-run finding joined them) settled
// by the config alone, as a deterministic review settles them.
func deterministicGate(a *compile.Agent, cfg *Config, inline *inlineIgnores, found []Finding) Gate {
	fs, _ := cfg.apply(a, inline, found)
	var blockers []Finding
	for _, f := range fs {
		if f.Severity == compile.Blocker && groupOf(f.Code) != groupPlatformCI {
			f.Message = present.Lines(f.Message)
			f.Group = groupOf(f.Code)
			blockers = append(blockers, f)
		}
	}
	return Gate{Blockers: compile.SortFindings(blockers)}
}

// gateBlockers are the blockers that stop a compile: all but those of the
// platform's CI gates and invariant tests (group platform-ci), which the
// platform raises in its repository CI and at install, never when it
// compiles an agent (agent_source_compile) — oastui reports them, the gate
// lets the agent through as the platform does.
func gateBlockers(bs []Finding) []Finding {
	out := bs[:0:0]
	for _, f := range bs {
		if groupOf(f.Code) != groupPlatformCI {
			out = append(out, f)
		}
	}
	if len(out) == len(bs) {
		return bs
	}
	return out
}
