package diff

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testgit"
)

// TestAnalyzeSides: OpenRev opens a revision from an agent's directory or
// a file in it; AnalyzeSides reads each agent as that revision has it (the
// agent before its polish step), hands over only the agents the revision
// holds, and gives what Run reads the side as; AnalyzeSide says which
// side holds the agent.
func TestAnalyzeSides(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	g, err := OpenRev(filepath.Join(dir, "cinatra", "oas.json"), "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := OpenRev(dir, "no-such-rev"); err == nil {
		t.Error("a revision git cannot read opened")
	}
	gone := filepath.Join(filepath.Dir(dir), "no-such-agent")
	var got []int
	var old *analysis.Snapshot
	AnalyzeSides([]string{gone, dir}, g, sideOptions(nil), func(i int, s *analysis.Snapshot) {
		got = append(got, i)
		old = s
	})
	if len(got) != 1 || got[0] != 1 || old.Agent == nil {
		t.Fatalf("sides handed over: %v (%v)", got, old)
	}
	var ids []string
	for _, c := range Diff(old, Analyze(dir, nil, nil), Options{}).Changes {
		ids = append(ids, c.Check+"("+c.Node+")")
	}
	if s := strings.Join(ids, " "); !strings.Contains(s, "diff_node_added(polish)") {
		t.Errorf("the old revision against the disk: %s", s)
	}
	if d := Diff(old, Analyze(dir, g, nil), Options{}); len(d.Changes) != 0 {
		t.Errorf("AnalyzeSides and Analyze read the revision differently: %+v", d.Changes)
	}
	if _, has := AnalyzeSide(gone, g, sideOptions(nil)); has {
		t.Error("a missing agent is held by the revision")
	}
	if s, has := AnalyzeSide(dir, g, sideOptions(nil)); !has || s.Agent == nil {
		t.Errorf("the agent is not held by the revision: %v", s.LoadErr)
	}
}

// TestLoadSides: the two sides are loaded at once, each as its revision has
// it (the old one without the polish step); a side that does not load, an
// old side Run does not read (a root commit) and loads into lent memory
// are left to the analyses, which load them as they always have.
func TestLoadSides(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	g, err := OpenRev(dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	o, n := loadSides(dir, g, true, dir, nil, compile.LoadOptions{})
	if o == nil || n == nil {
		t.Fatalf("sides loaded: %v %v", o, n)
	}
	polish := func(a *compile.Agent) bool { return strings.Contains(fmt.Sprint(a.Flow.Root.Interface()), "polish") }
	if polish(o) || !polish(n) {
		t.Errorf("the old side read from the disk or the new one from the revision: %v %v", polish(o), polish(n))
	}
	gone := filepath.Join(filepath.Dir(dir), "no-such-agent")
	if o, n := loadSides(gone, g, true, dir, nil, compile.LoadOptions{}); o != nil || n == nil {
		t.Errorf("a side that does not load: %v %v", o, n)
	}
	if o, n := loadSides(dir, g, false, dir, nil, compile.LoadOptions{}); o != nil || n != nil {
		t.Errorf("without the old side: %v %v", o, n)
	}
	if o, n := loadSides(dir, g, true, dir, nil, compile.LoadOptions{Blocks: &compile.Blocks{}}); o != nil || n != nil {
		t.Errorf("into lent memory: %v %v", o, n)
	}
}
