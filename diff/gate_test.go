package diff

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/lint"
)

// TestValidateReasons (issue 35, point 3): lowering an approval-safety
// check needs a reason; other checks and raised levels do not.
func TestValidateReasons(t *testing.T) {
	for _, tc := range []struct {
		levels, reasons map[string]string
		bad             bool
	}{
		{map[string]string{"diff_risk_lowered": "off"}, nil, true},
		{map[string]string{"diff_approval_removed": "info"}, nil, true},
		{map[string]string{"diff_approval_removed": "warn"}, map[string]string{"diff_approval_removed": "x"}, false},
		{map[string]string{"diff_approval_added": "breaking"}, nil, false},
		{map[string]string{"diff_node_renamed": "off"}, nil, false},
	} {
		err := ValidateReasons(tc.levels, tc.reasons)
		if (err != nil) != tc.bad {
			t.Errorf("%v %v: %v", tc.levels, tc.reasons, err)
		}
		if err != nil && !strings.Contains(err.Error(), "reason:") {
			t.Errorf("the error shows no example: %v", err)
		}
	}
	n := SafetyNotices(map[string]string{"diff_risk_lowered": "off", "diff_node_renamed": "off"}, map[string]string{"diff_risk_lowered": "ok\x1b[31m"}, "/r/.oastui.yaml")
	if len(n) != 1 || !strings.Contains(n[0], "diff_risk_lowered") || strings.Contains(n[0], "\x1b") {
		t.Errorf("notices %q", n)
	}
}

// TestGateRelaxedNotLowered: no diff: setting lowers diff_gate_relaxed,
// and a level raised is no relaxation.
func TestGateRelaxedNotLowered(t *testing.T) {
	d := &differ{}
	d.gate(Options{BaseLevels: map[string]string{}, Levels: map[string]string{"diff_risk_lowered": "off", CheckGateRelaxed.ID: "off", "diff_node_renamed": "warn"}})
	d.levels(map[string]string{CheckGateRelaxed.ID: "off"})
	if len(d.out) != 1 || d.out[0].Check != CheckGateRelaxed.ID || d.out[0].Subject != "diff: diff_risk_lowered" || d.out[0].Level != Breaking {
		t.Errorf("changes %+v", d.out)
	}
}

// TestNoticesOnEveryFace (issue 35, point 3): Run says which safety check
// the config lowers (Result.Notices, computed once), and the JSON, markdown
// and github formats show it once per run however many agents it holds.
func TestNoticesOnEveryFace(t *testing.T) {
	fix := filepath.Join("testdata", "checks", "diff_prompt_changed")
	cfg := &analysis.ConfigResult{Path: "/r/.oastui.yaml", Config: &lint.Config{
		Diff:        map[string]string{"diff_risk_lowered": "off", "diff_node_renamed": "off"},
		DiffReasons: map[string]string{"diff_risk_lowered": "the gateway reviews risk"},
	}}
	req := Request{OldPath: filepath.Join(fix, "old"), NewPath: filepath.Join(fix, "new"), Config: cfg}
	r, err := Run(req)
	if err != nil {
		t.Fatal(err)
	}
	const want = `notice: approval-safety check diff_risk_lowered is set to off by /r/.oastui.yaml (reason: "the gateway reviews risk")`
	if len(r.Notices) != 1 || r.Notices[0] != want {
		t.Fatalf("notices %q", r.Notices)
	}
	r2, err := Run(req)
	if err != nil {
		t.Fatal(err)
	}
	doc := NewDocument([]*Result{r, r2})
	for name, want := range map[string]string{
		"json":     `"notices": [` + "\n" + `        "notice: approval-safety check diff_risk_lowered is set to off by /r/.oastui.yaml (reason: \"the gateway reviews risk\")"`,
		"markdown": `> notice: approval-safety check diff\_risk\_lowered is set to off by /r/.oastui.yaml (reason: "the gateway reviews risk")`,
		"github":   "::warning title=oastui diff::" + want,
	} {
		var b bytes.Buffer
		if err := Formats[name].Format(&b, doc, FormatOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), want); (name == "json" && n != 2) || (name != "json" && n != 1) {
			t.Errorf("%s shows the notice %d times:\n%.1500s", name, n, b.String())
		}
	}
	// No lowering, no notice.
	req.Config = &analysis.ConfigResult{}
	if r, err := Run(req); err != nil || r.Notices != nil {
		t.Errorf("notices %q, %v", r.Notices, err)
	}
}
