package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oastui/oastui/views"
)

// Secrets of the secrets-everywhere fixture: two Anthropic keys, GitHub
// tokens and URL passwords, in prompts, node names and URLs.
var (
	tuiSecretRes = []*regexp.Regexp{
		regexp.MustCompile(`sk-ant-api03-[\w-]{93}AA`),
		regexp.MustCompile(`ghp_[A-Za-z0-9]{36}`),
	}
	tuiURLPasswordRe = regexp.MustCompile(`://[^:/"@]+:([^@/"]+)@`)
)

// leaked reports the secrets of which any 12 characters past the first
// four (what a mask may show) appear in text.
func leaked(text string, secrets []string) []string {
	var out []string
	for _, s := range secrets {
		for i := 4; i+12 <= len(s); i += 4 {
			if strings.Contains(text, s[i:i+12]) {
				out = append(out, s[:4]+"…")
				break
			}
		}
	}
	return out
}

// secretLeaf is the leaf fixture with a GitHub token in a node's name and
// an Anthropic key in the system prompt the Compiled tab shows.
func secretLeaf(t *testing.T) (dir string, secrets []string) {
	gh := "ghp_R7dK2mP9xQ4vL8nT3wZ6yB1cF5hJ0sA2eG4i"
	ant := "sk-ant-api03-" + strings.Repeat("Zq7Xw2Vb9Nm4Lk8Jh3Gf6Ds1Ap5", 4)[:93] + "AA"
	dir = copyDir(t, filepath.Join("..", "testdata", "agents", "oastui", "leaf-agent"))
	p := filepath.Join(dir, "cinatra", "oas.json")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(string(src), `"name": "Summarise topic"`, `"name": "Summarise `+gh+`"`, 1)
	out = strings.Replace(out, `"You write a concise`, `"Call with key `+ant+`. You write a concise`, 1)
	if out == string(src) || strings.Count(out, gh)+strings.Count(out, ant) < 2 {
		t.Fatal("leaf fixture changed: the secrets were not placed")
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, []string{gh, ant}
}

// everywhereSecrets are the secrets of the secrets-everywhere fixture: two
// Anthropic keys, GitHub tokens and URL passwords, in headers and URLs.
func everywhereSecrets(t *testing.T) (dir string, secrets []string) {
	dir = filepath.Join("..", "lint", "testdata", "rules", "err", "literal_credential_detected", "secrets-everywhere")
	src, err := os.ReadFile(filepath.Join(dir, "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range tuiSecretRes {
		secrets = append(secrets, re.FindAllString(string(src), -1)...)
	}
	for _, m := range tuiURLPasswordRe.FindAllStringSubmatch(string(src), -1) {
		if len(m[1]) >= 16 {
			secrets = append(secrets, m[1])
		}
	}
	if len(secrets) < 4 {
		t.Fatalf("fixture secrets not found: %d", len(secrets))
	}
	return dir, secrets
}

// TestNoRawSecretOnScreen: every tab, every node of the Node tab and the
// whole Compiled tab of agents holding credentials show them masked
// (issue 11 item 4: the Compiled tab printed prompts with tokens, the
// graph and the Node tab printed node names with tokens).
func TestNoRawSecretOnScreen(t *testing.T) {
	for _, fx := range []func(*testing.T) (string, []string){secretLeaf, everywhereSecrets} {
		dir, secrets := fx(t)
		an := analyze(t, dir, 1)
		if !an.Parsed() || an.Compiled == nil {
			t.Fatalf("%s must load and compile: %v %v", dir, an.LoadErr, an.CompileErr)
		}
		m := newModel(t, dir, 200, 60, an)
		var screens []string
		for _, tab := range []string{"1", "2", "3", "4", "5"} {
			press(m, tab)
			screens = append(screens, plain(m))
		}
		press(m, "3") // the Node tab follows the graph's selection
		for range an.Flows[0].Graph.Nodes {
			press(m, "j")
			screens = append(screens, plain(m))
		}
		lines, err := views.CompiledLines(an.Compiled) // the Compiled tab, every line
		if err != nil {
			t.Fatal(err)
		}
		screens = append(screens, strings.Join(lines, "\n"))
		for i, s := range screens {
			if l := leaked(s, secrets); len(l) > 0 {
				t.Errorf("%s: screen %d shows %v:\n%s", filepath.Base(dir), i, l, s)
			}
		}
	}
}
