package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

const parityDocPath = "../docs/parity.md"

// TestParityTable: every row of the parity table is in a known place,
// says where the platform keeps the check, and names rules that exist or
// says why it does not (a check nobody accounts for fails here).
func TestParityTable(t *testing.T) {
	rows := Parity()
	if len(rows) < 60 {
		t.Fatalf("%d rows: the table lost its rows", len(rows))
	}
	for i, r := range rows {
		where := r.Place + ": " + r.Check
		if !slices.Contains(ParityPlaces, r.Place) {
			t.Errorf("row %d (%s): unknown place", i, where)
		}
		if r.Check == "" || r.Source.Repo == "" || r.Source.Path == "" || r.Source.Commit == "" || r.Source.Identifier == "" {
			t.Errorf("row %d (%s): incomplete source %+v", i, where, r.Source)
		}
		switch compile.Severity(r.Severity) {
		case compile.Blocker, compile.Warning, compile.Suggestion:
		default:
			t.Errorf("row %d (%s): severity %q", i, where, r.Severity)
		}
		if len(r.Codes) == 0 && r.Reason == "" {
			t.Errorf("row %d (%s): names no rule and gives no reason", i, where)
		}
		for _, c := range r.Codes {
			if LookupRule(c) == nil && r.Reason == "" {
				t.Errorf("row %d (%s): %s is not a rule and the row gives no reason", i, where, c)
			}
		}
	}
	// Every rule of the platform's newer checks is accounted for in it.
	for _, rule := range All {
		if (rule.Group == groupPlatform || rule.Group == groupPlatformCI) && len(ParityOf(rule.Code)) == 0 {
			t.Errorf("%s: in no row of the parity table", rule.Code)
		}
	}
}

// TestParityTableCatchesGaps: a row naming a code that is no rule, or
// nothing, and no reason is what TestParityTable refuses.
func TestParityTableCatchesGaps(t *testing.T) {
	bad := []ParityRow{{Place: "ci-gate", Check: "x", Codes: []string{"no_such_rule"}}, {Place: "ci-gate", Check: "y"}}
	for _, r := range bad {
		unaccounted := len(r.Codes) == 0 && r.Reason == ""
		for _, c := range r.Codes {
			unaccounted = unaccounted || (LookupRule(c) == nil && r.Reason == "")
		}
		if !unaccounted {
			t.Errorf("%+v passes", r)
		}
	}
	if _, err := func() (rows []ParityRow, err error) {
		defer func() {
			if recover() != nil {
				err = os.ErrInvalid
			}
		}()
		return mustParity([]byte(`{"rows":[{"place":"x","chek":"typo"}]}`)), nil
	}(); err == nil {
		t.Error("an unknown field in parity.json is accepted")
	}
}

// TestParityDoc keeps docs/parity.md equal to the table (go generate
// ./lint rewrites it).
func TestParityDoc(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteParityMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if updateGoldens() {
		if err := os.WriteFile(parityDocPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(parityDocPath)
	if err != nil {
		t.Fatalf("%v (go generate ./lint writes it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Error("docs/parity.md is out of date with lint/parity.json: run go generate ./lint")
	}
	for _, r := range Parity() {
		if !strings.Contains(buf.String(), mdCell(r.Check)) {
			t.Errorf("docs/parity.md lacks %q", r.Check)
		}
	}
}

type scanAllExpected struct {
	ScanAll ScanAllResponse `json:"scanAll"`
}

// TestScanAllGate: on each of the 25 corpus agents the scan-all view is
// the endpoint's response as the platform's own code computes it
// (expected/<agent>.json scanAll): ok, source, rulesRun, and the findings
// (code, severity, location, source; the messages too, but for the
// artifact-parity family, whose messages are ours).
func TestScanAllGate(t *testing.T) {
	for _, ca := range rvCorpusAgents(t) {
		t.Run(ca.Slug, func(t *testing.T) {
			src, err := os.ReadFile(rvSharedDir(t, "corpus", "cinatra", "expected", ca.Slug+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var ex scanAllExpected
			if err := json.Unmarshal(src, &ex); err != nil {
				t.Fatal(err)
			}
			a := rvLoad(t, ca.Dir)
			got := ScanAll(a, Run(a, Options{}).Findings)
			if got.OK != ex.ScanAll.OK || got.Source != ex.ScanAll.Source || !slices.Equal(got.RulesRun, ex.ScanAll.RulesRun) {
				t.Errorf("envelope %+v, want %+v", got, ex.ScanAll)
			}
			key := func(fs []ScanAllFinding) []string {
				var out []string
				for _, f := range fs {
					m := f.Message
					if strings.HasPrefix(f.Code, "OAS-RUNTIME-") {
						m = ""
					}
					out = append(out, f.Code+" "+f.Severity+" "+f.Location+" "+f.Source+" "+m)
				}
				sort.Strings(out)
				return out
			}
			var g, w []ScanAllFinding
			if err := json.Unmarshal([]byte(got.Findings), &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(ex.ScanAll.Findings), &w); err != nil {
				t.Fatal(err)
			}
			if gk, wk := key(g), key(w); !slices.Equal(gk, wk) {
				t.Errorf("scan-all differs:\ngot\n  %s\nwant\n  %s", strings.Join(gk, "\n  "), strings.Join(wk, "\n  "))
			}
		})
	}
}

// TestGateViews: each view keeps only its rules, at the platform's
// severity and source; compile keeps blockers only.
func TestGateViews(t *testing.T) {
	fs := []Finding{
		{Code: "literal_credential_detected", Severity: compile.Warning, Source: "deterministic"}, // severity changed by a config
		{Code: "start_node_inputs_without_required", Severity: compile.Warning, Source: "deterministic"},
		{Code: "OAS-RUNTIME-012", Severity: compile.Warning, Source: "deterministic"},
		{Code: "OAS-RUNTIME-005", Severity: compile.Blocker, Source: "deterministic"},
		{Code: "flow_dead_end", Severity: compile.Warning, Source: "deterministic"},
		{Code: "produces_dependency_missing", Severity: compile.Blocker, Source: "deterministic"},
	}
	render := func(fs []Finding) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Code+"/"+string(f.Severity)+"/"+f.Source)
		}
		return strings.Join(out, " ")
	}
	for name, want := range map[string]string{
		"scan-all":        "literal_credential_detected/blocker/agent-lint-policy start_node_inputs_without_required/warning/agent-lint-policy OAS-RUNTIME-012/warning/agent-lint-policy",
		"creation-review": "literal_credential_detected/blocker/agent-lint-policy start_node_inputs_without_required/warning/agent-lint-policy OAS-RUNTIME-005/blocker/agent-lint-policy",
		"compile":         "literal_credential_detected/blocker/deterministic",
	} {
		g := LookupGate(name)
		if g == nil {
			t.Fatalf("no gate %s", name)
		}
		if got := render(g.Apply(fs)); got != want {
			t.Errorf("%s: %s\nwant %s", name, got, want)
		}
	}
	if LookupGate("nope") != nil || !slices.Equal(GateNames(), []string{"scan-all", "compile", "creation-review"}) {
		t.Errorf("gates %v", GateNames())
	}
	if c := LookupGate("compile").Codes(); !slices.Contains(c, "component_ref_unresolved") || slices.Contains(c, "OAS-RUNTIME-012") {
		t.Errorf("compile runs %v", c)
	}
}
