package report

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"

	"github.com/oastui/oastui/lint"
)

// JSONSchemaVersion is the version of the `--format json` document; it
// changes only when a field is removed or changes meaning.
const JSONSchemaVersion = 1

// JSONSchema is the JSON Schema (draft 2020-12) of the `--format json`
// document, schema/lint-output.schema.json; the tests validate the output
// of every fixture against it, so it cannot drift from JSONReport.
//
//go:embed schema/lint-output.schema.json
var JSONSchema []byte

// JSONReport is the `--format json` document: every field of every finding
// (SPEC §2; line and column 1-based, column in characters, location an RFC
// 6901 JSON Pointer into file) and the counts.
type JSONReport struct {
	SchemaVersion int            `json:"schemaVersion"`
	Findings      []lint.Finding `json:"findings"`
	Summary       Summary        `json:"summary"`
}

// jsonFormat: one JSONReport object (--format json).
type jsonFormat struct{}

func (jsonFormat) Format(w io.Writer, r Report) error {
	return streamJSONReport(w, NewJSONReport(r.Findings, r.Files))
}

// streamJSONReport writes r exactly as encodeJSON would, in one pass: each
// finding is encoded, escaped and written in turn through one buffered
// writer, so the document is never held whole (the 10,000-agent tree's
// report is 15 MB; encodeJSON held it, its indented copy and its escaped
// copy at once).
func streamJSONReport(w io.Writer, r JSONReport) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// write encodes v at the given depth (2-space indent) without the
	// encoder's trailing newline, escaped as jsonEscapeInvisible does.
	write := func(v any, prefix string) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := bw.Write(jsonEscapeInvisible(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
		return err
	}
	fmt.Fprintf(bw, "{\n  \"schemaVersion\": %d,\n  \"findings\": [", r.SchemaVersion)
	for i := range r.Findings {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		if err := write(&r.Findings[i], "    "); err != nil {
			return err
		}
	}
	if len(r.Findings) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"summary\": ")
	if err := write(r.Summary, "  "); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// NewJSONReport is the `--format json` document of findings (as given:
// Write masks them first; another face calls Mask itself); files is the
// number of agent files linted.
func NewJSONReport(fs []lint.Finding, files int) JSONReport {
	if fs == nil {
		fs = []lint.Finding{}
	}
	return JSONReport{SchemaVersion: JSONSchemaVersion, Findings: fs, Summary: Summarize(fs, files)}
}

// encodeJSON writes v indented, without HTML escaping, with every
// character a terminal may act on escaped (jsonEscapeInvisible).
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonEscapeInvisible(buf.Bytes()))
	return err
}
