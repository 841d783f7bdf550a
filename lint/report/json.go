package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
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
	return encodeJSON(w, NewJSONReport(r.Findings, r.Files))
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
