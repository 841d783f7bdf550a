package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

func TestWriteJSON(t *testing.T) {
	fs, _ := fmtSample()
	var b bytes.Buffer
	if err := Write(&b, Formats["json"], Report{Findings: fs, Files: 2}); err != nil {
		t.Fatal(err)
	}
	fmtCompare(t, "json.golden", b.Bytes())

	var rep struct {
		SchemaVersion int              `json:"schemaVersion"`
		Findings      []map[string]any `json:"findings"`
		Summary       map[string]int   `json:"summary"`
	}
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.SchemaVersion != 1 || len(rep.Findings) != len(fs) {
		t.Fatalf("schemaVersion %d, %d findings", rep.SchemaVersion, len(rep.Findings))
	}
	for _, k := range []string{"code", "severity", "message", "location", "source", "file", "line", "column"} {
		if _, ok := rep.Findings[0][k]; !ok {
			t.Errorf("finding lacks %q: %v", k, rep.Findings[0])
		}
	}
	want := map[string]int{"blockers": 2, "warnings": 1, "suggestions": 1, "files": 2}
	for k, v := range want {
		if rep.Summary[k] != v {
			t.Errorf("summary %s = %d, want %d", k, rep.Summary[k], v)
		}
	}

	b.Reset()
	if err := Write(&b, Formats["json"], Report{Findings: nil, Files: 0}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"findings": []`)) {
		t.Errorf("no findings must be an empty list:\n%s", b.Bytes())
	}
}

// TestStreamJSONReportIdentical: the one-pass writer gives the bytes the
// whole-document encoder gave, for no finding, one, and many (across
// windows) with text a
// terminal may act on (escaped) and HTML characters (not escaped).
func TestStreamJSONReportIdentical(t *testing.T) {
	mk := func(n int) []lint.Finding {
		var fs []lint.Finding
		for i := range n {
			fs = append(fs, lint.Finding{Code: "c", Severity: compile.Warning, Message: fmt.Sprintf("<b>&%d\u202e\u0007 \"q\"", i),
				File: "f.json", Line: i + 1, Column: 2, Location: "/a/" + fmt.Sprint(i), Source: compile.SourceDeterministic})
		}
		return fs
	}
	// past one window of findings and at its edges: the windows and their
	// parts are encoded at once and must join as one document
	for _, n := range []int{0, 1, 2, 3, jsonWindow - 1, jsonWindow, jsonWindow + 1, 2*jsonWindow + 3} {
		r := NewJSONReport(mk(n), 2)
		var whole, stream bytes.Buffer
		if err := encodeJSON(&whole, r); err != nil {
			t.Fatal(err)
		}
		if err := streamJSONReport(&stream, r); err != nil {
			t.Fatal(err)
		}
		if whole.String() != stream.String() {
			t.Errorf("%d findings:\nwhole  %q\nstream %q", n, whole.String(), stream.String())
		}
	}
}
