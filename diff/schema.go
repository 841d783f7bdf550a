package diff

import _ "embed"

// JSONSchema is the JSON Schema (draft 2020-12) of `oastui diff --format
// json` (schema/diff-output.schema.json).
//
//go:embed schema/diff-output.schema.json
var JSONSchema []byte
