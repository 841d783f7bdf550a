package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileJSONSchema compiles JSONSchema (draft 2020-12, as it declares).
func compileJSONSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "lint-output.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateJSONOutput(t *testing.T, s *jsonschema.Schema, out []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return s.Validate(v)
}

func TestJSONSchemaDeclaresDraft2020(t *testing.T) {
	if !bytes.Contains(JSONSchema, []byte(`"$schema": "https://json-schema.org/draft/2020-12/schema"`)) {
		t.Fatal("the schema does not declare draft 2020-12")
	}
}

// The sample findings (every severity, a pointer, an advisory source) and
// the empty report validate; documents that break the contract do not.
func TestJSONOutputMatchesSchema(t *testing.T) {
	s := compileJSONSchema(t)
	fs, _ := fmtSample()
	for _, tc := range []struct {
		name string
		fs   int
	}{{"sample", len(fs)}, {"empty", 0}} {
		var b bytes.Buffer
		if err := Write(&b, Formats["json"], Report{Findings: fs[:tc.fs], Files: 2}); err != nil {
			t.Fatal(err)
		}
		if err := validateJSONOutput(t, s, b.Bytes()); err != nil {
			t.Errorf("%s: %v\n%s", tc.name, err, b.Bytes())
		}
	}

	var good bytes.Buffer
	if err := Write(&good, Formats["json"], Report{Findings: fs, Files: 2}); err != nil {
		t.Fatal(err)
	}
	bad := map[string][2]string{
		"unknown severity":    {`"severity": "blocker"`, `"severity": "error"`},
		"line 0":              {`"line": `, `"line": 0, "x": `},
		"missing code":        {`"code": `, `"kode": `},
		"wrong schemaVersion": {`"schemaVersion": 1`, `"schemaVersion": 2`},
		"extra top field":     {`"schemaVersion": 1`, `"schemaVersion": 1, "extra": true`},
		"bad pointer":         {`"location": "/`, `"location": "x/`},
	}
	for name, r := range bad {
		doc := strings.Replace(good.String(), r[0], r[1], 1)
		if doc == good.String() {
			t.Fatalf("%s: nothing replaced", name)
		}
		if err := validateJSONOutput(t, s, []byte(doc)); err == nil {
			t.Errorf("%s: the schema accepts\n%s", name, doc)
		}
	}
}
