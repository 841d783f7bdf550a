package lint

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// platformRaised is one finding the platform's own code raises on a corpus
// agent outside the review and the scan-all endpoint: an invariant test or
// a CI gate, named with its source.
type platformRaised struct {
	code, severity, pointer string
	source                  string
}

func (r platformRaised) key() string { return r.code + " " + r.severity + " " + r.pointer }

// platformRaisedOnCorpus names every finding of the platform's invariant
// tests and CI gates on the 25 corpus agents. Nothing else new may appear
// (TestCorpusLintAddsOnlyDocumentedDeviations), and each named one must
// (TestPlatformRaisedOnCorpus).
var platformRaisedOnCorpus = map[string][]platformRaised{
	// package.json cinatra.produces names @cinatra-ai/blog-post-artifact but
	// cinatra.dependencies has no artifact edge to it.
	"blog-pipeline-agent": {{"produces_dependency_missing", "blocker", "/cinatra/produces/0/extension",
		"cinatra-ai/cinatra scripts/audit/extension-produces-deps-gate.mjs @73049e5c (undeclaredProducesDeps, cinatra#2537)"}},
	// data.system is 5,958 characters in a creation agent (cap 400).
	"security-reviewer-agent": {{"creation_agent_prompt_too_long", "blocker", "/$referenced_components/review/data/system",
		"cinatra-ai/cinatra packages/agents/src/__tests__/oas-skill-free.test.ts @4761c48a (SCOPED thin-OAS scan)"}},
}

// platformCodes are the rules of the platform's checks since the pin.
var platformCodes = []string{"OAS-RUNTIME-009", "OAS-RUNTIME-010", "OAS-RUNTIME-011", "OAS-RUNTIME-012",
	"oas_skill_ids", "creation_agent_prompt_too_long", "agent_skill_bundle", "manifest_dependencies_malformed",
	"manifest_dependencies_conflict", "produces_dependency_missing", "retired_crm_primitive", "output_message_unread_input"}

// TestPlatformRaisedOnCorpus: on each of the 25 corpus agents the rules of
// the platform's newer checks report exactly the artifact-parity oracle
// (expected/<agent>.json artifactParity: code, severity, location, count)
// and the invariant-test and CI-gate findings named above, nothing more.
func TestPlatformRaisedOnCorpus(t *testing.T) {
	for _, ca := range rvCorpusAgents(t) {
		t.Run(ca.Slug, func(t *testing.T) {
			r := Run(rvLoad(t, ca.Dir), Options{})
			var got, want []string
			for _, f := range r.Findings {
				if slices.Contains(platformCodes, f.Code) {
					got = append(got, f.Code+" "+string(f.Severity)+" "+f.Location)
				}
			}
			for _, w := range ca.Expected.ArtifactParity {
				want = append(want, w.Code+" "+w.Severity+" "+rvPointer(w.Location))
			}
			for _, k := range platformRaisedOnCorpus[ca.Slug] {
				if k.source == "" {
					t.Errorf("%s: no source", k.code)
				}
				want = append(want, k.key())
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("platform checks differ:\ngot\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// TestGateLetsPlatformCIThrough: the compile gate does not count the
// blockers of the platform's CI gates and invariant tests (the platform
// compiles blog-pipeline-agent and security-reviewer-agent: expected
// compile ok), while the review still reports them.
func TestGateLetsPlatformCIThrough(t *testing.T) {
	for _, ca := range rvCorpusAgents(t) {
		if len(platformRaisedOnCorpus[ca.Slug]) == 0 {
			continue
		}
		for _, mode := range []Mode{ModeDeterministic, ModeFull} {
			r := Run(rvLoad(t, ca.Dir), Options{Mode: mode})
			if len(r.Blockers) == 0 {
				t.Errorf("%s (%s): the review reports no blocker", ca.Slug, mode)
			}
			if r.Gate.Blocked() {
				t.Errorf("%s (%s): the gate refuses the compile: %+v", ca.Slug, mode, r.Gate.Blockers)
			}
		}
	}
}
