package dryrun

import _ "embed"

// Cleaned returns a deep copy of r with every string that comes from the
// agent (ids, names, notes, messages, values, map keys) passed through
// clean, for faces that print the result (views.Clean: the one sanitiser
// after the one masker).
func (r *Result) Presented(clean func(string) string) *Result {
	if r == nil {
		return nil
	}
	c := *r
	c.File, c.Note = clean(r.File), clean(r.Note)
	c.Paths = make([]Path, len(r.Paths))
	for i, p := range r.Paths {
		c.Paths[i] = p.Presented(clean)
	}
	c.Findings = make([]Finding, len(r.Findings))
	for i, f := range r.Findings {
		f.File, f.Pointer, f.Message = clean(f.File), clean(f.Pointer), clean(f.Message)
		c.Findings[i] = f
	}
	return &c
}

// Presented is the path as Result.Presented presents it (every string
// through clean): for a face that presents the paths it shows one by one.
func (p Path) Presented(clean func(string) string) Path {
	p.End, p.Note = clean(p.End), clean(p.Note)
	steps := make([]Step, len(p.Steps))
	for j, st := range p.Steps {
		st.Flow, st.File, st.Node, st.Name, st.Type, st.Note, st.Branch = clean(st.Flow), clean(st.File), clean(st.Node), clean(st.Name), clean(st.Type), clean(st.Note), clean(st.Branch)
		st.Pointer, st.Anchor, st.FlowPointer = clean(st.Pointer), clean(st.Anchor), clean(st.FlowPointer)
		st.Inputs, st.Outputs = cleanIOs(st.Inputs, clean), cleanIOs(st.Outputs, clean)
		steps[j] = st
	}
	p.Steps = steps
	return p
}

func cleanIOs(ios []IO, clean func(string) string) []IO {
	if ios == nil {
		return nil
	}
	out := make([]IO, len(ios))
	for i, io := range ios {
		io.Name, io.Type, io.From, io.Mismatch = clean(io.Name), clean(io.Type), clean(io.From), clean(io.Mismatch)
		io.Value = cleanValue(io.Value, clean, 0)
		out[i] = io
	}
	return out
}

func cleanValue(v any, clean func(string) string, depth int) any {
	if depth > 64 {
		return nil
	}
	switch x := v.(type) {
	case string:
		return clean(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cleanValue(e, clean, depth+1)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[clean(k)] = cleanValue(e, clean, depth+1)
		}
		return out
	}
	return v
}

// JSONSchema is the JSON Schema (draft 2020-12) of `oastui run --dry
// --format json` (schemaVersion 1).
//
//go:embed schema/run-output.schema.json
var JSONSchema []byte
