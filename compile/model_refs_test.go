package compile

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// refSitesByHand are the uses of model m's document as a Model written by
// hand finds them (WalkNodes, RefID and the Flow found through the
// parents): the oracle of TestRefSitesOnFirstUse, and what buildModel's
// walk collected for every document before refSites found them on first
// use.
func refSitesByHand(m *Model) []RefSite {
	return (&Model{root: m.root, byNode: m.byNode}).RefNodes()
}

func sameRefSites(t *testing.T, name string, a *Agent) int {
	t.Helper()
	m := a.Model()
	got, want := m.RefNodes(), refSitesByHand(m)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: uses found on first use\n%v\nwant (by hand)\n%v", name, got, want)
	}
	if again := m.RefNodes(); len(again) > 0 && &again[0] != &got[0] {
		t.Fatalf("%s: the uses are found again on a second call", name)
	}
	if u := m.Uses(); len(u.All) != len(want) {
		t.Fatalf("%s: Uses lists %d uses, want %d", name, len(u.All), len(want))
	}
	return len(got)
}

// TestRefSitesOnFirstUse: the uses a model finds on first use (refSites:
// its own walk, with the innermost Flow of each) are those a walk of the
// whole document finds with each one's Flow through the parents, in
// random nested Flows with repeated and non-string $component_ref keys,
// and in every agent of the corpus and its history.
func TestRefSitesOnFirstUse(t *testing.T) {
	rng := rand.New(rand.NewSource(2339))
	ids := []string{"a", "b", "x"}
	var ref func() string
	ref = func() string {
		switch rng.Intn(7) {
		case 0:
			return `{"component_type":"EndNode","name":"inline","m":{"$component_ref":"b"}}`
		case 1:
			return `{"$component_ref":2,"$component_ref":"` + ids[rng.Intn(len(ids))] + `"}` // the last wins
		case 2:
			return `{"$component_ref":"a","$component_ref":null}`
		case 3:
			return `[{"$component_ref":"x"}]`
		}
		return `{"$component_ref":"` + ids[rng.Intn(len(ids))] + `"}`
	}
	def := func() string {
		if rng.Intn(2) == 0 {
			return fmt.Sprintf(`{"component_type":"FlowNode","id":"s","subflow":%s}`, flowSrc(rng, ids, ref, nil))
		}
		return `{"component_type":"Flow","$component_ref":"a","nodes":[` + ref() + `]}` // a use that is a Flow
	}
	found := 0
	for range 300 / race.Stride(8) {
		src := flowSrc(rng, ids, ref, def)
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", []byte(src))}
		if a.Flow.Root == nil {
			t.Fatalf("random Flow does not parse: %s", src)
		}
		found += sameRefSites(t, src, a)
	}
	if found < 1000/race.Stride(8) {
		t.Errorf("only %d uses compared", found)
	}
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		a, err := Load(dir, LoadOptions{})
		if err != nil || a.Flow == nil || a.Flow.Root == nil {
			return
		}
		sameRefSites(t, dir, a)
	})
}
