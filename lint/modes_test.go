package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// rvWriteFlow writes a flow document to a temporary file and loads it in
// the cinatra profile.
func rvWriteFlow(t *testing.T, src string) *compile.Agent {
	t.Helper()
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return rvLoadProfile(t, p, compile.ProfileCinatra)
}

type rvHandlerFixture struct {
	File                   string `json:"file"`
	Builder                string `json:"builder"`
	RunDeterministicReview struct {
		Blockers    []rvRefFinding `json:"blockers"`
		Warnings    []rvRefFinding `json:"warnings"`
		Suggestions []rvRefFinding `json:"suggestions"`
	} `json:"runDeterministicReview"`
	IsTrivialOas bool `json:"isTrivialOas"`
}

// rvReviewScope is what the reference's runDeterministicReview runs: the
// secret, URL and bridge scans, OAS-LLM-* and the start-node warning (not
// the structural validator, runtime invariants or flow-graph rules).
func rvReviewScope(code string) bool {
	switch code {
	case "literal_credential_detected", "untrusted_external_url", "llm_bridge_missing_agent_id", "start_node_inputs_without_required":
		return true
	}
	return strings.HasPrefix(code, "OAS-LLM-")
}

// TestReviewHandlerFixtures: the build*() flows of the reference's
// agent-source-review-handler test give the same triviality and the same
// deterministic-review findings (code, severity, location; the secret
// message is B1's, so messages are not compared here).
func TestReviewHandlerFixtures(t *testing.T) {
	base := rvSharedDir(t, "corpus", "cinatra", "fixtures", "agent-source-review-handler")
	src, err := os.ReadFile(filepath.Join(base, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx []rvHandlerFixture
	if err := json.Unmarshal(src, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx) != 9 {
		t.Fatalf("%d handler fixtures, want 9", len(idx))
	}
	for _, fx := range idx {
		t.Run(fx.File, func(t *testing.T) {
			a := rvLoadProfile(t, filepath.Join(base, fx.File), compile.ProfileCinatra)
			if got := IsTrivial(a); got != fx.IsTrivialOas {
				t.Errorf("IsTrivial = %v, reference isTrivialOas = %v", got, fx.IsTrivialOas)
			}
			r := review(a, Options{})
			var got []string
			for _, f := range r.Findings {
				if rvReviewScope(f.Code) {
					got = append(got, f.Code+" "+string(f.Severity)+" "+f.Location)
				}
			}
			var want []string
			for _, w := range append(append(fx.RunDeterministicReview.Blockers, fx.RunDeterministicReview.Warnings...), fx.RunDeterministicReview.Suggestions...) {
				if w.Code == "literal_credential_detected" && LookupRule(w.Code) == nil {
					t.Logf("secret scan not registered yet: skipping %s", w.Location)
					continue
				}
				want = append(want, w.Code+" "+w.Severity+" "+rvPointer(w.Location))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("review findings:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// TestCorpusTriviality: IsTrivial agrees with the reference's isTrivialOas
// on all 25 corpus agents. Our rule looks at every Flow and at inline
// components; on the corpus that changes nothing, because every agent with
// a nested Flow reaches it through a FlowNode, which makes it non-trivial
// under both rules. TestTrivialEveryFlow shows where the rules part.
func TestCorpusTriviality(t *testing.T) {
	for _, ca := range rvCorpusAgents(t) {
		if got := IsTrivial(rvLoad(t, ca.Dir)); got != ca.Expected.Trivial {
			t.Errorf("%s: IsTrivial = %v, reference = %v", ca.Slug, got, ca.Expected.Trivial)
		}
	}
}

const rvFlowHead = `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"f","metadata":{"cinatra":{"type":"leaf"}},"inputs":[],"outputs":[],`

// TestTrivialEveryFlow: the cases where evaluating every Flow (and inline
// components) differs from the reference's top-level-only predicate, and
// the seed's plain cases.
func TestTrivialEveryFlow(t *testing.T) {
	cases := []struct {
		name, body string
		want       bool
		reference  bool // what the top-level-only reference predicate says
	}{
		{"one ApiNode", `"nodes":[],"$referenced_components":{"s":{"component_type":"StartNode"},"a":{"component_type":"ApiNode","url":"/api/x"}}}`, true, true},
		{"OutputMessageNode does not count", `"nodes":[],"$referenced_components":{"o":{"component_type":"OutputMessageNode"},"a":{"component_type":"ApiNode","url":"/api/x"}}}`, true, true},
		{"no components", `"nodes":[]}`, true, true},
		{"two inline ApiNodes in nodes[]", `"nodes":[{"component_type":"ApiNode","id":"a","url":"/x"},{"component_type":"ApiNode","id":"b","url":"/y"}],"$referenced_components":{}}`, false, true},
		{"HITL inside an inline Agent's flow", `"nodes":[],"$referenced_components":{"n":{"component_type":"AgentNode","agent":{"component_type":"Agent","id":"ag","tools":[{"component_type":"InputMessageNode","id":"ask"}]}}}}`, false, true},
		{"third-party toolbox inline in an Agent", `"nodes":[],"$referenced_components":{"ag":{"component_type":"Agent","id":"ag","toolboxes":[{"component_type":"MCPToolBox","id":"ext","client_transport":{"component_type":"SSETransport","url":"/api/mcp"}}]}}}`, false, true},
		{"first-party toolbox", `"nodes":[],"$referenced_components":{"tb":{"component_type":"MCPToolBox","id":"cinatra-mcp-toolbox","url":"/api/mcp"},"a":{"component_type":"ApiNode","url":"/x"}}}`, true, true},
		{"AgentNode delegating to an A2AAgent through a ref", `"nodes":[],"$referenced_components":{"n":{"component_type":"AgentNode","agent":{"$component_ref":"peer"}},"peer":{"component_type":"A2AAgent","agent_url":"/api/a2a"}}}`, false, false},
		{"AgentNode without agent does not count", `"nodes":[],"$referenced_components":{"n":{"component_type":"AgentNode"},"a":{"component_type":"ApiNode","url":"/x"}}}`, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := rvWriteFlow(t, rvFlowHead+c.body)
			if got := IsTrivial(a); got != c.want {
				t.Errorf("IsTrivial = %v, want %v (reference says %v)", got, c.want, c.reference)
			}
		})
	}
	if !IsTrivial(nil) || !IsTrivial(&compile.Agent{}) {
		t.Error("an agent without a parsed flow must be trivial")
	}
}

func rvMarkers(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Code == "advisory_dispatch_deferred" {
			out = append(out, f.Source+"/"+string(f.Severity))
		}
	}
	return out
}

func TestAdvisoryMode(t *testing.T) {
	base := rvSharedDir(t, "corpus", "cinatra", "fixtures", "agent-source-review-handler")
	trivial := rvLoadProfile(t, filepath.Join(base, "buildtrivialoas.json"), compile.ProfileCinatra)
	nontrivial := rvLoadProfile(t, filepath.Join(base, "buildoaswithtwollmsteps.json"), compile.ProfileCinatra)
	warning := []Finding{{Code: "start_node_inputs_without_required", Severity: compile.Warning, Source: compile.SourceDeterministic}}
	blocker := []Finding{{Code: "untrusted_external_url", Severity: compile.Blocker, Source: compile.SourceDeterministic}}
	cases := []struct {
		name string
		a    *compile.Agent
		fs   []Finding
		cfg  *Config
		want string
	}{
		{"trivial: no planner", trivial, nil, &Config{}, "agent-security-reviewer/suggestion agent-code-reviewer/suggestion"},
		{"non-trivial: all three", nontrivial, warning, &Config{}, "agent-security-reviewer/suggestion agent-code-reviewer/suggestion agent-planner/suggestion"},
		{"a blocker: none", nontrivial, blocker, &Config{}, ""},
		{"turned off", trivial, nil, &Config{Rules: map[string]string{"advisory_dispatch_deferred": "off"}}, ""},
		// A helper's finding may not block (SPEC §2): blocker is downgraded.
		{"asked to block", trivial, nil, &Config{Rules: map[string]string{"advisory_dispatch_deferred": "blocker"}}, "agent-security-reviewer/warning agent-code-reviewer/warning"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := advisoryFindings(c.a, c.cfg, append([]Finding(nil), c.fs...))
			if got := strings.Join(rvMarkers(out), " "); got != c.want {
				t.Errorf("markers %q, want %q", got, c.want)
			}
			for _, f := range out {
				if f.Code == "advisory_dispatch_deferred" && (!strings.Contains(f.Message, `"`+f.Source+`"`) || f.File != c.a.Flow.Path || f.Line != 1) {
					t.Errorf("marker %+v: message must name its helper, file the flow", f)
				}
			}
		})
	}
	// Through Run: deterministic mode never adds markers; advisory mode adds
	// them only when the whole review has no blocker.
	for _, dir := range []string{ruleCase("err", "untrusted_external_url", "urls-everywhere"), ruleCase("ok", "untrusted_external_url", "ok-clean")} {
		a := rvLoad(t, dir)
		if m := rvMarkers(review(a, Options{Mode: ModeDeterministic}).Findings); len(m) != 0 {
			t.Errorf("%s: markers in deterministic mode: %v", dir, m)
		}
		r := review(a, Options{Mode: ModeAdvisory})
		if m := rvMarkers(r.Findings); (len(r.Blockers) > 0) == (len(m) > 0) {
			t.Errorf("%s: %d blockers and markers %v", dir, len(r.Blockers), m)
		}
	}
}

func TestGate(t *testing.T) {
	dir := ruleCase("err", "untrusted_external_url", "urls-everywhere")
	a := rvLoad(t, dir)
	out, blocked := gateJSON(a, nil)
	if !blocked {
		t.Fatal("not blocked")
	}
	var res struct {
		OK       *bool           `json:"ok"`
		Error    string          `json:"error"`
		Code     string          `json:"code"`
		Blockers []Finding       `json:"blockers"`
		Extra    json.RawMessage `json:"extra"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	n := len(review(a, Options{}).Blockers)
	if res.OK == nil || *res.OK {
		t.Errorf(`gate response lacks "ok": false (the README promises it): %.80s`, out)
	}
	if res.Code != "review_blocked" || res.Error != "review_blocked: "+strconv.Itoa(n)+" deterministic blockers" || len(res.Blockers) != n {
		t.Errorf("gate response %s / %s / %d blockers, want %d", res.Error, res.Code, len(res.Blockers), n)
	}
	if !bytes.HasPrefix(out, []byte(`{"ok":false,"error":"review_blocked: `+strconv.Itoa(n)+` deterministic blockers","code":"review_blocked","blockers":[{`)) {
		t.Errorf("gate response does not start with the exact shape: %.120s", out)
	}
	for _, f := range res.Blockers {
		if f.Severity != compile.Blocker {
			t.Errorf("non-blocker in gate response: %+v", f)
		}
	}
	// Idempotent: the same input gives byte-identical output, also when
	// loaded afresh.
	again, _ := gateJSON(rvLoad(t, dir), nil)
	if !bytes.Equal(out, again) {
		t.Error("gate output differs on repeat")
	}
	if bytes.HasSuffix(out, []byte("\n")) || bytes.Contains(out, []byte(`\u003e`)) {
		t.Error("gate output must be one line of unescaped JSON without a trailing newline")
	}
	// A clean agent passes; a config can silence a blocker rule.
	if out, blocked := gateJSON(rvLoad(t, ruleCase("ok", "untrusted_external_url", "ok-clean")), &Config{AllowedHosts: []string{"api.partner.example"}}); blocked {
		// Other rules (validator, flow graph) may block the synthetic fixture;
		// only the review scans must not.
		var r GateResult
		_ = json.Unmarshal(out, &r)
		for _, f := range r.Blockers {
			for _, c := range []string{"untrusted_external_url", "llm_bridge_missing_agent_id", "package_version_oas_pkg_drift"} {
				if f.Code == c {
					t.Errorf("clean fixture blocked by %s", c)
				}
			}
		}
	}
}

// gateJSON is the gate of a deterministic review of a with cfg, as
// `oastui compile` prints it.
func gateJSON(a *compile.Agent, cfg *Config) ([]byte, bool) {
	g := review(a, Options{Mode: ModeDeterministic, Config: cfg}).Gate
	if !g.Blocked() {
		return nil, false
	}
	return g.Response().JSON(), true
}

// The gate of a review in any mode is the deterministic review's: advisory
// markers and dry-run findings never count, even when the config makes one
// a blocker, and an ignore only the dry run uses is judged as the
// deterministic review judges it.
func TestGateInEveryMode(t *testing.T) {
	for _, dir := range []string{
		ruleCase("err", "untrusted_external_url", "urls-everywhere"),
		ruleCase("err", "start_node_inputs_without_required", "startnode-nested-inline"), // a dry-run blocker
		filepath.Join("..", "testdata", "agents", "oastui", "example-agent"),             // no blocker: advisory markers
	} {
		a := rvLoad(t, dir)
		cfg := &Config{Rules: map[string]string{RuleAdvisoryDispatchDeferred.Code: "blocker"}}
		want := review(a, Options{Mode: ModeDeterministic, Config: cfg}).Gate
		for _, m := range []Mode{ModeAdvisory, ModeFull} {
			r := review(a, Options{Mode: m, Config: cfg})
			if !reflect.DeepEqual(r.Gate, want) {
				t.Errorf("%s, mode %s: gate %d blockers, the deterministic review's %d", dir, m, len(r.Gate.Blockers), len(want.Blockers))
			}
		}
	}
}
