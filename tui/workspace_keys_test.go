package tui

import (
	"reflect"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestWorkspaceKeysHaveHelp: every key the workspace screen handles is
// named by its `?` overlay (or, for the help's own close keys, by the
// binding itself), and each binding's help names its keys.
func TestWorkspaceKeysHaveHelp(t *testing.T) {
	km := newWSKeyMap()
	listed := map[string]bool{}
	for _, g := range km.fullHelp() {
		for _, b := range g.Bindings {
			for _, k := range b.Keys() {
				if !slices.Contains(unnamedKeys(b), k) {
					listed[k] = true
				}
			}
		}
	}
	v := reflect.ValueOf(km)
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		b := v.Field(i).Interface().(key.Binding)
		for _, k := range unnamedKeys(b) {
			t.Errorf("%s: help %q does not name key %q", name, b.Help().Key, k)
		}
		if name == "CloseHelp" || name == "ForceQuit" {
			continue // shown on the overlay itself / the same key as Quit
		}
		for _, k := range b.Keys() {
			if !listed[k] {
				t.Errorf("%s: key %q is handled but the overlay does not list it", name, k)
			}
		}
	}
}
