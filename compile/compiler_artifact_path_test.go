package compile

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// TestMaterializeNodesAsBefore: the materialize walk, which keeps the
// path to the component it visits as a stack of steps (joined only for
// an error), refuses what the walk that allocated a linked step per
// component refused (collectMaterializeNodesBefore), with the same
// paths: random trees of components under $referenced_components and
// subflows, nested Flows, passthrough ApiNodes refused at every depth (a
// sibling's path must not leak into the next one's), keys with dots and
// repeated keys; the hostile flows; and every corpus agent's flow.
func TestMaterializeNodesAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(19))
	keys := []string{"a", "b", "a.b", "n1", "n2", "", "$x"}
	var comp func(depth int) any
	comp = func(depth int) any {
		if depth > 4 || r.Intn(6) == 0 {
			return []any{"x", 1, nil}[r.Intn(3)] // not an object
		}
		m := map[string]any{}
		switch r.Intn(4) {
		case 0, 1:
			m["component_type"] = "ApiNode"
			if r.Intn(3) > 0 {
				m["url"] = "https://h/api/agents/passthrough/x"
				m["id"] = keys[r.Intn(len(keys))]
				switch r.Intn(3) {
				case 0:
					m["data"] = map[string]any{"tool": "{{t}}"}
				case 1:
					m["data"] = map[string]any{"tool": "artifact_materialize", "input": "x"}
				}
			}
		case 2:
			m["component_type"] = "FlowNode"
		default:
			m["component_type"] = "Flow"
		}
		if r.Intn(2) == 0 {
			rc := map[string]any{}
			for i := r.Intn(4); i > 0; i-- {
				rc[keys[r.Intn(len(keys))]] = comp(depth + 1)
			}
			m["$referenced_components"] = rc
		}
		if r.Intn(3) == 0 {
			m["subflow"] = comp(depth + 1)
		}
		return m
	}
	check := func(t *testing.T, name string, root *Node) int {
		t.Helper()
		bridge := bridgeDataOf(root)
		got := collectMaterializeNodes(root, true, []string{"report"}, nil, bridge)
		want := collectMaterializeNodesBefore(root, true, []string{"report"}, nil, bridge)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", name, got, want)
		}
		return len(got)
	}
	refused, deep := 0, 0
	for c := 0; c < 1500/race.Stride(8); c++ {
		b, err := json.Marshal(comp(0))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if r.Intn(4) == 0 { // a repeated key: the last one wins
			src = strings.Replace(src, `{"$referenced_components":`, `{"subflow":{"component_type":"ApiNode"},"$referenced_components":`, 1)
		}
		root := ParseDoc("oas.json", []byte(src)).Root
		if root == nil {
			continue
		}
		n := check(t, fmt.Sprint("case ", c, ": ", src), root)
		refused += n
		if n > 0 && strings.Count(src, "$referenced_components")+strings.Count(src, "subflow") > 2 {
			deep++
		}
	}
	if refused < 20 || deep < 5 {
		t.Fatalf("%d refusals, %d in nested trees: the random trees do not exercise the paths", refused, deep)
	}
	for _, valid := range []bool{false, true} {
		if root := ParseDoc("oas.json", hostile.Flow(300, valid)).Root; root != nil {
			check(t, fmt.Sprint("hostile flow, valid ", valid), root)
		}
	}
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for k, slug := range slugs {
			if k%race.Stride(4) != 0 {
				continue
			}
			a, err := Load(filepath.Join(dir, "agents", "cinatra-ai", slug), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Flow != nil && a.Flow.Root != nil {
				check(t, slug, a.Flow.Root)
			}
		}
	})
}

// collectMaterializeNodesBefore is collectMaterializeNodes as it was: a
// linked step allocated per component visited.
func collectMaterializeNodesBefore(root *Node, known bool, produces []string, refs []producesRef, bridgeData map[*Node]bool) []ArtifactRefusal {
	type linkedStep struct {
		up        *linkedStep
		text, key string
	}
	var str func(p *linkedStep) string
	str = func(p *linkedStep) string {
		if p.up == nil {
			return p.text + p.key
		}
		return str(p.up) + p.text + p.key
	}
	var errs []ArtifactRefusal
	var visit func(n *Node, refKey string, at *linkedStep, depth int)
	visit = func(n *Node, refKey string, at *linkedStep, depth int) {
		if !n.Is(Object) || depth > MaxDepth {
			return
		}
		var ct, rc, sf *Node
		for i := range n.Members {
			switch m := &n.Members[i]; m.Key {
			case "component_type":
				ct = m.Value
			case "$referenced_components":
				rc = m.Value
			case "subflow":
				sf = m.Value
			}
		}
		if ct.StringOr("") == "ApiNode" {
			if u, ok := n.Get("url").Str(); ok && strings.Contains(u, "/api/agents/passthrough") {
				errs = append(errs, checkMaterializeNode(n, refKey, str(at), known, produces, refs, bridgeData[n])...)
			}
		}
		if rc.Is(Object) {
			for _, e := range entries(rc) {
				visit(e.Value, e.Key, &linkedStep{up: at, text: ".$referenced_components.", key: e.Key}, depth+1)
			}
		}
		if sf.Is(Object) {
			visit(sf, refKey, &linkedStep{up: at, text: ".subflow"}, depth+1)
		}
	}
	visit(root, "$", &linkedStep{text: "$"}, 0)
	return errs
}
