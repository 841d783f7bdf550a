package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
)

// FuzzValidate runs the validator (and both renderers) over an arbitrary
// oas.json: it must never panic, and every finding must carry a registered
// code, a severity and a 1-based position.
//
//	go test ./lint -run '^$' -fuzz FuzzValidate -parallel 1 -fuzztime 5m
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `"x"`, `{"nodes":{"a":1}}`,
		`{"agentspec_version":26.1,"component_type":["Flow"],"nodes":[1,"a",null,{"$component_ref":5}],"$referenced_components":[]}`,
		`{"component_type":"Flow","$referenced_components":{"a":{"component_type":"Flow","$referenced_components":{"b":{"x":{"$component_ref":"a"}}},"nodes":[{"$component_ref":"b"}]}}}`,
		`{"metadata":{"cinatra":{"llm":{"preferredProvider":7,"preferredModel":"","x":1},"toolboxes":["a"]}},"$referenced_components":{"n":{"component_type":"ApiNode","url":"/api/llm-bridge","inputs":[{"title":"a","type":"number","default":1e400}],"data":"{{ a ? b : c }}"}}}`,
		`{"$referenced_components":{"g":{"component_type":"InputMessageNode","inputs":[{"title":"a b"},{"title":"a b"},7],"outputs":[{"type":1}],"message_template":{}}}}`,
	} {
		f.Add([]byte(s))
	}
	var paths []string
	if m, err := filepath.Glob(filepath.Join(rulesFixtureDir, "err", "*", "oas.json")); err == nil {
		paths = append(paths, m...)
	}
	corpus := filepath.Join("..", "..", "shared", "corpus", "cinatra")
	if m, err := filepath.Glob(filepath.Join(corpus, "agents", "cinatra-ai", "*", "cinatra", "oas.json")); err == nil {
		paths = append(paths, m...)
	}
	paths = append(paths, filepath.Join(corpus, "docs", "golden-leaf", "cinatra", "oas.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := compile.ParseDoc("oas.json", data)
		a := &compile.Agent{FlowPath: "oas.json", Flow: doc, Profile: compile.ProfileCinatra}
		p := &Pass{Agent: a, Config: &Config{}}
		runValidator(p)
		fs := compile.SortFindings(p.Findings())
		for _, f := range fs {
			if LookupRule(f.Code) == nil {
				t.Errorf("unregistered code %q: %s", f.Code, f.Message)
			}
			if f.Severity.Rank() == 0 || f.Line < 1 || f.Column < 1 || f.Message == "" {
				t.Errorf("bad finding %+v", f)
			}
		}
	})
}
