package present

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

type secGitleaksRow = testshared.SecretSample

func secLoadGitleaks(t testing.TB) []secGitleaksRow { return testshared.SecretSamples(t) }

// secSpecFamily maps a gitleaks rule to the provider-prefixed family SPEC §3.3
// lists ("" for the others).
func secSpecFamily(rule string) string {
	switch {
	case strings.HasPrefix(rule, "anthropic-"):
		return "anthropic"
	case rule == "openai-api-key":
		return "openai"
	case rule == "github-pat", rule == "github-oauth", rule == "github-app-token", rule == "github-refresh-token", rule == "github-fine-grained-pat":
		return "github"
	case rule == "gitlab-pat", rule == "gitlab-pat-routable":
		return "gitlab"
	case rule == "stripe-access-token":
		return "stripe"
	case rule == "gcp-api-key":
		return "google"
	case strings.HasPrefix(rule, "huggingface-"):
		return "huggingface"
	case rule == "npm-access-token":
		return "npm"
	case rule == "sendgrid-api-token":
		return "sendgrid"
	case rule == "private-key":
		return "private-key"
	case strings.HasPrefix(rule, "slack-"):
		return "slack"
	case rule == "aws-access-token":
		return "aws"
	case rule == "jwt":
		return "jwt"
	}
	return ""
}

var (
	secCtxOperator = regexp.MustCompile(`(?:::=|:=|=>|\?=|\|\||[=:,])\s*$`)
	secCtxIdent    = regexp.MustCompile(`[A-Za-z0-9_.-]+$`)
	secCtxXMLKey   = regexp.MustCompile(`key\s*=\s*"([^"]+)"`)
)

// secContextKey is the key a not_secret row's context puts its candidate
// under: the identifier before the assignment operator that precedes the
// candidate (`api_key = "…"` → api_key, `"x_token": "…"` → x_token,
// `<add key="Password" value="…"/>` → Password, `Authorization: Bearer …`
// → Authorization). No assignment: the neutral key "note".
func secContextKey(context, candidate string) string {
	i := strings.Index(context, candidate)
	if i < 0 {
		return "note"
	}
	left := strings.TrimRight(context[:i], " \t\"'`")
	for _, scheme := range []string{"Bearer", "Basic", "Token", "bearer", "basic", "token"} {
		if strings.HasSuffix(left, " "+scheme) || strings.HasSuffix(left, "\t"+scheme) || strings.HasSuffix(left, "\""+scheme) {
			left = strings.TrimRight(strings.TrimSuffix(left, scheme), " \t\"'`")
			break
		}
	}
	loc := secCtxOperator.FindStringIndex(left)
	if loc == nil {
		return "note"
	}
	left = strings.TrimRight(left[:loc[0]], " \t\"'`")
	key := secCtxIdent.FindString(left)
	if key == "value" {
		if m := secCtxXMLKey.FindStringSubmatch(context); m != nil {
			key = m[1]
		}
	}
	if key == "" {
		return "note"
	}
	return key
}

type secRatio struct{ hit, n int }

func (r secRatio) String() string {
	if r.n == 0 {
		return "  -"
	}
	return fmt.Sprintf("%3d/%-3d %6.2f%%", r.hit, r.n, r.pct())
}
func (r secRatio) pct() float64 {
	if r.n == 0 {
		return 100
	}
	return 100 * float64(r.hit) / float64(r.n)
}

// secMeasurement is everything TestSecretMeasurement computes.
type secMeasurement struct {
	familyNeutral, familySecret map[string]*secRatio
	// recall on secret rows, non-synthetic / all, under the neutral and the secret-bearing key
	recallSecretReal, recallSecretAll, recallNeutralReal, recallNeutralAll secRatio
	fpCandidates, fpCandidatesReal                                         secRatio // candidate under its context key
	fpValues                                                               secRatio // whole value under the neutral key (informational)
	fpReviewed                                                             secRatio // candidates minus the disputed labels (see secDisputed)
	disputed                                                               []string
	missedReal                                                             []string
	fpList                                                                 []string
	excluded                                                               int
}

func secMeasure(rows []secGitleaksRow) secMeasurement {
	m := secMeasurement{familyNeutral: map[string]*secRatio{}, familySecret: map[string]*secRatio{}}
	for _, r := range rows {
		switch r.Label {
		case "secret":
			if strings.TrimSpace(r.Value) == "" { // path-only rules (pkcs12-file): nothing to scan in a value
				m.excluded++
				continue
			}
			_, hitN := Detect("note", r.Value)
			_, hitS := Detect("api_key", r.Value)
			if fam := secSpecFamily(r.Rule); fam != "" {
				for _, x := range []struct {
					m   map[string]*secRatio
					hit bool
				}{{m.familyNeutral, hitN}, {m.familySecret, hitS}} {
					if x.m[fam] == nil {
						x.m[fam] = &secRatio{}
					}
					x.m[fam].n++
					if x.hit {
						x.m[fam].hit++
					}
				}
			}
			add := func(rt *secRatio, hit bool) {
				rt.n++
				if hit {
					rt.hit++
				}
			}
			add(&m.recallSecretAll, hitS)
			add(&m.recallNeutralAll, hitN)
			if !r.Synthetic {
				add(&m.recallSecretReal, hitS)
				add(&m.recallNeutralReal, hitN)
				if !hitS {
					m.missedReal = append(m.missedReal, fmt.Sprintf("%s %s", r.Rule, Mask(r.Value)))
				}
			}
		case "not_secret":
			if _, hit := Detect("note", r.Value); true {
				m.fpValues.n++
				if hit {
					m.fpValues.hit++
				}
			}
			if r.Candidate == "" {
				continue
			}
			key := secContextKey(r.Context, r.Candidate)
			d, hit := Detect(key, r.Candidate)
			m.fpCandidates.n++
			if !r.Synthetic {
				m.fpCandidatesReal.n++
			}
			why := secDisputed(r, d, hit)
			if why == "" {
				m.fpReviewed.n++
			}
			if hit {
				m.fpCandidates.hit++
				if !r.Synthetic {
					m.fpCandidatesReal.hit++
				}
				line := fmt.Sprintf("%s key=%q %s → %s", r.Rule, key, Mask(r.Candidate), d.Family)
				if why == "" {
					m.fpReviewed.hit++
					m.fpList = append(m.fpList, line)
				} else {
					m.disputed = append(m.disputed, line+" ("+why+")")
				}
			}
		}
	}
	return m
}

// secDisputed says why a not_secret row's label does not apply to a
// value-level, path-independent scanner ("" when it does). Labels are per
// gitleaks rule and context (linters.md §1.8), so two kinds of rows are
// reviewed instead of counted:
//   - rows with a path: they are false positives only because of their file
//     path (nuget rows in a file not named nuget.config, k8s rows in the
//     wrong file, …); oastui scans a JSON value, not a path;
//   - format-valid provider tokens that gitleaks suppresses only through an
//     exact-value allowlist (suppressed_by allowlist_or_other) and that we
//     report through the same provider's prefix: AWS's documented example
//     key AKIAIOSFODNN7EXAMPLE, which the reference's own fixture 03
//     requires to be reported, and public Google API keys of SDK samples,
//     which no format check can tell from live keys.
func secDisputed(r secGitleaksRow, d Detection, hit bool) string {
	switch {
	case r.Path != "":
		return "FP only for path " + r.Path
	case hit && d.Strong && r.SuppressedBy == "allowlist_or_other":
		return "exact-value allowlist of a format-valid " + d.Family
	}
	return ""
}

// Pinned just under what the detector reaches (see the table the test
// logs); the test fails when a change makes the numbers drop.
const (
	minFamilyRecall        = 100.0 // every SPEC provider family, under the neutral and the secret key
	minRecallSecretKeyReal = 96.0  // overall, secret-bearing key, non-synthetic rows (goal ≥ 95; reached 96.33)
	maxFPCandidates        = 14.8  // all not_secret candidates under their context key (reached 14.77, see secDisputed)
	maxFPReviewed          = 1.0   // the same without the disputed labels (goal ≤ 5; reached 0.84)
)

func TestSecretMeasurement(t *testing.T) {
	rows := secLoadGitleaks(t)
	m := secMeasure(rows)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s  %-18s  %-18s\n", "family", "neutral key", "api_key")
	fams := make([]string, 0, len(m.familyNeutral))
	for f := range m.familyNeutral {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		fmt.Fprintf(&b, "%-12s  %-18s  %-18s\n", f, m.familyNeutral[f], m.familySecret[f])
	}
	fmt.Fprintf(&b, "recall, secret rows (%d excluded: empty value)\n", m.excluded)
	fmt.Fprintf(&b, "  api_key, non-synthetic  %s\n", m.recallSecretReal)
	fmt.Fprintf(&b, "  api_key, all            %s\n", m.recallSecretAll)
	fmt.Fprintf(&b, "  note,    non-synthetic  %s\n", m.recallNeutralReal)
	fmt.Fprintf(&b, "  note,    all            %s\n", m.recallNeutralAll)
	fmt.Fprintf(&b, "false positives, not_secret rows\n")
	fmt.Fprintf(&b, "  candidate under context key, all            %s\n", m.fpCandidates)
	fmt.Fprintf(&b, "  candidate under context key, non-synthetic  %s\n", m.fpCandidatesReal)
	fmt.Fprintf(&b, "  candidate, disputed labels left out         %s\n", m.fpReviewed)
	fmt.Fprintf(&b, "  whole value under note (informational)      %s\n", m.fpValues)
	fmt.Fprintf(&b, "missed non-synthetic secrets under api_key:\n  %s\n", strings.Join(m.missedReal, "\n  "))
	fmt.Fprintf(&b, "false positives:\n  %s\n", strings.Join(m.fpList, "\n  "))
	fmt.Fprintf(&b, "hits on disputed not_secret labels:\n  %s\n", strings.Join(m.disputed, "\n  "))
	t.Log(b.String())

	for _, f := range fams {
		if m.familyNeutral[f].pct() < minFamilyRecall || m.familySecret[f].pct() < minFamilyRecall {
			t.Errorf("family %s: recall %s (neutral) / %s (api_key), want ≥ %.0f%%", f, m.familyNeutral[f], m.familySecret[f], minFamilyRecall)
		}
	}
	if m.recallSecretReal.pct() < minRecallSecretKeyReal {
		t.Errorf("recall under api_key on non-synthetic rows %s, want ≥ %.2f%%", m.recallSecretReal, minRecallSecretKeyReal)
	}
	if m.fpReviewed.pct() > maxFPReviewed {
		t.Errorf("false positives on reviewed not_secret candidates %s, want ≤ %.2f%%", m.fpReviewed, maxFPReviewed)
	}
	if m.fpCandidates.pct() > maxFPCandidates {
		t.Errorf("false positives on not_secret candidates %s, want ≤ %.2f%%", m.fpCandidates, maxFPCandidates)
	}
}
