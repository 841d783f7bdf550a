package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/testshared"
)

// applyFirstFix applies the first fix of the first finding of code in dir
// and returns the findings before.
func applyFirstFix(t *testing.T, dir, code string) []Finding {
	t.Helper()
	a, found := reviewDir(t, dir)
	for _, f := range found {
		if f.Code != code || len(f.Fixes) == 0 {
			continue
		}
		b := edit.Plan([]edit.Candidate{{ID: "x", Fixes: f.Fixes[:1]}})
		src := loadedSources(a)
		if _, err := b.Write(src); err != nil {
			t.Fatal(err)
		}
		for _, p := range b.Files() {
			got, _ := os.ReadFile(p)
			assertOutsideSpans(t, p, src[p], got, edit.EditsOf(b.Edits(), p))
		}
		return found
	}
	t.Fatalf("no fixable %s in %s:\n%s", code, dir, renderRuleFindings(found, code))
	return nil
}

func slotFindings(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if strings.HasPrefix(f.Code, "context_") {
			out = append(out, fmt.Sprintf("%s %s: %s", f.Code, f.Location, f.Message))
		}
	}
	return out
}

func compiledStepNodes(t *testing.T, dir string) []string {
	t.Helper()
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := compile.Compile(a)
	if err != nil {
		t.Fatalf("compile after the fix: %v", err)
	}
	var ids []string
	for _, s := range c.ApprovalPolicy.Steps {
		ids = append(ids, s.NodeID)
	}
	return ids
}

// The fix on the err fixture whose marked slot has no context FlowNode
// (its subflow calls the context-resolve URL with a trailing slash, which
// the platform's explicit-wiring test does not take): afterwards no
// context-slot finding, nothing new, and the compiled steps hold the new
// FlowNode (named with a suffix, the broken one keeping its id).
func TestWireContextSlotFixCompiles(t *testing.T) {
	dir := copyFixture(t, ruleCase("err", "context_slot_not_wired", "context-resolve-url-not-exact"))
	stepsBefore := compiledStepNodes(t, dir)
	if slices.Contains(stepsBefore, "context_draftContext_2") {
		t.Fatalf("the fixture already has the step: %v", stepsBefore)
	}
	before := applyFirstFix(t, dir, "context_slot_not_wired")
	_, after := reviewDir(t, dir)
	if s := slotFindings(after); len(s) > 0 {
		t.Errorf("context-slot findings remain:\n%s", strings.Join(s, "\n"))
	}
	cb, ca := codeCounts(before), codeCounts(after)
	for code, n := range ca {
		if n > cb[code] {
			t.Errorf("new %s finding:\n%s", code, renderRuleFindings(after, code))
		}
	}
	steps := compiledStepNodes(t, dir)
	if i := slices.Index(steps, "context_draftContext_2"); i < 0 {
		t.Errorf("compiled steps %v: want context_draftContext_2", steps)
	}
	// Applying it again is not offered: the slot is wired.
	_, again := reviewDir(t, dir)
	for _, f := range again {
		if f.Code == "context_slot_not_wired" {
			t.Errorf("still reported: %s", f.Message)
		}
	}
}

// The generator refuses shapes it cannot wire safely (no silent half fix).
func TestWireContextSlotRefuses(t *testing.T) {
	for _, src := range []string{
		`{"component_type":"Flow","nodes":[],"control_flow_connections":[]}`,
		`{"component_type":"Flow","start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"e"}],"control_flow_connections":[{"from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"e"}}],"$referenced_components":{"s":{"component_type":"StartNode"},"e":{"component_type":"EndNode"}}}`,
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "oas.json")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := compile.Load(p, compile.LoadOptions{Profile: compile.ProfileCinatra})
		if err != nil {
			t.Fatal(err)
		}
		if x, err := WireContextSlot(a.Flow, "@a/b", "s1"); err == nil {
			t.Errorf("%s: fix offered: %+v", src, x)
		}
	}
	if _, err := WireContextSlot(nil, "@a/b", "s1"); err == nil {
		t.Error("nil doc accepted")
	}
}

// unwire removes a corpus agent's wiring of slot (the FlowNode, its
// subflow, their edges, the slot's own Start inputs), reconnecting the
// control edge that entered the FlowNode to the consumer. The file is
// re-serialised: the comparison afterwards is structural.
func unwire(t *testing.T, path, slot string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	ctx := "context_" + slot
	refOf := func(v any) string {
		m, _ := v.(map[string]any)
		s, _ := m["$component_ref"].(string)
		return s
	}
	refs := d["$referenced_components"].(map[string]any)
	delete(refs, ctx)
	delete(refs, "context-"+slot+"-subflow")
	var nodes []any
	for _, n := range d["nodes"].([]any) {
		if refOf(n) != ctx {
			nodes = append(nodes, n)
		}
	}
	d["nodes"] = nodes
	consumer := ""
	for _, e := range d["control_flow_connections"].([]any) {
		if m := e.(map[string]any); refOf(m["from_node"]) == ctx {
			consumer = refOf(m["to_node"])
		}
	}
	var cfes []any
	for _, e := range d["control_flow_connections"].([]any) {
		m := e.(map[string]any)
		if refOf(m["from_node"]) == ctx {
			continue
		}
		if refOf(m["to_node"]) == ctx {
			m["to_node"] = map[string]any{"$component_ref": consumer}
		}
		cfes = append(cfes, m)
	}
	d["control_flow_connections"] = cfes
	fedOnly := map[string]bool{} // Start outputs fed to the FlowNode only
	var dfes []any
	for _, e := range d["data_flow_connections"].([]any) {
		m := e.(map[string]any)
		if refOf(m["destination_node"]) == ctx {
			if in := m["destination_input"]; in == "parentPackageName" || in == "slotId" {
				fedOnly[m["source_output"].(string)] = true
			}
			continue
		}
		if refOf(m["source_node"]) == ctx {
			continue
		}
		dfes = append(dfes, m)
	}
	d["data_flow_connections"] = dfes
	dropInputs := func(list any) []any {
		var out []any
		for _, it := range list.([]any) {
			if !fedOnly[it.(map[string]any)["title"].(string)] {
				out = append(out, it)
			}
		}
		return out
	}
	d["inputs"] = dropInputs(d["inputs"])
	start := refs[refOf(d["start_node"])].(map[string]any)
	start["inputs"] = dropInputs(start["inputs"])
	if md, ok := start["metadata"].(map[string]any); ok {
		if c, ok := md["cinatra"].(map[string]any); ok {
			var hidden []any
			for _, h := range c["hidden"].([]any) {
				if !fedOnly[h.(string)] {
					hidden = append(hidden, h)
				}
			}
			c["hidden"] = hidden
		}
	}
	out, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wiringShape is what the comparison with the original looks at: the
// component types of every component (recursively, by id), the order of
// the root's nodes, and each edge's ends (names of the Start inputs may
// differ: email-outreach shares contextParentPackageName/contextProjectId).
func wiringShape(t *testing.T, path string) (types map[string]string, nodes, cfes, dfes []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	refOf := func(v any) string {
		m, _ := v.(map[string]any)
		s, _ := m["$component_ref"].(string)
		return s
	}
	types = map[string]string{}
	var walk func(m map[string]any)
	walk = func(m map[string]any) {
		if r, ok := m["$referenced_components"].(map[string]any); ok {
			for id, c := range r {
				cm := c.(map[string]any)
				types[id], _ = cm["component_type"].(string)
				walk(cm)
			}
		}
		for _, e := range anyList(m["control_flow_connections"]) {
			em := e.(map[string]any)
			br, _ := em["from_branch"].(string)
			cfes = append(cfes, refOf(em["from_node"])+"→"+refOf(em["to_node"])+"/"+br)
		}
		for _, e := range anyList(m["data_flow_connections"]) {
			em := e.(map[string]any)
			dfes = append(dfes, refOf(em["source_node"])+"→"+refOf(em["destination_node"])+"."+em["destination_input"].(string))
		}
	}
	walk(d)
	for _, n := range anyList(d["nodes"]) {
		nodes = append(nodes, refOf(n))
	}
	slices.Sort(cfes)
	slices.Sort(dfes)
	return
}

func anyList(v any) []any { l, _ := v.([]any); return l }

// TestWireContextSlotOnBrokenCorpus: each slotted corpus agent, unwired,
// gets its wiring back from the fix: the same components (by id and
// type), the same node order, the same control and data edges; it
// re-lints with no context-slot finding and nothing the original lacks,
// and compiles with the context step.
func TestWireContextSlotOnBrokenCorpus(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	corpus, slugs := testshared.CorpusAgents(t)
	tried := 0
	for _, slug := range slugs {
		src, err := os.ReadFile(filepath.Join(corpus, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
		if err != nil {
			continue
		}
		var head struct {
			Metadata struct {
				Cinatra struct {
					ContextSlots []struct{ SlotID string } `json:"contextSlots"`
				} `json:"cinatra"`
			} `json:"metadata"`
		}
		if json.Unmarshal(src, &head) != nil || len(head.Metadata.Cinatra.ContextSlots) != 1 {
			continue
		}
		slot := head.Metadata.Cinatra.ContextSlots[0].SlotID
		t.Run(slug, func(t *testing.T) {
			tried++
			dir := copyCorpusAgent(t, corpus, slug)
			path := filepath.Join(dir, "cinatra", "oas.json")
			_, base := reviewDir(t, dir)
			types0, nodes0, cfes0, dfes0 := wiringShape(t, path)
			unwire(t, path, slot)
			// Unwired, the agent is in the slim form: the loader injects
			// the context step at mount, so nothing is reported that the
			// original did not have.
			a, slim := reviewDir(t, dir)
			// email-outreach's consumer, the FlowNode drafts_flow, declares
			// no inputs of its own (its subflow's are read through the
			// reference), and the loader finds consumers by their declared
			// inputs only: its slim form needs that input declared, and
			// the refusal says so.
			if slug == "email-outreach-agent" {
				var kept []Finding
				for _, f := range slim {
					if f.Code == RuleContextSlotMountRefused.Code && strings.Contains(f.Message, "(no-consumer)") {
						continue
					}
					kept = append(kept, f)
				}
				if len(kept) != len(slim)-1 {
					t.Errorf("email-outreach's slim form: want one no-consumer refusal:\n%s", strings.Join(slotFindings(slim), "\n"))
				}
				slim = kept
			}
			if s := slotFindings(slim); len(s) > 0 {
				t.Errorf("the slim form reports context-slot findings:\n%s", strings.Join(s, "\n"))
			}
			cb, cs := codeCounts(base), codeCounts(slim)
			for code, n := range cs {
				if n > cb[code] {
					t.Errorf("slim form: %s: %d, %d on the original:\n%s", code, n, cb[code], renderRuleFindings(slim, code))
				}
			}
			if ms := a.Model().Mount.Slot("", slot); ms == nil || ms.Form != compile.SlotSlim || ms.Refused != (slug == "email-outreach-agent") {
				t.Errorf("mount of the slim form: %+v", a.Model().Mount)
			}
			// The explicit wiring (the generator behind the fixes) puts
			// back exactly the corpus's own wiring.
			x, err := WireContextSlot(a.Flow, slotPackageName(a), slot)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := edit.Plan([]edit.Candidate{{ID: "x", Fixes: []edit.Fix{x}}}).Write(loadedSources(a)); err != nil {
				t.Fatal(err)
			}
			types1, nodes1, cfes1, dfes1 := wiringShape(t, path)
			if fmt.Sprint(types0) != fmt.Sprint(types1) {
				t.Errorf("components differ:\noriginal %v\nfixed    %v", types0, types1)
			}
			if !slices.Equal(nodes0, nodes1) {
				t.Errorf("nodes differ:\noriginal %v\nfixed    %v", nodes0, nodes1)
			}
			if !slices.Equal(cfes0, cfes1) {
				t.Errorf("control edges differ:\noriginal %v\nfixed    %v", cfes0, cfes1)
			}
			if !slices.Equal(dfes0, dfes1) {
				t.Errorf("data edges differ:\noriginal %v\nfixed    %v", dfes0, dfes1)
			}
			_, after := reviewDir(t, dir)
			if s := slotFindings(after); len(s) > 0 {
				t.Errorf("context-slot findings remain:\n%s", strings.Join(s, "\n"))
			}
			cb, ca := codeCounts(base), codeCounts(after)
			for code, n := range ca {
				if n > cb[code] {
					t.Errorf("%s: %d, %d on the original:\n%s", code, n, cb[code], renderRuleFindings(after, code))
				}
			}
			if steps := compiledStepNodes(t, dir); !slices.Contains(steps, "context_"+slot) {
				t.Errorf("compiled steps %v lack context_%s", steps, slot)
			}
		})
	}
	if tried < 3 {
		t.Errorf("the breakage applied to %d corpus agents, want the 3 slotted ones", tried)
	}
}

// The wiring follows the file's own style: a minified file stays on one
// line, a CRLF file gets no bare LF, a tab-indented file no space indent.
func TestWireContextSlotKeepsStyle(t *testing.T) {
	fixture := ruleCase("err", "context_slot_not_wired", "context-resolve-url-not-exact")
	for _, style := range []string{"minified", "crlf", "tabs"} {
		t.Run(style, func(t *testing.T) {
			dir := copyFixture(t, fixture)
			path := filepath.Join(dir, "cinatra", "oas.json")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			var out []byte
			switch style {
			case "minified":
				out, _ = json.Marshal(v)
			case "crlf":
				out, _ = json.MarshalIndent(v, "", "  ")
				out = []byte(strings.ReplaceAll(string(out), "\n", "\r\n") + "\r\n")
			case "tabs":
				out, _ = json.MarshalIndent(v, "", "\t")
				out = append(out, '\n')
			}
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			before := applyFirstFix(t, dir, "context_slot_not_wired")
			got, _ := os.ReadFile(path)
			if len(got) <= len(out) {
				t.Fatal("nothing written")
			}
			s := string(got)
			switch style {
			case "minified":
				var c bytes.Buffer
				if err := json.Compact(&c, got); err != nil || c.String() != s {
					t.Errorf("the minified file is no longer minified:\n%.400s", s)
				}
			case "crlf":
				if strings.Count(s, "\n") != strings.Count(s, "\r\n") {
					t.Error("a bare LF in a CRLF file")
				}
			case "tabs":
				if strings.Contains(s, "\n  ") {
					t.Error("space indentation in a tab-indented file")
				}
			}
			_, after := reviewDir(t, dir)
			cb, ca := codeCounts(before), codeCounts(after)
			if ca["context_slot_not_wired"] != 0 {
				t.Errorf("still not wired:\n%s", renderRuleFindings(after, "context_slot_not_wired"))
			}
			for code, n := range ca {
				if n > cb[code] {
					t.Errorf("new %s:\n%s", code, renderRuleFindings(after, code))
				}
			}
		})
	}
}
