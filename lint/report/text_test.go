package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

const fmtGoldenDir = "../../testdata/golden/lint"

// fmtSample is a small document and findings that exercise the text
// renderer: a string underlined in full, an object (caret only), a
// finding in a file without a Doc, a tab-indented line, a long minified
// line cut around the column, and agent text with a terminal escape.
func fmtSample() ([]lint.Finding, Docs) {
	src := "{\n  \"componentType\": \"Flow\",\n\t\"nodes\": {\"a\": 1},\n  \"x\": \"" + strings.Repeat("ab", 150) + "\", \"y\": 12345\n}\n"
	doc := compile.ParseDoc("agents/v/a/cinatra/oas.json", []byte(src))
	fs := []lint.Finding{
		doc.At("/componentType", "legacy_field", compile.Blocker, "legacy field componentType must not appear in OAS agent.json"),
		doc.At("/nodes", "oas_structural", compile.Blocker, "nodes: Invalid input: expected array, received object"),
		doc.At("/y", "OAS-RUNTIME-003", compile.Warning, "number \x1b[31mred\x1b[0m"),
		{Code: "agent_package_missing_license", Severity: compile.Suggestion, Message: "no license", Source: "deterministic",
			File: "agents/v/a/package.json", Line: 1, Column: 1},
	}
	return compile.SortFindings(fs), Docs{doc.Path: doc}
}

func fmtCompare(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(fmtGoldenDir, name)
	if *update {
		if err := os.MkdirAll(fmtGoldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update after checking):\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestWriteText(t *testing.T) {
	fs, docs := fmtSample()
	for _, tc := range []struct {
		name  string
		color bool
	}{{"text.golden", false}, {"text_color.golden", true}} {
		var b bytes.Buffer
		if err := Write(&b, Formats["text"], Report{Findings: fs, Docs: docs, Color: tc.color, Files: 2}); err != nil {
			t.Fatal(err)
		}
		if !tc.color && bytes.ContainsRune(b.Bytes(), 0x1b) {
			t.Errorf("escape sequence in uncoloured output:\n%q", b.String())
		}
		fmtCompare(t, tc.name, b.Bytes())
	}
}

func TestWriteTextClean(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Formats["text"], Report{Findings: nil, Files: 1}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "no findings in 1 file\n" {
		t.Errorf("got %q", got)
	}
}

// TestTokenWidth: a finding without a span underlines the JSON token at
// its column (the engine's excerpt).
func TestTokenWidth(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{`"abc"`, 5}, {`"a\"b", 1`, 6}, {`123,`, 3}, {`true}`, 4}, {`{"a":1}`, 1}, {`"é"`, 3}, {`"open`, 5},
	} {
		ex := lint.Excerpt(compile.ParseDoc("x.json", []byte(tc.src)), lint.Finding{Code: "oas_structural", Line: 1, Column: 1})
		if got := utf8.RuneCountInString(ex.Line().Text[ex.Caret:ex.CaretEnd]); got != tc.want {
			t.Errorf("%s: got %d want %d", tc.src, got, tc.want)
		}
	}
}

// TestWriteTextRedacts: the source excerpt under a finding never shows a
// credential; the caret stays under the finding's value.
func TestWriteTextRedacts(t *testing.T) {
	token := "ghp_" + "R8mZ2xQ7kLp4Vn9TbW3cYs6Hd1Fj5GaE0uKo"
	src := "{\n  \"headers\": {\"Authorization\": \"Bearer " + token + "\", \"x\": 1}\n}\n"
	doc := compile.ParseDoc("oas.json", []byte(src))
	for _, code := range []string{"literal_credential_detected", "oas_structural"} {
		var b bytes.Buffer
		f := doc.At("/headers/x", code, compile.Blocker, "m")
		if err := Write(&b, Formats["text"], Report{Findings: []lint.Finding{doc.At("/headers/Authorization", code, compile.Blocker, "m"), f}, Docs: Docs{doc.Path: doc}, Files: 1}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, token[4:16]) {
			t.Errorf("%s: raw credential in the excerpt:\n%s", code, out)
		}
		// The caret under "x"'s value sits under the 1 of the shown line.
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "oas.json:2:") && strings.Contains(l, "2:"+itoa(f.Column)+":") {
				shown, caret := lines[i+2], lines[i+3]
				sr := []rune(shown)
				if c := strings.Index(caret, "^"); c < 0 || c >= len(sr) || sr[c] != '1' {
					t.Errorf("%s: caret misplaced:\n%s\n%s", code, shown, caret)
				}
			}
		}
	}
}

func itoa(n int) string { return fmt.Sprint(n) }

// TestWriteTextAgentsSummary (issue 37): with the agents of the run known,
// the summary line says in how many of them the findings are (an agent
// that did not load counts; a file of no agent does not).
func TestWriteTextAgentsSummary(t *testing.T) {
	fs := []lint.Finding{{Code: "x", Severity: compile.Warning, Message: "m", File: "a/oas.json", Line: 1, Column: 1}}
	targets := []Target{{Path: "a", Warnings: 1}, {Path: "b", Problem: "does not parse", Blockers: 1}, {Path: "c"}, {Path: ".oastui.yaml", NotAgent: true, Warnings: 1}}
	for _, c := range []struct {
		fs   []lint.Finding
		want string
	}{
		{fs, "1 finding (0 blockers, 1 warning, 0 suggestions) in 2 of 3 agents\n"},
		{nil, "no findings in 3 agents\n"},
	} {
		var b bytes.Buffer
		if err := Write(&b, Formats["text"], Report{Findings: c.fs, Files: 3, Targets: targets}); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); !strings.HasSuffix(got, c.want) {
			t.Errorf("got %q, want it to end %q", got, c.want)
		}
	}
}
