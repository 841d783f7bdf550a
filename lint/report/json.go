package report

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"

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
	fmt.Fprintf(bw, "{\n  \"schemaVersion\": %d,\n  \"findings\": [", r.SchemaVersion)
	// The findings are encoded a window at a time, the parts of a window
	// at once (one encoder per core), and written in order: a tree's
	// report holds thousands of findings.
	parts := make([]jsonPart, max(1, runtime.GOMAXPROCS(0)))
	for lo := 0; lo < len(r.Findings); lo += jsonWindow {
		window := r.Findings[lo:min(lo+jsonWindow, len(r.Findings))]
		per := (len(window) + len(parts) - 1) / len(parts)
		var wg sync.WaitGroup
		for k := range parts {
			a, b := min(k*per, len(window)), min((k+1)*per, len(window))
			wg.Add(1)
			go func() {
				defer wg.Done()
				parts[k].encode(window[a:b], lo+a > 0)
			}()
		}
		wg.Wait()
		for k := range parts {
			bw.Write(parts[k].findings)
		}
	}
	if len(r.Findings) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"summary\": ")
	var sum jsonPart
	if err := sum.value(r.Summary, "  "); err != nil {
		return err
	}
	bw.Write(sum.out.Bytes())
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// jsonWindow is the number of findings encoded before they are written.
const jsonWindow = 2048

// jsonPart encodes findings into findings as streamJSONReport lays them
// out (appendFinding), and another value into out (value).
type jsonPart struct {
	findings []byte // reused from one window to the next
	out      bytes.Buffer
	buf      bytes.Buffer
	enc      *json.Encoder
}

// encode puts fs in findings, each on its own line after a comma (none before
// the report's first finding: first is false).
func (p *jsonPart) encode(fs []lint.Finding, notFirst bool) {
	dst := p.findings[:0]
	if need := jsonSizeHint(fs); cap(dst) < need {
		// one buffer of about the size the window takes, not a doubling
		// from empty (each step a fresh allocation and a copy of the last)
		dst = make([]byte, 0, need)
	}
	for i := range fs {
		if notFirst || i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, "\n    "...)
		dst = p.appendFinding(dst, &fs[i], "    ")
	}
	p.findings = dst
}

// jsonSizeHint is about the bytes encode writes for fs: the strings of
// each finding and its fixes as they are (an escape makes them longer,
// and append then grows the buffer), with what the members' names,
// indentation and numbers take (about 260 bytes a finding, 400 a fix of one edit).
func jsonSizeHint(fs []lint.Finding) int {
	n := 0
	for i := range fs {
		f := &fs[i]
		n += 260 + len(f.Code) + len(f.Severity) + len(f.Message) + len(f.Location) + len(f.Source) + len(f.File) + len(f.ValueHash)
		for j := range f.Fixes {
			x := &f.Fixes[j]
			n += 180 + len(x.Title) + len(x.Tier)
			for k := range x.Edits {
				n += 220 + len(x.Edits[k].Path) + len(x.Edits[k].New)
			}
			for k := range x.Moves {
				n += 120 + len(x.Moves[k].From) + len(x.Moves[k].To)
			}
		}
	}
	return n
}

// value appends v, indented under prefix, to out.
func (p *jsonPart) value(v any, prefix string) error {
	if p.enc == nil {
		p.enc = json.NewEncoder(&p.buf)
		p.enc.SetEscapeHTML(false)
	}
	p.buf.Reset()
	p.enc.SetIndent(prefix, "  ")
	if err := p.enc.Encode(v); err != nil {
		return err
	}
	p.out.Write(jsonEscapeInvisible(bytes.TrimSuffix(p.buf.Bytes(), []byte("\n"))))
	return nil
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
