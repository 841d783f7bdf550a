package lint

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
)

// The parity table (parity.json): every check the platform runs or pins in
// a test, in every place it runs it, with its source and the oastui rules
// that reproduce it, or the reason none does. It is the one place a change
// of the platform is recorded; `oastui rules --parity` prints it,
// docs/parity.md is generated from it, and the gate views (--gate) are read
// from it.

//go:embed parity.json
var parityJSON []byte

// ParitySource is where the platform keeps a check.
type ParitySource struct {
	Repo       string `json:"repo"`
	Path       string `json:"path"`
	Commit     string `json:"commit"`
	Identifier string `json:"identifier"`
}

// ParityRow is one platform check in one place.
type ParityRow struct {
	// Place is where the platform runs the check: validator,
	// runtime-invariants, artifact-parity, review, scan-all,
	// creation-review, package-scan, publish, sibling-scan,
	// compile-refusal, compile-warning, invariant-test, ci-gate, install,
	// mount-contract, slot-loader.
	Place    string       `json:"place"`
	Check    string       `json:"check"`
	Source   ParitySource `json:"source"`
	Severity string       `json:"severity"` // the platform's: blocker, warning, suggestion
	Codes    []string     `json:"codes"`    // the oastui rules that reproduce it
	// Reason says why no rule (or no rule of this branch) reproduces it.
	Reason string `json:"reason,omitempty"`
	// Approximated says what of the platform's newest source is known only
	// through its callers, tests or the reference audit.
	Approximated string `json:"approximated,omitempty"`
}

// ParityPlaces are the places of the table, in the order it is printed.
var ParityPlaces = []string{"validator", "runtime-invariants", "artifact-parity", "review", "scan-all", "creation-review",
	"package-scan", "publish", "sibling-scan", "compile-refusal", "compile-warning", "invariant-test", "ci-gate", "install",
	"mount-contract", "slot-loader"}

// parityRows is the table of parity.json, decoded on first use: at
// package init every process that imports lint paid for it (14 ms under
// -race, in every test binary and every re-executed one).
var parityRows = sync.OnceValue(func() []ParityRow { return mustParity(parityJSON) })

func mustParity(src []byte) []ParityRow {
	var doc struct {
		Rows []ParityRow `json:"rows"`
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	var raw struct {
		Note string          `json:"note"`
		Rows json.RawMessage `json:"rows"`
	}
	if err := dec.Decode(&raw); err != nil {
		panic("lint: parity.json: " + err.Error())
	}
	dec = json.NewDecoder(bytes.NewReader(raw.Rows))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc.Rows); err != nil {
		panic("lint: parity.json: " + err.Error())
	}
	return doc.Rows
}

// Parity returns the parity table, in file order.
func Parity() []ParityRow { return slices.Clone(parityRows()) }

// ParityOf returns the rows that name code.
func ParityOf(code string) []ParityRow {
	var out []ParityRow
	for _, r := range parityRows() {
		if slices.Contains(r.Codes, code) {
			out = append(out, r)
		}
	}
	return out
}

// WriteParityText prints the table as `oastui rules --parity` does: one
// block a row.
func WriteParityText(w io.Writer, rows []ParityRow) error {
	var b strings.Builder
	for _, r := range rows {
		codes := strings.Join(r.Codes, ", ")
		if codes == "" {
			codes = "(none)"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", r.Place, r.Severity, r.Check)
		fmt.Fprintf(&b, "    source: %s %s @%s (%s)\n", r.Source.Repo, r.Source.Path, shortCommit(r.Source.Commit), r.Source.Identifier)
		fmt.Fprintf(&b, "    oastui: %s\n", codes)
		if r.Reason != "" {
			fmt.Fprintf(&b, "    reason: %s\n", r.Reason)
		}
		if r.Approximated != "" {
			fmt.Fprintf(&b, "    approximated: %s\n", r.Approximated)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func shortCommit(c string) string {
	if len(c) > 8 {
		return c[:8]
	}
	return c
}

// GateView is one of the platform's views of an agent (`oastui lint
// --gate NAME`): the findings of the rules its places run, at the
// platform's severities, and nothing else.
type GateView struct {
	Name   string
	Doc    string
	places []string
	// blockersOnly: the view refuses, it does not report (compile).
	blockersOnly bool
	// source re-stamps every finding ("" keeps it).
	source string
	// rulesRun is the endpoint's rulesRun (scan-all).
	rulesRun []string
}

// Gates are the platform's views, by name.
var Gates = []*GateView{
	{Name: "scan-all", Doc: "what /api/oas-lint/scan-all returns (src/app/api/oas-lint/scan-all/route.ts @1747e00a): the review scans, the package scans and the artifact-parity family, re-stamped source agent-lint-policy",
		places: []string{"scan-all"}, source: "agent-lint-policy",
		rulesRun: []string{"literal_secrets_in_oas", "untrusted_external_url", "agent_id_missing_on_llm_bridge", "llm_metadata_drift",
			"start_node_inputs_without_required", "package_version_drift", "required_license_missing", "artifact_produces_materialization"}},
	{Name: "compile", Doc: "what agent_source_compile and agent_source_publish refuse (packages/agents/src/mcp/handlers.ts): the deterministic review's and the sibling scan's blockers, the compiler's refusals, and publish's license check",
		places: []string{"compile-refusal", "publish"}, blockersOnly: true},
	{Name: "creation-review", Doc: "the lint lane of agent_creation_review (packages/agents/src/agent-creation-review.ts @65e180f9, runDeterministicLintLane): the review scans, the runtime invariants and the package scans, source agent-lint-policy",
		places: []string{"creation-review"}, source: "agent-lint-policy"},
}

// LookupGate returns the view called name, or nil.
func LookupGate(name string) *GateView {
	for _, g := range Gates {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// GateNames are the views' names.
func GateNames() []string {
	out := make([]string, len(Gates))
	for i, g := range Gates {
		out[i] = g.Name
	}
	return out
}

// severityOf is the platform's severity of code in the view, and whether
// the view runs it.
func (g *GateView) severityOf(code string) (compile.Severity, bool) {
	for _, r := range parityRows() {
		if slices.Contains(g.places, r.Place) && slices.Contains(r.Codes, code) {
			return compile.Severity(r.Severity), true
		}
	}
	return "", false
}

// Apply keeps the findings the view reports, at the platform's severity
// and source.
func (g *GateView) Apply(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		sev, ok := g.severityOf(f.Code)
		if !ok || (g.blockersOnly && sev != compile.Blocker) {
			continue
		}
		f.Severity = sev
		if g.source != "" {
			f.Source = g.source
		}
		out = append(out, f)
	}
	return out
}

// ScanAllFinding is one finding of the scan-all response, in the
// platform's shape (its location format, no position).
type ScanAllFinding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
	Source   string `json:"source"`
}

// ScanAllResponse is the endpoint's response: findings is the JSON text
// of the finding list, as the route returns it.
type ScanAllResponse struct {
	OK       bool     `json:"ok"`
	Source   string   `json:"source"`
	RulesRun []string `json:"rulesRun"`
	Findings string   `json:"findings"`
}
