package lint

import (
	"strings"
	"testing"
)

// The diff: section sets levels of oastui diff's checks; a level or a key
// that is not one is a config error with its line.
func TestConfigDiffSection(t *testing.T) {
	c, err := ParseConfig("c.yaml", []byte("diff:\n  diff_node_removed: info\n  diff_prompt_changed: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Diff["diff_node_removed"] != "info" || c.Diff["diff_prompt_changed"] != "off" {
		t.Errorf("Diff = %v", c.Diff)
	}
	for src, want := range map[string]string{
		"diff:\n  diff_node_removed: fatal\n": `c.yaml:2: diff: diff_node_removed: level "fatal"`,
		"diff:\n  node_removed: info\n":       `c.yaml:2: diff: "node_removed" is not a check id`,
		"diff: [a]\n":                         "c.yaml:1: diff must be a mapping",
	} {
		if _, err := ParseConfig("c.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", src, err, want)
		}
	}
}
