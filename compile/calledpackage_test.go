package compile

import (
	"fmt"
	"strings"
	"testing"
)

// TestCalledPackageOf: a FlowNode step's package name, read from the
// metadata.cinatra its step looked up (calledPackageOf), is CalledPackage's,
// whatever the shapes of metadata and cinatra; another type asks
// CalledPackage itself.
func TestCalledPackageOf(t *testing.T) {
	for _, src := range []string{
		`{"component_type":"FlowNode","metadata":{"cinatra":{"packageName":"@a/b"}}}`,
		`{"component_type":"FlowNode","metadata":{"cinatra":{"packageName":7}}}`,
		`{"component_type":"FlowNode","metadata":{"cinatra":{"packageName":null}}}`,
		`{"component_type":"FlowNode","metadata":{"cinatra":{}}}`,
		`{"component_type":"FlowNode","metadata":{"cinatra":["packageName"]}}`,
		`{"component_type":"FlowNode","metadata":{"cinatra":"x"}}`,
		`{"component_type":"FlowNode","metadata":[{"packageName":"@a/b"}]}`,
		`{"component_type":"FlowNode","metadata":null}`,
		`{"component_type":"FlowNode"}`,
		`{"component_type":"FlowNode","metadata":{"cinatra":{"packageName":"@a/b","packageName":"@c/d"}}}`,
		`{"component_type":"MapNode","metadata":{"cinatra":{"packageName":"@a/b"}}}`,
		`{"component_type":"ApiNode","metadata":{"cinatra":{"packageName":"@a/b"}}}`,
	} {
		d := ParseDoc("n.json", []byte(src))
		if d.Root == nil {
			t.Fatal(d.Err)
		}
		n := d.Root
		want := CalledPackage(n, nil)
		if got := calledPackageOf(n, path(n, "metadata", "cinatra"), ComponentType(n)); got != want {
			t.Errorf("%s: %v, CalledPackage %v", src, got, want)
		}
	}
}

// TestChildAgentsOwnEach: the FlowNode steps' childAgents, which the
// compiler hands out of shared arrays, are each their step's own (more
// steps than one array holds): distinct places, each with its node's
// package name, and a change to one leaves the others as they were.
func TestChildAgentsOwnEach(t *testing.T) {
	const n = 600
	var b strings.Builder
	b.WriteString(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"}`)
	for i := range n {
		fmt.Fprintf(&b, `,{"$component_ref":"n%d"}`, i)
	}
	b.WriteString(`,{"$component_ref":"e"}],"control_flow_connections":[`)
	prev := "s"
	for i := range n + 1 {
		to := fmt.Sprintf("n%d", i)
		if i == n {
			to = "e"
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"component_type":"ControlFlowEdge","id":"c%d","name":"c%d","from_node":{"$component_ref":"%s"},"to_node":{"$component_ref":"%s"}}`, i, i, prev, to)
		prev = to
	}
	b.WriteString(`],"data_flow_connections":[],"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"S","inputs":[],"outputs":[]},"e":{"component_type":"EndNode","id":"e","name":"E","inputs":[],"outputs":[]}`)
	for i := range n {
		fmt.Fprintf(&b, `,"n%d":{"component_type":"FlowNode","id":"n%d","name":"N%d","metadata":{"cinatra":{"packageName":"@acme/p%d"}},"subflow":{"$component_ref":"e"},"inputs":[],"outputs":[]}`, i, i, i, i)
	}
	b.WriteString(`}}`)
	dir := writePkg(t, map[string]string{"package.json": `{"name":"@acme/big","version":"1.0.0","cinatra":{"kind":"agent"}}`, "cinatra/oas.json": b.String()})
	a, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compile(a)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*ChildAgent]bool{}
	var cas []*ChildAgent
	for _, st := range out.ApprovalPolicy.Steps {
		if st.ChildAgent == nil {
			continue
		}
		if seen[st.ChildAgent] {
			t.Fatalf("step %s shares its childAgent", st.NodeID)
		}
		seen[st.ChildAgent] = true
		if want := "@acme/p" + strings.TrimPrefix(st.NodeID, "n"); st.ChildAgent.PackageName != want {
			t.Errorf("step %s: package %v, want %s", st.NodeID, st.ChildAgent.PackageName, want)
		}
		cas = append(cas, st.ChildAgent)
	}
	if len(cas) != n {
		t.Fatalf("%d childAgents, want %d", len(cas), n)
	}
	cas[0].PackageName = "changed"
	for _, ca := range cas[1:] {
		if ca.PackageName == "changed" {
			t.Fatal("a change to one step's childAgent shows in another's")
		}
	}
}
