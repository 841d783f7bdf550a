package present

import (
	"sort"
	"strings"
)

// The provider catalogue: tokens whose prefix names the issuer. A prefix
// check (indexed by the first byte) replaces a regular expression per value,
// which keeps the scan linear and cheap. Prefixes come from the providers'
// documented formats as collected by gitleaks (linters.md §1); families the
// reference knows keep the reference's label.

// Body character sets.
const (
	csAlnum       = 1 << iota // A-Z a-z 0-9
	csUnder                   // _
	csDash                    // -
	csDot                     // .
	csB64                     // + / =
	csUpperOnly               // restricts letters to A-Z
	csLowerOnly               // restricts letters to a-z
	csLettersOnly             // no digits
	csTilde                   // ~
)

const (
	csB64URL = csAlnum | csUnder | csDash
	csToken  = csAlnum | csUnder | csDash | csDot
)

type secProvider struct {
	prefix  string
	family  string
	minBody int  // characters of the body (after the prefix) at least
	maxBody int  // 0: no limit
	charset int  // what the body may hold
	noFreq  bool // skip the low-diversity placeholder test (structured digit groups)
	check   func(body string) bool
}

var secProviders = []secProvider{
	// Anthropic, OpenAI (reference label openai-sk for every sk- key)
	{prefix: "sk-ant-", family: "anthropic-key", minBody: 20, charset: csB64URL},
	{prefix: "sk-proj-", family: "openai-sk", minBody: 20, charset: csB64URL},
	{prefix: "sk-svcacct-", family: "openai-sk", minBody: 20, charset: csB64URL},
	{prefix: "sk-admin-", family: "openai-sk", minBody: 20, charset: csB64URL},
	{prefix: "sk-or-v1-", family: "openrouter-key", minBody: 32, charset: csAlnum},
	{prefix: "sk-", family: "openai-sk", minBody: 16, charset: csB64URL, check: secHasDigitAndLetter},
	// GitHub
	{prefix: "ghp_", family: "github-pat", minBody: 20, charset: csAlnum},
	{prefix: "gho_", family: "github-pat", minBody: 20, charset: csAlnum},
	{prefix: "ghu_", family: "github-pat", minBody: 20, charset: csAlnum},
	{prefix: "ghs_", family: "github-pat", minBody: 20, charset: csAlnum},
	{prefix: "ghr_", family: "github-pat", minBody: 20, charset: csAlnum},
	{prefix: "gha_", family: "github-pat", minBody: 20, charset: csAlnum},
	{prefix: "github_pat_", family: "github-fine-grained-pat", minBody: 22, charset: csAlnum | csUnder},
	// GitLab
	{prefix: "glpat-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "gldt-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glrt-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glptt-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glcbt-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glimt-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glagent-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glsoat-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "gloas-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glffct-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "glft-", family: "gitlab-token", minBody: 20, charset: csToken},
	{prefix: "GR1348941", family: "gitlab-token", minBody: 20, charset: csB64URL},
	{prefix: "_gitlab_session=", family: "gitlab-token", minBody: 32, charset: csAlnum},
	// Stripe
	{prefix: "sk_live_", family: "stripe-key", minBody: 20, charset: csAlnum},
	{prefix: "rk_live_", family: "stripe-key", minBody: 20, charset: csAlnum},
	{prefix: "sk_test_", family: "stripe-key", minBody: 20, charset: csAlnum},
	{prefix: "rk_test_", family: "stripe-key", minBody: 20, charset: csAlnum},
	{prefix: "sk_prod_", family: "stripe-key", minBody: 20, charset: csAlnum},
	{prefix: "rk_prod_", family: "stripe-key", minBody: 20, charset: csAlnum},
	{prefix: "whsec_", family: "stripe-key", minBody: 24, charset: csAlnum},
	// Google
	{prefix: "AIza", family: "google-api-key", minBody: 30, charset: csB64URL},
	{prefix: "ya29.", family: "google-oauth", minBody: 20, charset: csB64URL},
	{prefix: "GOCSPX-", family: "google-oauth-client-secret", minBody: 24, charset: csB64URL},
	// Slack
	{prefix: "xoxb-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxp-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxa-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxr-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxs-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxo-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxe-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxe.xoxp-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xoxe.xoxb-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	{prefix: "xapp-", family: "slack-token", minBody: 10, charset: csAlnum | csDash, noFreq: true, check: secSlackBody},
	// AWS
	{prefix: "AKIA", family: "aws-access-key", minBody: 12, charset: csAlnum | csUpperOnly, check: secAwsBody},
	{prefix: "ASIA", family: "aws-access-key", minBody: 12, charset: csAlnum | csUpperOnly, check: secAwsBody},
	{prefix: "ABIA", family: "aws-access-key", minBody: 16, maxBody: 16, charset: csAlnum | csUpperOnly},
	{prefix: "ACCA", family: "aws-access-key", minBody: 16, maxBody: 16, charset: csAlnum | csUpperOnly},
	{prefix: "A3T", family: "aws-access-key", minBody: 17, maxBody: 17, charset: csAlnum | csUpperOnly},
	{prefix: "ABSK", family: "aws-bedrock-key", minBody: 100, charset: csAlnum | csB64},
	{prefix: "bedrock-api-key-", family: "aws-bedrock-key", minBody: 28, charset: csAlnum | csB64},
	// Hugging Face, npm, SendGrid
	{prefix: "hf_", family: "huggingface-token", minBody: 30, charset: csAlnum | csLettersOnly, check: secNotWords},
	{prefix: "api_org_", family: "huggingface-token", minBody: 30, charset: csAlnum | csLettersOnly, check: secNotWords},
	{prefix: "npm_", family: "npm-token", minBody: 36, charset: csAlnum},
	{prefix: "SG.", family: "sendgrid-key", minBody: 60, charset: csB64URL | csDot, check: secSendgridBody},
	// More unique prefixes of common providers
	{prefix: "pplx-", family: "perplexity-key", minBody: 40, charset: csAlnum},
	{prefix: "gsk_", family: "groq-key", minBody: 40, charset: csAlnum},
	{prefix: "xai-", family: "xai-key", minBody: 60, charset: csAlnum},
	{prefix: "r8_", family: "replicate-token", minBody: 30, charset: csAlnum},
	{prefix: "nvapi-", family: "nvidia-key", minBody: 40, charset: csB64URL},
	{prefix: "lsv2_pt_", family: "langsmith-key", minBody: 30, charset: csAlnum | csUnder},
	{prefix: "lsv2_sk_", family: "langsmith-key", minBody: 30, charset: csAlnum | csUnder},
	{prefix: "glc_", family: "grafana-token", minBody: 32, charset: csAlnum | csB64},
	{prefix: "glsa_", family: "grafana-token", minBody: 32, charset: csAlnum | csUnder},
	{prefix: "hvs.", family: "vault-token", minBody: 24, charset: csB64URL},
	{prefix: "hvb.", family: "vault-token", minBody: 24, charset: csB64URL},
	{prefix: "sntrys_", family: "sentry-token", minBody: 40, charset: csAlnum | csB64 | csUnder},
	{prefix: "sntryu_", family: "sentry-token", minBody: 40, charset: csAlnum},
	{prefix: "dapi", family: "databricks-token", minBody: 32, charset: csAlnum | csDash, check: secHasDigitAndLetter},
	{prefix: "ntn_", family: "notion-token", minBody: 40, charset: csAlnum},
	{prefix: "secret_", family: "notion-token", minBody: 43, maxBody: 43, charset: csAlnum, check: secHasDigitAndLetter},
	{prefix: "HRKU-", family: "heroku-key", minBody: 40, charset: csB64URL},
	{prefix: "pnu_", family: "prefect-token", minBody: 36, charset: csAlnum},
	{prefix: "shpat_", family: "shopify-token", minBody: 32, charset: csAlnum},
	{prefix: "shpca_", family: "shopify-token", minBody: 32, charset: csAlnum},
	{prefix: "shppa_", family: "shopify-token", minBody: 32, charset: csAlnum},
	{prefix: "shpss_", family: "shopify-token", minBody: 32, charset: csAlnum},
	{prefix: "AGE-SECRET-KEY-1", family: "age-secret-key", minBody: 50, charset: csAlnum | csUpperOnly, noFreq: true},
	{prefix: "ops_eyJ", family: "1password-token", minBody: 100, charset: csAlnum | csB64},
	{prefix: "dop_v1_", family: "digitalocean-token", minBody: 64, charset: csAlnum},
	{prefix: "doo_v1_", family: "digitalocean-token", minBody: 64, charset: csAlnum},
	{prefix: "dor_v1_", family: "digitalocean-token", minBody: 64, charset: csAlnum},
	{prefix: "pypi-AgEIcHlwaS5vcmc", family: "pypi-token", minBody: 50, charset: csB64URL},
	{prefix: "rubygems_", family: "rubygems-token", minBody: 48, charset: csAlnum},
	{prefix: "dp.pt.", family: "doppler-token", minBody: 40, charset: csAlnum},
	{prefix: "dp.st.", family: "doppler-token", minBody: 40, charset: csAlnum | csDot | csDash | csUnder},
	{prefix: "dp.sa.", family: "doppler-token", minBody: 40, charset: csAlnum},
	{prefix: "lin_api_", family: "linear-key", minBody: 40, charset: csAlnum},
	{prefix: "PMAK-", family: "postman-key", minBody: 50, charset: csAlnum | csDash},
	{prefix: "ATATT3", family: "atlassian-token", minBody: 100, charset: csB64URL | csB64},
	{prefix: "AKCp", family: "artifactory-key", minBody: 65, charset: csAlnum},
	{prefix: "sq0atp-", family: "square-token", minBody: 22, charset: csB64URL},
	{prefix: "sq0csp-", family: "square-token", minBody: 40, charset: csB64URL},
	{prefix: "dckr_pat_", family: "docker-token", minBody: 24, charset: csB64URL},
	{prefix: "fo1_", family: "flyio-token", minBody: 40, charset: csB64URL},
	{prefix: "fm1a_", family: "flyio-token", minBody: 100, charset: csB64URL | csB64},
	{prefix: "fm1r_", family: "flyio-token", minBody: 100, charset: csB64URL | csB64},
	{prefix: "fm2_", family: "flyio-token", minBody: 100, charset: csB64URL | csB64},
	{prefix: "sha256~", family: "openshift-token", minBody: 40, charset: csB64URL},
	{prefix: "tk-us-", family: "scalingo-token", minBody: 40, charset: csB64URL},
	{prefix: "sgp_", family: "sourcegraph-token", minBody: 40, charset: csAlnum | csUnder},
	{prefix: "rdme_", family: "readme-key", minBody: 60, charset: csAlnum},
	{prefix: "shippo_live_", family: "shippo-token", minBody: 40, charset: csAlnum},
	{prefix: "shippo_test_", family: "shippo-token", minBody: 40, charset: csAlnum},
	{prefix: "FLWSECK-", family: "flutterwave-key", minBody: 32, charset: csAlnum | csDash},
	{prefix: "FLWSECK_TEST-", family: "flutterwave-key", minBody: 32, charset: csAlnum | csDash},
	{prefix: "CLOJARS_", family: "clojars-token", minBody: 60, charset: csAlnum},
	{prefix: "ico-", family: "infracost-token", minBody: 32, charset: csAlnum},
	{prefix: "dt0c01.", family: "dynatrace-token", minBody: 80, charset: csAlnum | csDot},
	{prefix: "EZAK", family: "easypost-token", minBody: 54, charset: csAlnum},
	{prefix: "EZTK", family: "easypost-token", minBody: 54, charset: csAlnum},
	{prefix: "s-s4t2ud-", family: "intra42-secret", minBody: 64, charset: csAlnum},
	{prefix: "s-s4t2af-", family: "intra42-secret", minBody: 64, charset: csAlnum},
	{prefix: "pul-", family: "pulumi-token", minBody: 40, maxBody: 40, charset: csAlnum | csLowerOnly},
	{prefix: "key-", family: "mailgun-key", minBody: 32, maxBody: 32, charset: csAlnum | csLowerOnly, check: secHasDigitAndLetter},
}

// secProvidersByFirst indexes the catalogue by the first byte of the prefix,
// longest prefix first so that sk-ant- wins over sk-.
var secProvidersByFirst = func() (t [256][]*secProvider) {
	for i := range secProviders {
		p := &secProviders[i]
		t[p.prefix[0]] = append(t[p.prefix[0]], p)
	}
	for i := range t {
		sort.SliceStable(t[i], func(a, b int) bool { return len(t[i][a].prefix) > len(t[i][b].prefix) })
	}
	return
}()

// secProviderMinLen: for each first byte, the shortest token a provider
// whose prefix starts with it can match (its prefix and its shortest
// body): the words of prose are shorter than most.
var secProviderMinLen = func() (t [256]uint16) {
	for i := range secProviders {
		p := &secProviders[i]
		n := uint16(min(len(p.prefix)+p.minBody, 1<<16-1))
		if t[p.prefix[0]] == 0 || n < t[p.prefix[0]] {
			t[p.prefix[0]] = n
		}
	}
	return
}()

// secProviderMinSpan: the fewest bytes any provider's key spans (its
// prefix and its shortest body; 15, xoxb- and ten): secPrefix finds no key
// in fewer.
var secProviderMinSpan = func() int {
	n := 1 << 16
	for i := range secProviders {
		n = min(n, len(secProviders[i].prefix)+secProviders[i].minBody)
	}
	return n
}()

// secProviderSecond: for each first byte, the set of second bytes any
// prefix starting with it has: most tokens are rejected with two loads.
var secProviderSecond = func() (t [256][4]uint64) {
	for i := range secProviders {
		p := secProviders[i].prefix
		t[p[0]][p[1]>>6] |= 1 << (p[1] & 63)
	}
	return
}()

func secInCharset(c byte, cs int) bool {
	switch {
	case c >= 'A' && c <= 'Z':
		return cs&csAlnum != 0 && cs&csLowerOnly == 0
	case c >= 'a' && c <= 'z':
		return cs&csAlnum != 0 && cs&csUpperOnly == 0
	case c >= '0' && c <= '9':
		return cs&csAlnum != 0 && cs&csLettersOnly == 0
	case c == '_':
		return cs&csUnder != 0
	case c == '-':
		return cs&csDash != 0
	case c == '.':
		return cs&csDot != 0
	case c == '+' || c == '/' || c == '=':
		return cs&csB64 != 0
	case c == '~':
		return cs&csTilde != 0
	}
	return false
}

// secPrefixAt reports a provider-prefixed secret at the start of value[a:b].
func secPrefixAt(value string, a, b int) (Detection, bool) { return secPrefix(value, a, b, false) }

// secPrefixInWord reports a provider-prefixed secret that starts inside
// value[a:b] after a word boundary — a character that is neither a letter
// nor a digit, '_' included ("secret_AKIA…" as a placeholder name,
// "/$referenced_components/ghp_…/id" as a JSON Pointer, "node.ghp_….out")
// — and ends at one. Linear: one look at each boundary, most rejected by
// the two-byte filter; at most secMaxWordTries pass it (a word of repeated
// prefixes, "sk-sk-sk-…", is not looked at further: a key's identifier has
// few boundaries) and each look reads at most secMaxWordBody bytes.
func secPrefixInWord(value string, a, b int) (Detection, bool) {
	if b-a <= secProviderMinSpan {
		return Detection{}, false // no room for a boundary and a key
	}
	tries := 0
	// q is the boundary byte, p = q+1 where a key would start (p+15 <= b:
	// secPrefix finds no key in fewer bytes, and a look nearer the end,
	// after every look before it, could only be counted as a try); the
	// runs of letters and digits between boundaries are skipped in a loop
	// of their own (secCharClass is 0 for exactly those bytes)
	s := value[:b-secProviderMinSpan]
	for q := a; q < len(s); q++ {
		for q < len(s) && secCharClass[s[q]] == 0 {
			q++
		}
		if q >= len(s) {
			break
		}
		// '+' is no boundary: base64 text is full of them
		if c := value[q+1]; s[q] == '+' || secCharClass[c] != 0 {
			continue
		}
		p := q + 1
		if secProviderSecond[value[p]][value[p+1]>>6]&(1<<(value[p+1]&63)) == 0 {
			continue
		}
		if tries++; tries > secMaxWordTries {
			break
		}
		if d, ok := secPrefix(value, p, b, true); ok {
			return d, true
		}
	}
	return Detection{}, false
}

// Bounds of the look for a key inside a word: the body read from one
// boundary, and the boundaries of one word looked at.
const (
	secMaxWordBody  = 512
	secMaxWordTries = 16
)

// secPrefix is secPrefixAt; inWord, the body may be followed by any
// character that is not a letter or a digit (the rest of an identifier or
// a pointer) instead of ending the token.
func secPrefix(value string, a, b int, inWord bool) (Detection, bool) {
	tok := value[a:b]
	if len(tok) < 8 {
		return Detection{}, false
	}
	if secProviderSecond[tok[0]][tok[1]>>6]&(1<<(tok[1]&63)) == 0 || len(tok) < int(secProviderMinLen[tok[0]]) {
		return Detection{}, false
	}
	for _, p := range secProvidersByFirst[tok[0]] {
		if len(tok) < len(p.prefix)+p.minBody || !strings.HasPrefix(tok, p.prefix) {
			continue
		}
		body := tok[len(p.prefix):]
		m, lim := 0, len(body)
		if inWord { // every boundary of a long token is looked at: bound each look
			lim = min(lim, secMaxWordBody)
			if p.maxBody > 0 {
				lim = min(lim, p.maxBody+1)
			}
		}
		for m < lim && secInCharset(body[m], p.charset) {
			m++
		}
		if m < p.minBody || (p.maxBody > 0 && m > p.maxBody) {
			continue
		}
		// the token must end with the body (trailing sentence punctuation
		// aside); inside a word, the body must end at a word boundary
		if rest := body[m:]; inWord && rest != "" && secIsAlnum(rest[0]) || !inWord && rest != "" && strings.Trim(rest, ".,!?;") != "" && !secIsFieldSuffix(rest) {
			continue
		}
		body = body[:m]
		if p.check != nil && !p.check(body) {
			continue
		}
		// inside a word, a body of words (hf_servingcell…) or a content
		// hash (video_box.ico-7a388b…) is not a key
		if inWord && (!secHasDigitAndLetter(body) || secIsHex(body)) {
			continue
		}
		if secPlaceholderBody(body, p.noFreq) {
			return Detection{}, false
		}
		end := a + len(p.prefix) + m
		return secDet(p.family, value, a, end, true), true
	}
	return Detection{}, false
}

// secIsFieldSuffix: rest is ".field" (a node id followed by its output,
// "node.output", as the dry run's trace names a producer).
func secIsFieldSuffix(rest string) bool {
	if len(rest) < 2 || rest[0] != '.' {
		return false
	}
	for i := 1; i < len(rest); i++ {
		if c := rest[i]; !secIsAlnum(c) && c != '_' {
			return false
		}
	}
	return true
}

// secPlaceholderBody: the part after a provider prefix is filler
// (ghp_xxxxxxxx…, glpat-XXXX-XXXX, AKIAXXXXXXXXXXXXXXXX, glc_1111…=).
// A provider prefix wins over the words "example" and "redacted", as in the
// reference (AKIAIOSFODNN7EXAMPLE is reported).
func secPlaceholderBody(body string, noFreq bool) bool {
	if strings.Contains(body, "xxxx") || strings.Contains(body, "XXXX") || strings.Contains(body, "****") ||
		strings.Contains(body, "####") || strings.Contains(body, "…") {
		return true
	}
	// a long ascending run (…abcdefghijklmnopqrstuvwxyz…) is a typed-in
	// fake; shorter ones stay secrets, as the reference's own fixtures
	// (sk-1234567890abcdef…) want
	run, maxRun := 1, 1
	for i := 1; i < len(body); i++ {
		if body[i] == body[i-1]+1 {
			run++
			maxRun = max(maxRun, run)
		} else {
			run = 1
		}
	}
	if noFreq {
		// structured tokens (Slack): the reference's own fixture is
		// xoxb-1234-5678-abcdefghijklmnopqrstuvwxyz
		return false
	}
	if maxRun >= 16 {
		return true
	}
	return secLowDiversity(body, false)
}

func secHasDigitAndLetter(s string) bool {
	d, l := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			d = true
		} else if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			l = true
		}
	}
	return d && l
}

// secIsHex: s is hexadecimal digits only (one case).
func secIsHex(s string) bool {
	lower, upper := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		default:
			return false
		}
	}
	return !(lower && upper)
}

// secSlackBody: Slack tokens are dash-separated groups that start with digits
// (workspace/user ids, or a version digit): xoxb-123-456-abc, xoxa-2-511…,
// xoxe.xoxp-1-Mi0y…, xapp-1-A05…-517…-610b….
func secSlackBody(body string) bool {
	alnum := 0
	for i := 0; i < len(body); i++ {
		if secIsAlnum(body[i]) {
			alnum++
		}
	}
	if alnum < 10 {
		return false
	}
	dash := strings.IndexByte(body, '-')
	if dash < 0 {
		// one group: a random mix of letters and digits (xoxa-4nwqyhxq3va6)
		return secHasDigitAndLetter(body)
	}
	if dash == 0 {
		return false
	}
	for i := 0; i < dash; i++ {
		if body[i] < '0' || body[i] > '9' {
			return false
		}
	}
	// the last group is random: digits in it, or letters that are not
	// words (xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere is a
	// placeholder)
	last := body[strings.LastIndexByte(body, '-')+1:]
	for i := 0; i < len(last); i++ {
		if last[i] >= '0' && last[i] <= '9' {
			return true
		}
	}
	return secLooksRandom(last)
}

// secAwsBody: an access key id is 16 upper-case characters after the prefix;
// other lengths (the reference accepts 12 or more) need a digit, so that
// ASIAPACIFICREGIONS-style words are not keys.
func secAwsBody(body string) bool {
	if len(body) == 16 {
		return true
	}
	for i := 0; i < len(body); i++ {
		if body[i] >= '0' && body[i] <= '9' {
			return true
		}
	}
	return false
}

// secSendgridBody: SG.<22>.<43>
func secSendgridBody(body string) bool {
	return strings.Count(body, ".") == 1
}

// secNotWords: a letters-only body that is not camelCase words
// (hf_requiredCharacteristicTypesForDisplayMetadata is an identifier).
func secNotWords(body string) bool {
	return !secIsIdentifierish(body) || secLooksRandom(body)
}
