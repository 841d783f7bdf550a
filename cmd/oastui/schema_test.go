package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/lint/report"
)

// fixtureTargets lists every agent of the lint fixtures: the package
// directories below the roots and the loose flow files (a flow file with
// no package.json beside it).
func fixtureTargets(t *testing.T, roots ...string) []string {
	t.Helper()
	targets := append([]string(nil), roots...)
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(p) {
			case ".json", ".yaml", ".yml":
			default:
				return nil
			}
			base, dir := filepath.Base(p), filepath.Dir(p)
			if base != "oas.json" && base != "agent.json" && !strings.HasSuffix(base, ".yaml") {
				return nil
			}
			if base == ".oastui.yaml" || filepath.Base(dir) == "cinatra" {
				return nil
			}
			if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
				return nil // linted as its package
			}
			targets = append(targets, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return targets
}

// TestJSONOutputSchemaOnFixtures: the --format json output of every
// fixture (lint/testdata) validates against the checked
// in JSON Schema (draft 2020-12), and its summary agrees with its findings.
func TestJSONOutputSchemaOnFixtures(t *testing.T) {
	t.Parallel() // among the package's slowest: run together at its tail, where one core would idle; only run(), no chdir, env or package variable
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(report.JSONSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("lint-output.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("lint-output.schema.json")
	if err != nil {
		t.Fatal(err)
	}

	targets := fixtureTargets(t, "../../lint/testdata")
	total, checked := 0, 0
	for i, target := range targets {
		// Under -race every second fixture: each still runs the JSON
		// report's goroutines; the pass without -race (.ci/run) takes all.
		if i%race.Stride(2) != 0 {
			continue
		}
		checked++
		code, out, errOut := runLintCmd(t, "--format", "json", "--fail-on", "none", target)
		if code != exitClean {
			t.Errorf("%s: exit %d %s", target, code, errOut)
			continue
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s: %v\n%s", target, err, out)
		}
		var rep lintJSON
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if n := rep.Summary.Blockers + rep.Summary.Warnings + rep.Summary.Suggestions; n != len(rep.Findings) {
			t.Errorf("%s: summary counts %d findings, the list has %d", target, n, len(rep.Findings))
		}
		total += len(rep.Findings)
	}
	if len(targets) < 20 || checked < len(targets)/race.Stride(2) || total < 150/race.Stride(2) {
		t.Errorf("only %d of %d targets and %d findings validated: the fixtures moved?", checked, len(targets), total)
	}
}
