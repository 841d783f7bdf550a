package lint

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// GateResult is the review_blocked response of the compile/publish gate
// (seed 003 §8): only the blockers, never warnings or suggestions.
type GateResult struct {
	OK       bool      `json:"ok"` // always false: the README's {"ok":false,…} shape, like compile's own failures
	Error    string    `json:"error"`
	Code     string    `json:"code"`
	Blockers []Finding `json:"blockers"`
}

// Gate runs the deterministic review (never the advisory one) with cfg and
// reports whether any blocker stops compilation. When blocked it returns
// the response, exactly
//
//	{"ok":false,"error":"review_blocked: N deterministic blockers","code":"review_blocked","blockers":[…]}
//
// as one line of JSON without a trailing newline. The findings are sorted
// and deduplicated, so the same input gives byte-identical output.
func Gate(a *compile.Agent, cfg *Config) (blockedJSON []byte, blocked bool) {
	r := Run(a, Options{Mode: ModeDeterministic, Config: cfg})
	if len(r.Blockers) == 0 {
		return nil, false
	}
	return BlockedResponse(r.Blockers), true
}

// BlockedResponse is the review_blocked response for the blockers of a
// deterministic review (see Gate), as one line of JSON.
func BlockedResponse(blockers []Finding) []byte {
	// The response is the platform's contract (SPEC §3.5): the findings
	// without oastui's fixes (byte offsets into local files).
	plain := make([]Finding, len(blockers))
	for i, f := range blockers {
		f.Fixes = nil
		f.Location = present.Text(f.Location) // a token used as an id is in the pointer
		plain[i] = f
	}
	blockers = plain
	res := GateResult{
		Error:    "review_blocked: " + strconv.Itoa(len(blockers)) + " deterministic blockers",
		Code:     "review_blocked",
		Blockers: blockers,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		// Findings are plain strings and numbers; this cannot fail.
		return []byte(`{"ok":false,"error":"review_blocked","code":"review_blocked","blockers":[]}`)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
