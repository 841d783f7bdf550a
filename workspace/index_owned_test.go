package workspace

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// namedSome lists the first duplicatesNamed of others (the first of n),
// then how many more: the message's list as findDuplicates made it
// before duplicateMessage (the oracle of TestDuplicateMessageAsConcatenated).
func namedSome(others []string, n int) string {
	if n <= duplicatesNamed {
		return strings.Join(others, ", ")
	}
	return strings.Join(others[:duplicatesNamed], ", ") + " and " + strconv.Itoa(n-duplicatesNamed) + " more"
}

// duplicateMessageConcatenated is the message as findDuplicates wrote it
// before issue 39's round twenty-two, the oracle of duplicateMessage.
func duplicateMessageConcatenated(self, name string, others []string, n int, first string) string {
	also := "the package in " + others[0] + " is"
	if n > 1 {
		also = "the packages in " + namedSome(others, n) + " are"
	}
	res := "child look-ups resolve to this one"
	if first != "" {
		res = "child look-ups resolve to " + first + ", never to this one"
	}
	return self + " is named " + name + ", and " + also + " named so too: " + res
}

// duplicateMessage writes what the concatenation wrote, for random paths
// and names, one other copy to many, this copy the first or not.
// Mutants caught: " are" written as " is", the " and N more" dropped,
// n > 1 as n > 2.
func TestDuplicateMessageAsConcatenated(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 39))
	word := func() string {
		return strings.Repeat(string(rune('a'+r.IntN(26))), 1+r.IntN(30)) + "/é" + strconv.Itoa(r.IntN(1000))
	}
	for range 2000 {
		n := 1 + r.IntN(9)
		var others []string
		for range min(n, duplicatesNamed) {
			others = append(others, word())
		}
		first := ""
		if r.IntN(2) == 0 {
			first = word()
		}
		self, name := word(), "@"+word()
		if got, want := duplicateMessage(self, name, others, n, first), duplicateMessageConcatenated(self, name, others, n, first); got != want {
			t.Fatalf("n %d:\n got %q\nwant %q", n, got, want)
		}
	}
}

// randomAgents is a tree of n agents with random IDs (some the same: a
// duplicate name), Dirs (some the same under another name) and children
// (some named by no agent, some by several).
func randomAgents(r *rand.Rand, n int) []Agent {
	names := []string{"", "@acme/a", "@acme/b", "@acme/c", "@x/d", "@x/e"}
	agents := make([]Agent, n)
	for i := range agents {
		a := &agents[i]
		a.Dir = fmt.Sprintf("agents/%d/p%d", r.IntN(4), r.IntN(n))
		a.Rel = a.Dir[len("agents/"):]
		a.Package = names[r.IntN(len(names))]
		a.PackageFile = a.Dir + "/package.json"
		a.Version = fmt.Sprintf("1.%d.0", r.IntN(3))
		a.Parsed = true
		a.NameLine, a.NameColumn = 2, 3
		a.Title = strconv.Itoa(i) // tells apart agents of one ID and Dir
		for k := range r.IntN(5) {
			a.Children = append(a.Children, Child{Package: names[1+r.IntN(len(names)-1)] + []string{"", "-gone"}[r.IntN(2)],
				Range: []string{"", "^1.0.0", "^2.0.0"}[r.IntN(3)], Via: fmt.Sprintf("FlowNode %q", strconv.Itoa(k)),
				File: a.Dir + "/cinatra/oas.json", Pointer: "/nodes/" + strconv.Itoa(k), Line: k + 1, Column: 1})
		}
	}
	return agents
}

// byIDInPlace orders agents as byID's copy does, for random trees with
// ties of ID and Dir (kept in their order). Mutant caught: the cycle's
// last place not given the saved agent (agents[j] = tmp dropped).
func TestByIDInPlaceAsByID(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 22))
	for n := range 60 {
		agents := randomAgents(r, n)
		want := byID(agents)
		got := slices.Clone(agents)
		byIDInPlace(got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d agents: in place %v, want %v", n, ids(got), ids(want))
		}
	}
}

func ids(agents []Agent) []string {
	var out []string
	for _, a := range agents {
		out = append(out, a.ID()+"@"+a.Dir+"#"+a.Title)
	}
	return out
}

// indexState is what an Index holds, the unexported edges included, as
// text to compare two builds.
func indexState(ix *Index) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%#v\n%#v\n%#v\n", ix.Agents, ix.Findings, ix.Suppressed)
	for i, es := range ix.edges {
		fmt.Fprintf(&b, "%d:", i)
		for _, e := range es {
			fmt.Fprintf(&b, " {%d %#v", e.to, e.child)
			if e.missing != nil {
				fmt.Fprintf(&b, " missing %#v", *e.missing)
			}
			if e.mismatch != nil {
				fmt.Fprintf(&b, " mismatch %#v", *e.mismatch)
			}
			b.WriteString("}")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// BuildOwned builds the index Build builds (agents, findings, suppressed
// findings, every edge with what the config left of it) for random trees
// and the corpus tree, and every agent's edges have no spare capacity (an
// append to one copies instead of writing over the next agent's).
// Mutants caught: the edges carved as edges[:0] (their capacity the
// rest of the array: an agent's edges written over by the next one's),
// byIDInPlace skipped in BuildOwned (the agents unordered).
func TestBuildOwnedAsBuild(t *testing.T) {
	check := func(t *testing.T, what string, agents []Agent) {
		t.Helper()
		want := indexState(Build("agents", agents, nil))
		ix := BuildOwned("agents", slices.Clone(agents), nil)
		if got := indexState(ix); got != want {
			t.Fatalf("%s: BuildOwned's index differs from Build's:\n got %s\nwant %s", what, got, want)
		}
		for i, es := range ix.edges {
			if cap(es) != len(es) {
				t.Fatalf("%s: agent %d's edges: len %d cap %d", what, i, len(es), cap(es))
			}
		}
	}
	r := rand.New(rand.NewPCG(22, 24))
	for n := 0; n < 40; n += 6 {
		check(t, fmt.Sprintf("%d random agents", n), randomAgents(r, n))
	}
	t.Run("corpus", func(t *testing.T) {
		root := filepath.Join(testshared.Corpus(t), "agents")
		check(t, "the corpus tree", review(t, root).Agents)
	})
}
