package lint

import (
	"encoding/json"
	"io"
)

// JSONSchemaVersion is the version of the `--format json` document; it
// changes only when a field is removed or changes meaning.
const JSONSchemaVersion = 1

// JSONReport is the `--format json` document: every field of every finding
// (SPEC §2; line and column 1-based, column in characters, location an RFC
// 6901 JSON Pointer into file) and the counts.
type JSONReport struct {
	SchemaVersion int       `json:"schemaVersion"`
	Findings      []Finding `json:"findings"`
	Summary       Summary   `json:"summary"`
}

// WriteJSON writes findings as one JSONReport object; files is the number
// of agent files linted.
func WriteJSON(w io.Writer, fs []Finding, files int) error {
	if fs == nil {
		fs = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(JSONReport{SchemaVersion: JSONSchemaVersion, Findings: fs, Summary: Summarize(fs, files)})
}
