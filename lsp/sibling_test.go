package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// A credential in a sibling file (a README, an .env) is squiggled over
// the secret itself, from the bytes the review read (an open buffer's
// included, whose edits re-review the agent); a finding on a file as a
// whole covers its first line.
func TestSiblingRanges(t *testing.T) {
	path, src := exampleAgent(t)
	pkg := filepath.Dir(filepath.Dir(path))
	gh, oa := testshared.FakeGitHub, testshared.FakeOpenAI
	readme := filepath.Join(pkg, "README.md")
	readmeText := "# Ré😀sumé\n\nexport TOKEN=\"" + gh + "\" # ü\n"
	env := filepath.Join(pkg, ".env")
	envText := "DEBUG=1\r\nOPENAI_API_KEY=" + oa + "\r\n"
	for p, text := range map[string]string{readme: readmeText, env: envText} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgJSON := filepath.Join(pkg, "package.json")
	pkgSrc, err := os.ReadFile(pkgJSON)
	if err != nil {
		t.Fatal(err)
	}
	pkgText := strings.Replace(string(pkgSrc), "{", "{\n  \"config\": {\"note\": \"é key "+gh+" here\"},", 1)
	if err := os.WriteFile(pkgJSON, []byte(pkgText), 0o644); err != nil {
		t.Fatal(err)
	}
	s, out, _ := newTestServer(t, -1)
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": string(src)}}))
	for _, c := range []struct {
		file, text, code, want string
	}{
		{readme, readmeText, "literal_credential_in_sibling_file", gh},
		{env, envText, "literal_credential_in_sibling_file", oa},
		{env, envText, "package_env_file_forbidden", "DEBUG=1"},
		{pkgJSON, pkgText, "literal_credential_in_sibling_file", gh}, // a parsed document: the secret, not the whole string
	} {
		if got := diagsOf(t, out, c.file, c.text)[c.code]; len(got) != 1 || got[0] != c.want {
			t.Errorf("%s %s covers %q, want %q", filepath.Base(c.file), c.code, got, c.want)
		}
	}
	// the README open and edited: its buffer is scanned, the range follows it
	edited := "line one\n\tkey: " + oa + "\n"
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(readme)), "version": 1, "text": readmeText}}))
	s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(readme)), "version": 2}, "contentChanges": []any{map[string]any{"text": edited}}}))
	if got := diagsOf(t, out, readme, edited)["literal_credential_in_sibling_file"]; len(got) != 1 || got[0] != oa {
		t.Errorf("after editing the README buffer: %q", got)
	}
}
