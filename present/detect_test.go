package present

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// The fake credentials of internal/testshared (one per provider family).
var (
	tk = testshared.Token

	fakeGH     = testshared.FakeGitHub
	fakeOpenAI = testshared.FakeOpenAI
	fakeAnth   = testshared.FakeAnthropic
	fakeJWT    = testshared.FakeJWT
	fakePEM    = testshared.FakePEM
	fakeAWS    = testshared.FakeAWS
	fakeRandom = testshared.FakeRandom
)

func TestDetectSecret(t *testing.T) {
	cases := []struct {
		key, value string
		family     string // "" = nothing
		strong     bool
	}{
		// provider catalogue, under a neutral key
		{"note", fakeGH, "github-pat", true},
		{"note", tk("github_pat_", "11AQ7ZK3Y0pLm4NvXw8Rt2_c9HsJf6GdBk1TqWe5UoIyP3aZxCvBnM7LkJhGfDs"), "github-fine-grained-pat", true},
		{"note", fakeOpenAI, "openai-sk", true},
		{"note", fakeAnth, "anthropic-key", true},
		{"note", tk("glpat-", "Xy9Zq2Wr4Ts6Uv8Kl1Mn"), "gitlab-token", true},
		{"note", tk("sk_live_", "51HqLyjWDarjtT1zdp7dcXyZ"), "stripe-key", true},
		{"note", tk("rk_live_", "51HqLyjWDarjtT1zdp7dcXyZ"), "stripe-key", true},
		{"note", tk("AIza", "SyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh7"), "google-api-key", true},
		{"note", tk("xoxb-", "781236542736-2364535789652-GkwFDQoHqzXDVsC6GzqYUypD"), "slack-token", true},
		{"note", fakeAWS, "aws-access-key", true},
		{"note", tk("hf_", "jCBaQngSHiHDRYOcsMcifUcysGyaiybUWz"), "huggingface-token", true},
		{"note", tk("npm_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"), "npm-token", true},
		{"note", tk("SG.", "ngeVfQFYQlKU0ufo8x5d1A.TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"), "sendgrid-key", true},
		{"note", fakePEM, "private-key", true},
		{"note", fakeJWT, "jwt", true},
		{"note", "see https://hooks.slack.com/services/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 now", "slack-webhook", true},
		// reference rules
		{"Authorization", "Bearer " + fakeOpenAI, "openai-sk", true},
		{"Authorization", "Bearer 8f3k2j1h4g5f6d7s", "bearer-token", false},
		{"system_prompt", "call it with -H 'Authorization: Bearer 8f3k2j1h4g5f6d7s9a' please", "bearer-token", false},
		{"data", "token is " + fakeRandom + "Q7", "high-entropy-token", false},
		// anchored placeholders: a value that merely contains ${X} is scanned
		{"body", "${PREFIX} " + fakeGH, "github-pat", true},
		{"headers", "<TOKEN> " + fakeGH, "github-pat", true},
		// URLs
		{"url", "https://admin:s3cr3tP4ss@db.example.com/x", "url-credentials", true},
		{"dsn", "postgres://app:Zq8!wLm2@10.0.0.5:5432/db", "url-credentials", true},
		{"endpoint", "https://api.example.com/v1?api_key=Zf3D0LXCM3EIMbgJ&x=1", "secret-named-key", false},
		// secret-named keys anywhere
		{"api_key", fakeRandom, "high-entropy-token", false},
		{"api_key", "Zf3D0LXCM3EIMbgJ", "secret-named-key", false},
		{"apiKey", "5eb4223e-5008-46e5-be67-c7b8f2732305", "secret-named-key", false},
		{"x-api-key", "d2LkV78zLx4t9QpR", "secret-named-key", false},
		{"client_secret", "q5VgKljZ7cb3.0sp0Apz.vOjRIPyeTr", "high-entropy-token", false},
		{"client_secret", "q5VgKljZ7cb3.0sp", "secret-named-key", false},
		{"password", "hunter2!x", "password-literal", false},
		{"db_password", "correcthorse", "password-literal", false},
		{"note", "Server=db;User Id=app;Password=Abc123xyz!;", "password-literal", false},
		{"credentials", "elastic:P@ssw0rd$1", "secret-named-key", false},
		{"config", "password: UyFCXCpkJHpEc2I9", "password-literal", false},
		// description: only strong detections come back
		{"description", "rotate " + fakeOpenAI + " monthly", "openai-sk", true},
		{"description", "token is " + fakeRandom + "Q7", "", false},

		// negatives: placeholders and templates
		{"Authorization", "Bearer {{token}}", "", false},
		{"Authorization", "Bearer ${TOKEN}", "", false},
		{"Authorization", "Bearer <API_KEY>", "", false},
		{"Authorization", "Bearer sk-EXAMPLE", "", false},
		{"Authorization", "Basic {{ creds }}", "", false},
		{"api_key", "{{API_KEY}}", "", false},
		{"api_key", "{{ inputs.api_key }}", "", false},
		{"token", "${{ secrets.GH_TOKEN }}", "", false},
		{"api_key", "$OPENAI_API_KEY", "", false},
		{"api_key", "%API_KEY%", "", false},
		{"api_key", "<your-api-key>", "", false},
		{"api_key", "OPENAI_API_KEY", "", false},
		{"api_key", "your_api_key_here", "", false},
		{"api_key", "xxxxxxxxxxxxxxxxxxxxxxxx", "", false},
		{"api_key", "1234567890abcdef", "", false},
		{"token", "access_token", "", false},
		{"token", "accessToken", "", false},
		{"password", "********", "", false},
		{"password", "password", "", false},
		{"secret", "<SECRET>", "", false},
		{"Authorization", "REDACTED", "", false},
		{"note", tk("ghp_", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), "", false},
		{"note", tk("AKIA", "XXXXXXXXXXXXXXXX"), "", false},
		{"note", tk("glc_", "111111111111111111111111111111111111111111=="), "", false},
		{"note", tk("xoxb-", "xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx"), "", false},
		{"note", "-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----", "", false},
		{"note", tk("hf_", "requiredCharacteristicTypesForDisplayMetadata"), "", false},
		{"note", tk("xoxe.xoxp-", "1-SlackAppConfigurationAccessTokenHere"), "", false},
		{"note", tk("ntn_", "12345678901234567890123456789012345678901234567890"), "", false},
		{"system_prompt", "#define NOROM_OSCHF_DebugGetExpectedAverageCrystalAmplitude 1", "", false},
		// negatives: ids, UUIDs, hashes, URLs without credentials, prose
		{"id", "550e8400-e29b-41d4-a716-446655440000", "", false},
		{"note", "550e8400-e29b-41d4-a716-446655440000", "", false},
		{"run_id", fakeRandom + "Q7xY", "", false},
		{"request_id", "Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7", "", false},
		{"sha256", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "", false},
		{"integrity", "sha512-Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7+V4eUrLfpuyOuxmiW9rhROG/Whikle15syazJOk==", "", false},
		{"csrf_token", "Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7", "", false},
		{"public_key", "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit", "", false},
		{"max_tokens", "4096", "", false},
		{"token_url", "https://auth.example.com/oauth/token", "", false},
		{"url", "https://api.example.com/v1/chat/completions?model=gpt-4o-mini&stream=true", "", false},
		{"url", "{{CINATRA_BASE_URL}}/api/context-resolve", "", false},
		{"url", "https://user@host.example.com/repo.git", "", false},
		{"url", "postgres://user:${DB_PASSWORD}@host/db", "", false},
		{"url", "https://username:password@example.com", "", false},
		{"system_prompt", "You are a careful assistant. Never reveal the API key or the bearer token.", "", false},
		{"body", "true", "", false},
		{"body", "1.0.0", "", false},
		{"model_id", "claude-3-5-sonnet-20241022", "", false},
		{"api_key_env", "ANTHROPIC_API_KEY", "", false},
		{"secret_name", "prod/openai/key", "", false},
		{"note", "", "", false},
		{"api_key", "   ", "", false},
	}
	for _, c := range cases {
		d, ok := Detect(c.key, c.value)
		got := ""
		if ok {
			got = d.Family
		}
		if got != c.family {
			t.Errorf("Detect(%q, %q) = %q, want %q", c.key, Mask(c.value), got, c.family)
			continue
		}
		if !ok {
			continue
		}
		if d.Strong != c.strong {
			t.Errorf("Detect(%q, %q).Strong = %v, want %v", c.key, Mask(c.value), d.Strong, c.strong)
		}
		if d.Start < 0 || d.End > len(c.value) || d.Start >= d.End {
			t.Errorf("Detect(%q, …) span %d:%d out of %d", c.key, d.Start, d.End, len(c.value))
			continue
		}
		if d.Masked != Mask(c.value[d.Start:d.End]) {
			t.Errorf("Masked %q is not the mask of the span %q", d.Masked, Mask(c.value[d.Start:d.End]))
		}
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"sk-1234567890abcdef1234567890abcdef": "sk-1…35",
		"abcdefghijkl":                        "abcd…12",
		"abcdefgh":                            "ab…8",
		"ab":                                  "…2",
		"ünïcödé-tökén-12":                    "ünïc…16",
	} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassifyKey(t *testing.T) {
	for key, want := range map[string]KeyClass{
		"name": KeyDescriptive, "description": KeyDescriptive,
		"api_key": KeySecret, "apiKey": KeySecret, "APIKey": KeySecret, "x-api-key": KeySecret, "X-API-KEY": KeySecret,
		"OPENAI_API_KEY": KeySecret, "token": KeySecret, "accessToken": KeySecret, "x-github-token": KeySecret,
		"Authorization": KeySecret, "client_secret": KeySecret, "clientSecret": KeySecret, "secret": KeySecret,
		"private_key": KeySecret, "AWS_SECRET_ACCESS_KEY": KeySecret, "refresh_token": KeySecret, "token2": KeySecret,
		"credentials": KeySecret, "basic_auth": KeySecret,
		"password": KeyPassword, "db_password": KeyPassword, "passwd": KeyPassword, "ClearTextPassword": KeyPassword,
		"id": KeyIdentifier, "run_id": KeyIdentifier, "AWS_ACCESS_KEY_ID": KeyIdentifier, "token_url": KeyIdentifier,
		"csrf_token": KeyIdentifier, "public_key": KeyIdentifier, "publicToken": KeyIdentifier, "secret_name": KeyIdentifier,
		"token_type": KeyIdentifier, "max_tokens": KeyIdentifier, "primaryKey": KeyIdentifier, "url": KeyIdentifier,
		"sha256": KeyIdentifier, "integrity": KeyIdentifier, "key_length": KeyIdentifier,
		"key": KeyNeutral, "keyword": KeyNeutral, "note": KeyNeutral, "body": KeyNeutral, "system_prompt": KeyNeutral,
		"author": KeyNeutral, "tokenizer": KeyNeutral, "pass": KeyNeutral, "": KeyNeutral, "secrets": KeyNeutral,
	} {
		if got := ClassifyKey(key); got != want {
			t.Errorf("ClassifyKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// FuzzDetectSecret: never panics, spans stay inside the value, the mask
// never shows the secret, and the result is deterministic.
func FuzzDetectSecret(f *testing.F) {
	for _, s := range []string{fakeGH, fakeOpenAI, fakeJWT, fakePEM, "Bearer " + fakeAWS, "https://a:b@c/d?token=" + fakeRandom,
		"{{x}}", "${X} y", "<A>", "password: x", "a=b;c=d", "hooks.slack.com/services/a/b/cccccccccccccccccccccccc", "eyJ.eyJ.", "-----BEGIN PRIVATE KEY-----"} {
		f.Add("api_key", s)
		f.Add("note", s)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		d, ok := Detect(key, value)
		d2, ok2 := Detect(key, value)
		if ok != ok2 || d != d2 {
			t.Fatalf("not deterministic: %v %v / %v %v", d, ok, d2, ok2)
		}
		if !ok {
			return
		}
		if d.Start < 0 || d.End > len(value) || d.Start >= d.End {
			t.Fatalf("span %d:%d out of %d", d.Start, d.End, len(value))
		}
		secret := value[d.Start:d.End]
		if utf8.RuneCountInString(secret) >= 4 && strings.Contains(d.Masked, secret) {
			t.Fatalf("mask %q shows the secret %q", d.Masked, secret)
		}
		if d.Family == "" {
			t.Fatal("empty family")
		}
	})
}

func TestRedactSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`      "url": "https://deploy:au4rEE7naW8mHDKw3OaW@h.example/r?access_token=` + fakeGH + `",`,
			`      "url": "https://deploy:au4r…20@h.example/r?access_token=ghp_…41",`},
		{`        "Authorization": "token ` + fakeGH + `"`, `        "Authorization": "token ghp_…41"`},
		{`"system_prompt": "plain text"`, `"system_prompt": "plain text"`},
		{`export OPENAI_API_KEY=` + fakeOpenAI, `export OPENAI_API_KEY=sk-p…41`},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q)\n = %q\nwant %q", Mask(c.in), got, c.want)
		}
	}
}

// TestDetectSecretHostile: inputs built to make a careless scanner
// quadratic (many markers, each starting a long search) finish; a
// quadratic path would take minutes on these 256 KiB values.
// TestDetectSecretHostile: 256 KiB values built to make a detector
// backtrack, rescan or copy (repeated prefixes, openers, separators) cost
// a bounded amount of work. The bound checked is the memory allocated per
// input byte (a deterministic count, unlike time: a rescan per position
// or a copy per match would allocate on the order of n² bytes), and the
// masked result must be no longer than the input plus its masks and stable
// when masked again.
func TestDetectSecretHostile(t *testing.T) {
	// 64 KiB a value under -race (one goroutine's scans; a quadratic one
	// still shows thousands of bytes allocated per input byte), 256 KiB
	// in the pass without it.
	n := 256 << 10 / race.Stride(4)
	// allocBound is bytes allocated per input byte for four detections and
	// one redaction; today's cost is well under it (see the log with -v).
	const allocBound = 16
	for _, unit := range []string{
		"-----BEGIN PRIVATE KEY-----\n", "eyJ", "eyJa.", "a:", "://", "x@y://", "Bearer ", "x=", "{{", "${", "password: ",
		"hooks.slack.com/services/", "?token=", "sk-", "-", "=", "a", "é",
	} {
		v := strings.Repeat(unit, n/len(unit))
		var red string
		alloc := allocated(func() {
			for _, key := range []string{"note", "api_key", "password", "description"} {
				Detect(key, v)
			}
			red = Redact(v)
		})
		perByte := float64(alloc) / float64(len(v))
		t.Logf("%q: %.2f bytes allocated per input byte", unit, perByte)
		if perByte > allocBound {
			t.Errorf("%q×%d: %d bytes allocated (%.1f per input byte, bound %d): work grows faster than the input", unit, n/len(unit), alloc, perByte, allocBound)
		}
		if len(red) > len(v)+64 {
			t.Errorf("%q: redacted value grew from %d to %d bytes", unit, len(v), len(red))
		}
		if again := Redact(red); again != red {
			t.Errorf("%q: Redact is not stable on its own output (%d → %d bytes)", unit, len(red), len(again))
		}
	}
}

// allocated reports the bytes f allocates (runtime.MemStats.TotalAlloc,
// which counts every allocation whatever the collector does).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestProviderFillerBodies(t *testing.T) {
	for _, v := range []string{
		tk("AIza", "Syabcdefghijklmnopqrstuvwxyz1234567"),
		tk("sgp_", "5555555dAAAAA7777777CcccCFaaaaaaaaaaaaaa"),
		tk("GR1348941", "12312312312312312312"),
		tk("glpat-", "XXXXXXXXXXX-XXXXXXXX"),
	} {
		if d, ok := Detect("note", v); ok {
			t.Errorf("filler %q reported as %s", Mask(v), d.Family)
		}
	}
	// the reference's fixtures: sequential fakes after a prefix stay secrets
	for _, v := range []string{tk("sk-", "1234567890abcdef1234567890abcdef"), tk("xoxb-", "1234-5678-abcdefghijklmnopqrstuvwxyz"), tk("xoxa-", "2-511111111")} {
		if _, ok := Detect("note", v); !ok {
			t.Errorf("%q not reported", Mask(v))
		}
	}
}

func BenchmarkDetectSecret(b *testing.B) {
	vals := []string{"You are a helpful assistant that drafts outreach e-mails for the sales team. Keep it short.",
		"{{CINATRA_BASE_URL}}/api/context-resolve", "Bearer {{token}}", fakeOpenAI, "550e8400-e29b-41d4-a716-446655440000"}
	for b.Loop() {
		for _, v := range vals {
			Detect("body", v)
		}
	}
}

// TestURLCredentialsEscapedSlashes: JSON source may spell a URL with
// escaped slashes (https:\/\/user:pw@host, as minified files often do);
// Redact, which runs on source excerpts, masks the password there too.
// Before, the excerpt of such a minified file showed it raw.
func TestURLCredentialsEscapedSlashes(t *testing.T) {
	pw := tk("Xk9vQ2mL", "7pR4tZ8w")
	for _, tc := range []struct{ in, want string }{
		{`{"url":"https:\/\/admin:` + pw + `@db.example\/hook"}`, `{"url":"https:\/\/admin:Xk9v…16@db.example\/hook"}`},
		{`{"url":"https://admin:` + pw + `@db.example/hook"}`, `{"url":"https://admin:Xk9v…16@db.example/hook"}`},
		{`"a":"x:\/\/y","url":"postgres:\/\/u:` + pw + `@db\/x"`, `"a":"x:\/\/y","url":"postgres:\/\/u:Xk9v…16@db\/x"`},
		{`{"url":"https:\/\/admin:password@db.example\/hook"}`, `{"url":"https:\/\/admin:password@db.example\/hook"}`}, // placeholder word
		{`{"url":"https:\/\/db.example\/a?b=c"}`, `{"url":"https:\/\/db.example\/a?b=c"}`},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	d, ok := Detect("url", `https:\/\/admin:`+pw+`@db.example\/hook`)
	if !ok || d.Family != "url-credentials" {
		t.Errorf("escaped-slash URL: %+v %v", d, ok)
	}
}

// TestRedactLeftOfStructural: Detect reports a URL credential before a
// provider token further left; Redact masks both (before, the token left
// of the URL was kept raw).
func TestRedactLeftOfStructural(t *testing.T) {
	in := `"p":"use ` + fakeGH + `","u":"https://admin:` + tk("Xk9vQ2mL", "7pR4tZ8w") + `@db.example/x"`
	got := Redact(in)
	if strings.Contains(got, fakeGH[4:16]) || strings.Contains(got, "7pR4tZ8w") {
		t.Errorf("Redact left a secret:\n%s", got)
	}
	if want := `"p":"use ghp_…41","u":"https://admin:Xk9v…16@db.example/x"`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestRedactExcerptLine: an excerpt of a minified line starts with some
// key; a descriptive first key must not lower what the rest of the line
// is judged by (before, `"name":"tok <token>",…` kept the token raw).
func TestRedactExcerptLine(t *testing.T) {
	in := `"name":"tok ` + fakeRandom + `","prompt_template":"x"}`
	if got := Redact(in); strings.Contains(got, fakeRandom[4:16]) {
		t.Errorf("Redact kept the token: %s", got)
	}
	// a key that names a secret still makes the judgement stricter
	if got := Redact("password: hunter2hunter"); strings.Contains(got, "hunter2hunter") {
		t.Errorf("Redact kept the password: %s", got)
	}
}

// TestRedactInsideIdentifiers: a provider key inside an identifier or a
// JSON Pointer — after a word boundary that includes '_', '/', '.', '-' —
// is found and masked like the same key as a value (issue 26 items 10
// and 12: "secret_AKIA…" as a placeholder name, "/$referenced_components/
// ghp_…/id" as a pointer, were shown raw).
func TestRedactInsideIdentifiers(t *testing.T) {
	aws := "AKIA" + tk("Q3ZL7RWX", "P4N2M6TB")
	for _, in := range []string{
		"secret_" + aws,
		"{{ secret_" + aws + " }}",
		"/$referenced_components/" + fakeGH + "/id",
		"#/$referenced_components/" + fakeGH,
		"node." + fakeGH + ".output",
		"x-" + aws + "_suffix",
		`    "` + fakeGH + `": {`,
		fakeGH + `: x`,
		"secret_" + aws + "=1",
	} {
		got := Redact(in)
		if strings.Contains(got, aws[4:14]) || strings.Contains(got, fakeGH[4:16]) {
			t.Errorf("Redact(%q) = %q: the key is shown", in, got)
		}
		if d, ok := Detect("", in); !ok || !d.Strong {
			t.Errorf("Detect(%q): %+v, %v", in, d, ok)
		}
	}
	// a prefix inside a word (no boundary before it) or running on into
	// letters or digits is not a key
	for _, in := range []string{
		"mask" + aws[:4] + tk("Q3ZL7RWX", "P4N2M6TB"),
		"secret_" + aws + "extra",
		"my_ghp_short",
	} {
		if d, ok := Detect("", in); ok && d.Strong {
			t.Errorf("Detect(%q) = %+v: not a provider key", in, d)
		}
	}
}
