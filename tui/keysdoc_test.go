package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/views"
)

// keysDoc is docs/keys.md: every key of the agent view and of the
// workspace, from the same bindings the ? overlay is built from (keys.go,
// workspace_keys.go), so the page cannot drift from what the keys do.
func keysDoc(tabs []string, agent, ws []views.HelpGroup) string {
	var b strings.Builder
	b.WriteString("# oastui keys\n\n")
	b.WriteString("<!-- Generated from tui/keys.go and tui/workspace_keys.go (the bindings the `?` overlay shows) by\n")
	b.WriteString("     `go test ./tui -run TestKeysDoc -update`; a test fails when this page and the code differ. -->\n\n")
	b.WriteString("`?` shows these keys in the TUI too; the line at the bottom of the screen shows the few that matter where you are.\n\n")
	b.WriteString("## An agent\n\n")
	nums := make([]string, len(tabs))
	for i, t := range tabs {
		nums[i] = fmt.Sprintf("%d %s", i+1, t)
	}
	fmt.Fprintf(&b, "The screen is the flow's graph beside %s tabs: %s.\n\n", numberWord(len(tabs)), strings.Join(nums, ", "))
	groups(&b, agent)
	b.WriteString("## The workspace (a tree of agents)\n\n")
	b.WriteString("Opened on a directory holding several agent packages (`oastui agents/`): the Agents table and the Graph tab.\n\n")
	groups(&b, ws)
	return b.String()
}

func groups(b *strings.Builder, gs []views.HelpGroup) {
	for _, g := range gs {
		fmt.Fprintf(b, "### %s\n\n", g.Title)
		if len(g.Bindings) > 0 {
			b.WriteString("| key | what it does |\n|---|---|\n")
			for _, k := range g.Bindings {
				h := k.Help()
				fmt.Fprintf(b, "| `%s` | %s |\n", strings.ReplaceAll(h.Key, "|", `\|`), strings.ReplaceAll(h.Desc, "|", `\|`))
			}
			b.WriteString("\n")
		}
		if len(g.Note) > 0 {
			b.WriteString(strings.Join(g.Note, " ") + "\n\n")
		}
	}
}

func numberWord(n int) string {
	if w := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}; n < len(w) {
		return w[n]
	}
	return fmt.Sprint(n)
}

// TestKeysDoc (issue 37): docs/keys.md is what keys.go says (rewrite it
// with -update).
func TestKeysDoc(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	var tabs []string
	for _, tab := range m.tabs {
		tabs = append(tabs, tab.Name())
	}
	got := keysDoc(tabs, m.keys.fullHelp(true), newWSKeyMap().fullHelp())
	for _, want := range []string{"eight tabs", "8 History", "`z`", "`f u`"} {
		if !strings.Contains(got, want) {
			t.Errorf("the keys page lacks %q", want)
		}
	}
	path := filepath.Join("..", "docs", "keys.md")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != got {
		t.Errorf("docs/keys.md differs from keys.go: go test ./tui -run TestKeysDoc -update")
	}
}
