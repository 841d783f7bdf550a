package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// expectedAgent is the part of corpus/cinatra/expected/<agent>.json the
// review tests read.
type expectedAgent struct {
	Scans struct {
		LiteralSecrets                 []refFinding `json:"literalSecrets"`
		UntrustedUrls                  []refFinding `json:"untrustedUrls"`
		LlmBridgeWiring                []refFinding `json:"llmBridgeWiring"`
		LlmMetadata                    []refFinding `json:"llmMetadata"`
		StartNodeInputsWithoutRequired []refFinding `json:"startNodeInputsWithoutRequired"`
	} `json:"scans"`
	Review struct {
		Blockers    []refFinding `json:"blockers"`
		Warnings    []refFinding `json:"warnings"`
		Suggestions []refFinding `json:"suggestions"`
	} `json:"review"`
	Trivial      bool              `json:"trivial"`
	PackageScans []refFinding      `json:"packageScans"`
	ContextSlots []json.RawMessage `json:"contextSlots"`
}

type corpusAgent struct {
	Slug     string
	Dir      string
	Expected expectedAgent
}

// corpusAgents lists the 25 corpus agents with their expected results.
func corpusAgents(t testing.TB) []corpusAgent {
	t.Helper()
	base := sharedDir(t, "corpus", "cinatra")
	ents, err := os.ReadDir(filepath.Join(base, "agents", "cinatra-ai"))
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusAgent
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		ca := corpusAgent{Slug: e.Name(), Dir: filepath.Join(base, "agents", "cinatra-ai", e.Name())}
		src, err := os.ReadFile(filepath.Join(base, "expected", e.Name()+".json"))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if err := json.Unmarshal(src, &ca.Expected); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		out = append(out, ca)
	}
	if len(out) != 25 {
		t.Fatalf("found %d corpus agents, want 25", len(out))
	}
	return out
}

// findingKeys renders findings as sorted "code severity pointer message"
// lines, for order-free comparison with the reference.
func findingKeys(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+" "+string(f.Severity)+" "+f.Location+" "+f.Message)
	}
	sort.Strings(out)
	return out
}

func refKeys(rs []refFinding) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Code+" "+r.Severity+" "+dottedToPointer(r.Location)+" "+r.Message)
	}
	sort.Strings(out)
	return out
}

// TestCorpusScansAgreeWithReference: on all 25 corpus agents our URL,
// bridge-wiring, start-node and package scans give exactly what the
// reference gave (scans.* and packageScans of expected/<agent>.json). The
// scans that go further than the reference (every nesting level, more URL
// fields, package_name_mismatch) find nothing more on the corpus.
func TestCorpusScansAgreeWithReference(t *testing.T) {
	for _, ca := range corpusAgents(t) {
		t.Run(ca.Slug, func(t *testing.T) {
			a := mustLoad(t, ca.Dir)
			got := runChecks(a, nil, checkUntrustedURLs, checkLLMBridgeWiring, checkStartNodeInputs, checkPackage)
			want := append(append(append(append([]refFinding{}, ca.Expected.Scans.UntrustedUrls...),
				ca.Expected.Scans.LlmBridgeWiring...), ca.Expected.Scans.StartNodeInputsWithoutRequired...),
				ca.Expected.PackageScans...)
			g, w := findingKeys(got), refKeys(want)
			if strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("scans differ from the reference:\ngot\n  %s\nwant\n  %s", strings.Join(g, "\n  "), strings.Join(w, "\n  "))
			}
		})
	}
}
