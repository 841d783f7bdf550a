package lint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// rvExpected is the part of corpus/cinatra/expected/<agent>.json the
// review tests read.
type rvExpected struct {
	Scans struct {
		LiteralSecrets                 []rvRefFinding `json:"literalSecrets"`
		UntrustedUrls                  []rvRefFinding `json:"untrustedUrls"`
		LlmBridgeWiring                []rvRefFinding `json:"llmBridgeWiring"`
		LlmMetadata                    []rvRefFinding `json:"llmMetadata"`
		StartNodeInputsWithoutRequired []rvRefFinding `json:"startNodeInputsWithoutRequired"`
	} `json:"scans"`
	Review struct {
		Blockers    []rvRefFinding `json:"blockers"`
		Warnings    []rvRefFinding `json:"warnings"`
		Suggestions []rvRefFinding `json:"suggestions"`
	} `json:"review"`
	Trivial      bool              `json:"trivial"`
	PackageScans []rvRefFinding    `json:"packageScans"`
	ContextSlots []json.RawMessage `json:"contextSlots"`
}

type rvCorpusAgent struct {
	Slug     string
	Dir      string
	Expected rvExpected
}

// rvCorpusAgents lists the 25 corpus agents with their expected results.
func rvCorpusAgents(t testing.TB) []rvCorpusAgent {
	t.Helper()
	base := rvSharedDir(t, "corpus", "cinatra")
	ents, err := os.ReadDir(filepath.Join(base, "agents", "cinatra-ai"))
	if err != nil {
		t.Fatal(err)
	}
	var out []rvCorpusAgent
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		ca := rvCorpusAgent{Slug: e.Name(), Dir: filepath.Join(base, "agents", "cinatra-ai", e.Name())}
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

// rvFindingKeys renders findings as sorted "code severity pointer message"
// lines, for order-free comparison with the reference.
func rvFindingKeys(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+" "+string(f.Severity)+" "+f.Location+" "+f.Message)
	}
	sort.Strings(out)
	return out
}

func rvRefKeys(rs []rvRefFinding) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Code+" "+r.Severity+" "+rvPointer(r.Location)+" "+r.Message)
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
	for _, ca := range rvCorpusAgents(t) {
		t.Run(ca.Slug, func(t *testing.T) {
			a := rvLoad(t, ca.Dir)
			got := rvRunChecks(a, nil, checkUntrustedURLs, checkLLMBridgeWiring, checkStartNodeInputs, checkPackage)
			want := append(append(append(append([]rvRefFinding{}, ca.Expected.Scans.UntrustedUrls...),
				ca.Expected.Scans.LlmBridgeWiring...), ca.Expected.Scans.StartNodeInputsWithoutRequired...),
				ca.Expected.PackageScans...)
			g, w := rvFindingKeys(got), rvRefKeys(want)
			if strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("scans differ from the reference:\ngot\n  %s\nwant\n  %s", strings.Join(g, "\n  "), strings.Join(w, "\n  "))
			}
		})
	}
}

// TestCorpusReviewAgreesWithReference: the full deterministic review,
// restricted to what the reference's runDeterministicReview runs (secrets,
// URLs, bridge wiring, OAS-LLM-*, the start-node warning), gives the
// reference's review buckets on all 25 corpus agents (code, severity,
// location; the secret messages are B1's, so messages are not compared).
func TestCorpusReviewAgreesWithReference(t *testing.T) {
	for _, ca := range rvCorpusAgents(t) {
		t.Run(ca.Slug, func(t *testing.T) {
			r := Run(rvLoad(t, ca.Dir), Options{})
			var got, want []string
			for _, f := range r.Findings {
				if rvReviewScope(f.Code) {
					got = append(got, f.Code+" "+string(f.Severity)+" "+f.Location)
				}
			}
			ex := ca.Expected.Review
			for _, w := range append(append(ex.Blockers, ex.Warnings...), ex.Suggestions...) {
				want = append(want, w.Code+" "+w.Severity+" "+rvPointer(w.Location))
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("review differs:\ngot\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// BenchmarkReviewChecksCorpus: the review scans and the slot contract over
// the 25 corpus agents (already loaded), per pass over all of them.
func BenchmarkReviewChecksCorpus(b *testing.B) {
	var agents []*compile.Agent
	for _, ca := range rvCorpusAgents(b) {
		agents = append(agents, rvLoad(b, ca.Dir))
	}
	cfg := &Config{AllowedHosts: []string{"*.example.com"}}
	b.ResetTimer()
	for range b.N {
		for _, a := range agents {
			_ = rvRunChecks(a, cfg, rvChecks...)
			_ = IsTrivial(a)
		}
	}
}
