package tui

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/views"
)

func allBindings(km keyMap) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(km)
	for i := 0; i < v.NumField(); i++ {
		out[v.Type().Field(i).Name] = v.Field(i).Interface().(key.Binding)
	}
	return out
}

// TestHelpNamesItsKeys: every binding's help, and every row of every help
// screen, names each key it matches, so the help cannot drift from the
// keys.
func TestHelpNamesItsKeys(t *testing.T) {
	km := New(Config{}).keys
	check := func(where string, b key.Binding) {
		t.Helper()
		for _, k := range unnamedKeys(b) {
			t.Errorf("%s: help %q does not name key %q", where, b.Help().Key, k)
		}
	}
	for name, b := range allBindings(km) {
		if len(b.Keys()) == 0 {
			t.Errorf("%s has no keys", name)
		}
		check(name, b)
	}
	for _, g := range km.fullHelp() {
		for _, b := range g.Bindings {
			check("overlay "+g.Title, b)
		}
	}
	for _, b := range km.filterHelp()[1:] { // [0] is "type", no key
		check("filter line", b)
	}
	for _, b := range km.fixHelp(true) {
		check("fix preview line", b)
	}
	for _, b := range views.DefaultPickerKeyMap().Bindings() {
		check("picker", b)
	}
}

// TestEveryKeyHasHelp: each key a binding matches is named by some row of
// the overlay, the filter line or the fix preview's line (the workspace
// screen's keys are checked by its own test).
func TestEveryKeyHasHelp(t *testing.T) {
	km := New(Config{}).keys
	listed := map[string]bool{}
	add := func(bs []key.Binding) {
		for _, b := range bs {
			unnamed := unnamedKeys(b)
			for _, k := range b.Keys() {
				if !slices.Contains(unnamed, k) {
					listed[k] = true
				}
			}
		}
	}
	for _, g := range km.fullHelp() {
		add(g.Bindings)
	}
	add(km.filterHelp())
	add(km.fixHelp(true)) // the fix preview's own help line
	for name, b := range allBindings(km) {
		for _, k := range b.Keys() {
			if !listed[k] {
				t.Errorf("%s: key %q is handled but no help lists it", name, k)
			}
		}
	}
	// The overlay lists what the issue found missing.
	for _, k := range []string{"space", "H", "L", "g", "G"} {
		if !listed[k] {
			t.Errorf("help does not list %q", k)
		}
	}
}

// TestShortHelpKeepsItsLook: the one-line help shows the first key of each
// binding, as the hand-written line did.
func TestShortHelpKeepsItsLook(t *testing.T) {
	km := New(Config{}).keys
	line := func(bs []key.Binding) string {
		var parts []string
		for _, b := range bs {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
		return strings.Join(parts, " · ")
	}
	if got, want := line(km.shortHelp(true, false, "", lint.ModeDeterministic)),
		"tab focus · ↑↓ move · enter open subflow · ⌫ back · e edit · / filter · r reload · m advisory · ? help · q quit"; got != want {
		t.Errorf("graph line\n got %s\nwant %s", got, want)
	}
	if got, want := line(km.shortHelp(false, true, "p1", lint.ModeAdvisory)),
		"tab focus · ↑↓ move · 1-8 tabs · p pick context · P project: p1 · e edit · / filter · r reload · m full · ? help · q quit"; got != want {
		t.Errorf("slots line\n got %s\nwant %s", got, want)
	}
}

// TestSpacePagesText: space, listed in the help now, pages the Compiled
// tab down; g goes back to the top.
func TestSpacePagesText(t *testing.T) {
	p := fixture("subflow-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	press(m, "4")
	c := tabOf[*views.CompiledText](m)
	if c.Len() <= m.sideInnerH() {
		t.Fatalf("compiled output fits one page (%d lines)", c.Len())
	}
	press(m, "space")
	if c.Offset() == 0 {
		t.Error("space did not page down")
	}
	press(m, "g")
	if c.Offset() != 0 {
		t.Error("g did not go to the top")
	}
}

// unnamedKeys are the keys of b its help key does not name. A help key
// names keys by their words ("esc q"), arrows ("↑↓" names up and down) and
// digit ranges ("1-5"); up, down, left, right, backspace, shift+tab and
// pgdown are written ↑ ↓ ← → ⌫ ⇧tab pgdn.
func unnamedKeys(b key.Binding) []string {
	named := map[string]bool{}
	for _, w := range strings.Fields(b.Help().Key) {
		named[w] = true
		if strings.Trim(w, "↑↓←→") == "" {
			for _, r := range w {
				named[string(r)] = true
			}
		}
		if lo, hi, ok := strings.Cut(w, "-"); ok && len(lo) == 1 && len(hi) == 1 {
			for c := lo[0]; c <= hi[0]; c++ {
				named[string(c)] = true
			}
		}
	}
	symbol := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→",
		"backspace": "⌫", "shift+tab": "⇧tab", "pgdown": "pgdn"}
	var missing []string
	for _, k := range b.Keys() {
		s, ok := symbol[k]
		if !ok {
			s = k
		}
		if !named[s] {
			missing = append(missing, k)
		}
	}
	return missing
}
