package dryrun

import (
	"strings"
	"testing"
)

// TestSummary (issue 37): one line per path with the branches that tell
// it apart; a branch every path takes is left out; nested steps count.
func TestSummary(t *testing.T) {
	res := &Result{Paths: []Path{
		{ID: 1, Status: StatusEnd, End: "done", Steps: []Step{{Node: "gate", Branch: "yes"}, {Node: "size", Branch: "big"}, {Node: "inner", Depth: 1, Branch: "a"}}},
		{ID: 2, Status: StatusEnd, End: "done", Steps: []Step{{Node: "gate", Branch: "yes"}, {Node: "size", Branch: "small"}}},
		{ID: 3, Status: StatusStuck, Steps: []Step{{Node: "gate", Branch: "yes"}, {Node: "size", Branch: "small"}}},
	}}
	want := []string{
		"3 paths:",
		"  path 1: end at done, 3 steps; size → big, inner → a",
		"  path 2: end at done, 2 steps; size → small",
		"  path 3: stuck, 2 steps; size → small",
	}
	if got := Summary(res); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	one := &Result{Paths: []Path{{ID: 1, Status: StatusEnd, End: "e", Steps: []Step{{Node: "s"}}}}}
	if got := Summary(one); len(got) != 2 || got[1] != "  path 1: end at e, 1 step" {
		t.Errorf("one path: %q", got)
	}
	if Summary(&Result{}) != nil || Summary(nil) != nil {
		t.Error("a summary of no paths")
	}
}
