package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// injection is the attack of issue 11 item 5 (OSC 0 title, OSC 52
// clipboard, ESC [ 2 J, 8-bit CSI) plus bidi and zero-width characters.
const injection = "\x1b]0;title\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b2J\u202egnp.exe\u200b\x7f"

func injectionReport() Report {
	src := "{\"id\": \"x" + strings.ReplaceAll(strings.ReplaceAll(injection, "\x1b", `\u001b`), "\x07", `\u0007`) + "\",\n\t\"url\": \"http://a.example/\x1b[2J\"}\n"
	doc := compile.ParseDoc("dir"+injection+"/oas.json", []byte(src))
	fs := []lint.Finding{
		{Code: "untrusted_external_url", Severity: compile.Blocker, Message: "url http://a.example/" + injection, File: doc.Path, Location: "/url", Line: 2, Column: 9, Source: "deterministic"},
		{Code: "flow_dead_end", Severity: compile.Warning, Message: "node \"x" + injection + "\"\nsecond line", File: doc.Path, Location: "/id", Line: 1, Column: 8, Source: "deterministic"},
	}
	return Report{Findings: fs, Files: 1, Docs: Docs{doc.Path: doc}}
}

// TestFormatsWriteNoControl: no format writes a raw ESC, BEL, DEL, C1,
// bidi or zero-width character, whatever the finding holds. Messages pass
// through the one presentation function (present.Lines: sanitised, then
// masked) in every format, so json and sarif messages hold no control
// either (before, they kept it escaped: a reader that unescaped and then
// sanitised joined whatever the controls had split).
func TestFormatsWriteNoControl(t *testing.T) {
	r := injectionReport()
	for _, name := range Names() {
		f, _ := Lookup(name)
		var buf bytes.Buffer
		if err := Write(&buf, f, r); err != nil {
			t.Fatal(err)
		}
		for _, c := range buf.String() {
			if c != '\n' && c != '\t' && (c < 0x20 || c >= 0x7f && c <= 0x9f || c == 0x202e || c == 0x200b) {
				t.Errorf("%s: raw %U in the output", name, c)
				break
			}
		}
		if name == "json" || name == "sarif" {
			var v any
			if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
				t.Fatalf("%s: not JSON any more: %v", name, err)
			}
			if !strings.Contains(buf.String(), "url http://a.example/gnp.exe") {
				t.Errorf("%s: the message is not the sanitised one", name)
			}
		}
	}
	// Before the one sanitiser, the text format kept bidi and zero-width
	// characters (txtClean escaped only control characters).
	var buf bytes.Buffer
	if err := Write(&buf, Formats["text"], Report{Findings: r.Findings, Docs: r.Docs, Files: 1}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(buf.String(), "\u202e\u200b") {
		t.Error("text output keeps bidi or zero-width characters")
	}
}

// TestFormatsByName: the CLI's formats come from one map.
func TestFormatsByName(t *testing.T) {
	if got := strings.Join(Names(), ","); got != "text,github,json,sarif,summary" {
		t.Errorf("Names() = %s", got)
	}
	if _, ok := Lookup("yaml"); ok {
		t.Error("Lookup(yaml) found a format")
	}
	for name, f := range Formats {
		if want := name == "text" || name == "sarif"; UsesSource(f) != want {
			t.Errorf("%s: UsesSource = %v", name, !want)
		}
	}
}

// TestWriteMasks: Write masks a credential in any message, for every format.
func TestWriteMasks(t *testing.T) {
	tok := "ghp_" + "R8mZ2xQ7kLp4Vn9TbW3cYs6Hd1Fj5GaE0uKo"
	fs := []lint.Finding{{Code: "agent_read_failed", Severity: compile.Blocker, Message: "open x/" + tok + "/oas.json: denied", File: "f.json", Line: 1, Column: 1}}
	for name, f := range Formats {
		var buf bytes.Buffer
		if err := Write(&buf, f, Report{Findings: fs, Files: 1}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), tok[4:16]) {
			t.Errorf("%s: raw token in the output", name)
		}
	}
	if fs[0].Message != "open x/"+tok+"/oas.json: denied" {
		t.Error("Write modified the caller's findings")
	}
}

// FuzzFormats: every format on arbitrary documents and findings never
// panics and never writes a raw ESC or BEL.
func FuzzFormats(f *testing.F) {
	f.Add([]byte("{\"a\": \"\x1b]0;t\x07\"}"), "m\x1b[2J", 1, 3)
	f.Add([]byte("{\n\t\"é\": [1, 2]\n}"), "\u202e", 2, 2)
	f.Fuzz(func(t *testing.T, src []byte, msg string, line, col int) {
		doc := compile.ParseDoc("f"+msg+".json", src)
		fs := []lint.Finding{{Code: "oas_structural" + msg, Severity: compile.Warning, Message: msg, File: doc.Path, Line: line % 1000, Column: col % 100000, Source: "deterministic"}}
		for name, fm := range Formats {
			var buf bytes.Buffer
			if err := Write(&buf, fm, Report{Findings: fs, Files: 1, Docs: Docs{doc.Path: doc}, Agents: []*compile.Agent{{Flow: doc}}}); err != nil && err != io.EOF {
				t.Fatalf("%s: %v", name, err)
			}
			if bytes.ContainsAny(buf.Bytes(), "\x1b\x07") {
				t.Fatalf("%s: raw ESC or BEL", name)
			}
		}
	})
}
