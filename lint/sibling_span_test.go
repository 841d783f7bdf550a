package lint

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// A credential found in a sibling file names where it ends (EndLine,
// EndColumn): the columns from Column to EndColumn of its line are the
// secret, in line-scanned files and in JSON files alike; a JSON string
// spelled with escapes before the secret is covered whole.
func TestSiblingSecretSpan(t *testing.T) {
	gh, oa := testshared.FakeGitHub, testshared.FakeOpenAI
	for _, c := range []struct {
		file, text, want string
	}{
		{"notes.txt", "intro\nAPI_KEY=" + gh + "\n", gh},
		{"README.md", "# Ré😀sumé\n\n  export TOKEN=\"" + oa + "\" # ünïcode before\n", oa},
		{"crlf.txt", "a\r\nsecret: " + gh + "\r\n", gh},
		{"settings.json", "{\n  \"é\": 1,\n  \"apiKey\": \"" + gh + "\"\n}\n", gh},
		{"escaped.json", "{\"apiKey\": \"\\u00e9 " + gh + "\"}", "\"\\u00e9 " + gh + "\""},
	} {
		t.Run(c.file, func(t *testing.T) {
			dir := t.TempDir()
			secWriteTree(t, dir, map[string]string{"cinatra/oas.json": "{}", c.file: c.text})
			a := rvLoad(t, dir) // Load reads the sibling files
			fs := ScanSiblingFiles(a)
			if len(fs) != 1 || fs[0].Code != RuleLiteralCredentialInSiblingFile.Code {
				t.Fatalf("findings %+v", fs)
			}
			f := fs[0]
			if f.EndLine != f.Line {
				t.Fatalf("%d:%d-%d:%d spans lines", f.Line, f.Column, f.EndLine, f.EndColumn)
			}
			line := []rune(strings.Split(c.text, "\n")[f.Line-1])
			if f.Column < 1 || f.EndColumn <= f.Column || f.EndColumn-1 > len(line) {
				t.Fatalf("columns %d-%d of %q", f.Column, f.EndColumn, string(line))
			}
			if got := string(line[f.Column-1 : f.EndColumn-1]); got != c.want {
				t.Errorf("span %q, want %q", got, c.want)
			}
		})
	}
}
