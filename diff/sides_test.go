package diff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// fixtureSides are the agent directories of the check fixtures and the
// cases, both sides: the agents Run's sides are checked on.
func fixtureSides(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pat := range []string{"testdata/checks/*/*", "testdata/cases/*/*"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range m {
			if st, err := os.Stat(filepath.Join(d, "package.json")); err == nil && !st.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 100 {
		t.Fatalf("%d fixture sides: the fixtures moved?", len(dirs))
	}
	return dirs
}

// TestPromptTextLaterSameSnapshot: a side analysed without its prompt
// report, the report added afterwards (Run's new side), has the same
// review, compiled output, slots and prompt report as the side analysed
// with it in one Run (Run's old side, and both sides before).
func TestPromptTextLaterSameSnapshot(t *testing.T) {
	for i, dir := range fixtureSides(t) {
		if race.Enabled && i%4 != 0 {
			continue // a quarter under -race (each side is analysed twice); all of them without
		}
		whole := sideOptions(nil)
		whole.Agent = mustLoad(t, dir)
		want := analysis.Run(dir, whole)

		later := sideOptions(nil)
		later.Agent = mustLoad(t, dir)
		if !promptTextLater(&later) {
			t.Fatalf("%s: no budget in the fixture, yet its prompt report is not made later", dir)
		}
		got := analysis.Run(dir, later)
		if got.Prompts != nil {
			t.Fatalf("%s: the prompt report was made with the review", dir)
		}
		got.FlowModels()
		got.AddPromptText()
		if (want.Prompts == nil) != (got.Prompts == nil) {
			t.Fatalf("%s: prompt report %v, want %v", dir, got.Prompts != nil, want.Prompts != nil)
		}
		for _, part := range []struct {
			name      string
			got, want any
		}{
			{"review", got.Review, want.Review},
			{"compiled", got.Compiled, want.Compiled},
			{"slots", got.Slots, want.Slots},
			{"prompts", got.Prompts, want.Prompts},
			{"config", got.Config, want.Config},
		} {
			g, err1 := json.Marshal(part.got)
			w, err2 := json.Marshal(part.want)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %s: %v %v", dir, part.name, err1, err2)
			}
			if string(g) != string(w) {
				t.Errorf("%s: the %s differs when the prompt report is made later:\n got %.300s\nwant %.300s", dir, part.name, g, w)
			}
		}
		if !reflect.DeepEqual(view(got).prompts, view(want).prompts) {
			t.Errorf("%s: the view's prompts differ", dir)
		}
	}
}

// TestPromptTextLaterDecides: the new side's prompt report waits for the
// old side's view unless its review reads it (a prompt budget); the side's
// config is resolved once and handed in.
func TestPromptTextLaterDecides(t *testing.T) {
	budgeted := filepath.Join("..", "lint", "testdata", "rules", "err", "prompt_budget_exceeded")
	plain := fixtureSides(t)[0]
	limited := analysis.ConfigFor(analysis.Options{}, mustLoad(t, budgeted))
	if limited.Config == nil || !limited.Config.Budget.Limited() {
		t.Fatalf("%s: its .oastui.yaml sets no budget (%v)", budgeted, limited.Err)
	}
	for _, tc := range []struct {
		name     string
		agent    string // "" : not loaded
		config   *analysis.ConfigResult
		later    bool
		resolved bool // a config is handed in afterwards
	}{
		{"not loaded: in turn", "", nil, false, false},
		{"no config", plain, nil, true, true},
		{"a config without a budget handed in", plain, &analysis.ConfigResult{}, true, true},
		{"a budget found beside the agent", budgeted, nil, false, true},
		{"a budget handed in", plain, &limited, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			side := sideOptions(tc.config)
			if tc.agent != "" {
				side.Agent = mustLoad(t, tc.agent)
			}
			if got := promptTextLater(&side); got != tc.later {
				t.Fatalf("promptTextLater = %v, want %v", got, tc.later)
			}
			if has := side.Stages&analysis.StagePromptText != 0; has == tc.later {
				t.Errorf("StagePromptText left %v, want %v", has, !tc.later)
			}
			if (side.Config != nil) != tc.resolved {
				t.Errorf("config handed in: %v, want %v", side.Config != nil, tc.resolved)
			}
			if tc.config != nil && side.Config != tc.config {
				t.Error("the config handed in was replaced")
			}
		})
	}
}

func mustLoad(t *testing.T, dir string) *compile.Agent {
	t.Helper()
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return a
}

// TestAtOnceRaisesOnTheWaiter: what atOnce runs is done when the wait
// returns, and its panic is raised again on the waiting goroutine, where
// the caller can recover it.
func TestAtOnceRaisesOnTheWaiter(t *testing.T) {
	ran := false
	atOnce(func() { ran = true })()
	if !ran {
		t.Fatal("the wait returned before f ran")
	}
	var got any
	func() {
		defer func() { got = recover() }()
		wait := atOnce(func() { panic("side failed") })
		wait()
	}()
	if got != "side failed" {
		t.Fatalf("recovered %v on the waiting goroutine, want f's panic", got)
	}
}
