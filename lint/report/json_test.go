package report

import (
	"bytes"
	"encoding/json"
	"testing"
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
