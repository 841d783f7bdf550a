package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/lint"
)

func runRulesCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"rules"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// TestRulesJSON: the JSON list is every rule of lint.All, in its order,
// with every field; the loading rules and the security tags are there.
func TestRulesJSON(t *testing.T) {
	code, out, errs := runRulesCmd(t, "--format", "json")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []ruleEntry
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(got) != len(lint.All) || len(got) < 100 {
		t.Fatalf("%d rules listed, lint.All has %d", len(got), len(lint.All))
	}
	for i, r := range lint.All {
		want := ruleEntry{Code: r.Code, Severity: string(r.Severity), Group: r.Group, Profiles: r.ProfileNames(), Tags: r.Tags, Doc: r.Doc,
			Fixable: r.Fixable(), Fixes: append([]string{}, r.AutoFixes...), FixTiers: []string{}}
		for _, tier := range r.FixTiers {
			want.FixTiers = append(want.FixTiers, string(tier))
		}
		if want.Tags == nil {
			want.Tags = []string{}
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("rule %d: got %+v, want %+v", i, got[i], want)
		}
	}
	byCode := map[string]ruleEntry{}
	for _, e := range got {
		byCode[e.Code] = e
	}
	for code, group := range map[string]string{"invalid_json": "loading", "duplicate_key": "loading", "package_json_invalid": "loading",
		"unused_ignore": "review", "branch_unknown": "flowgraph", "OAS-RUNTIME-001": "validator"} {
		if byCode[code].Group != group {
			t.Errorf("%s: group %q, want %q", code, byCode[code].Group, group)
		}
	}
	if e := byCode["untrusted_external_url"]; !reflect.DeepEqual(e.Tags, []string{"security"}) || !reflect.DeepEqual(e.Profiles, []string{"cinatra"}) {
		t.Errorf("untrusted_external_url: %+v", e)
	}
	if e := byCode["package_name_mismatch"]; !e.Fixable || len(e.Fixes) != 1 || byCode["invalid_json"].Fixable || byCode["invalid_json"].Fixes == nil {
		t.Errorf("fixable: %+v / %+v", e, byCode["invalid_json"])
	}
	if !strings.Contains(out, `"tags": []`) {
		t.Error("a rule without tags must print tags: [] (stable shape), not null")
	}
	_, again, _ := runRulesCmd(t, "--format", "json")
	if again != out {
		t.Error("two runs differ")
	}
}

// TestRulesText: two lines a rule, in list order; the header names code,
// severity, group, profiles and tags, the second line is the doc.
func TestRulesText(t *testing.T) {
	code, out, errs := runRulesCmd(t)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2*len(lint.All) {
		t.Fatalf("%d lines for %d rules", len(lines), len(lint.All))
	}
	for i, r := range lint.All {
		head, doc := lines[2*i], lines[2*i+1]
		want := r.Code + "  " + string(r.Severity) + "  " + r.Group + "  " + strings.Join(r.ProfileNames(), ",")
		if len(r.Tags) > 0 {
			want += "  [" + strings.Join(r.Tags, ",") + "]"
		}
		if r.Fixable() {
			want += "  fixable"
		}
		if head != want {
			t.Errorf("line %d: %q, want %q", 2*i+1, head, want)
		}
		if doc != "    "+r.Doc {
			t.Errorf("line %d: %q, want the doc of %s", 2*i+2, doc, r.Code)
		}
	}
	if lines[0] != "agent_read_failed  blocker  loading  cinatra,agentspec" {
		t.Errorf("first line %q", lines[0])
	}
}

func TestRulesBadFormat(t *testing.T) {
	code, out, errs := runRulesCmd(t, "--format", "sarif")
	if code != exitUsage || out != "" || !strings.Contains(errs, `unknown --format "sarif"`) {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
}
