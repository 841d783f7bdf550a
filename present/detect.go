package present

// The literal-credential detector (SPEC §3.3 literal_credential_detected;
// reference cinatra.md §2). Detect(key, value) judges one JSON
// string by what its key says (keys.go) and, in this order:
//
//  1. a value that is one placeholder as a whole ({{x}}, ${X}, $X, <X>,
//     %X%, ***, REDACTED) is not a secret — anchored, unlike the reference;
//  2. "Bearer|Basic|Token|ApiKey <x>" judges x (placeholder, provider
//     token, or a credential-shaped literal: bearer-token);
//  3. one pass over the tokens (the reference's split): provider prefixes
//     (providers.go), provider tokens after "=", "name: x" and
//     "name=x" pairs whose name is secret-named, "Bearer x" in prose, and
//     tokens of 24+ characters with entropy ≥ 4.5 bits (not paths, URLs,
//     hashes or identifier words); the pass marks where a structural secret
//     may be (PEM armour, a JWT, a Slack webhook, a URL) and only then are
//     those searched for — they take precedence;
//  4. under a secret-named key, a literal shaped like a credential (not a
//     word, an identifier, an env-var name, a path, a URL, an e-mail).
//
// Descriptive keys (name, description) and identifier keys (*_id, *_url,
// public_*, csrf_token, …) only get the strong detections of 3 (provider
// tokens and structural secrets). Everything is linear in the value.

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Detection is one literal credential found in a string value.
type Detection struct {
	Family string // rule family, e.g. "openai-sk", "jwt", "high-entropy-token" (reference labels kept)
	Masked string // first 4 characters, "…", the length in characters: "sk-1…51"
	Start  int    // byte offset of the secret in the value
	End    int    // byte offset just after it
	// Strong: a provider-prefixed or structural secret (PEM block, JWT,
	// credentials in a URL). Strong detections fire under every key, and in
	// descriptive fields as the warning credential_in_description.
	Strong bool
}

// Limits that keep the detector linear and cheap on hostile input.
const (
	secretMaxValue   = 1 << 20 // bytes of one value looked at
	secretMinEntropy = 4.5     // bits per character (reference)
	secretMinEntLen  = 24      // characters (reference)
)

// Detect reports the first literal credential in value, judged by
// what the key it sits under says about it (see ClassifyKey). It is pure
// and never panics.
func Detect(key, value string) (Detection, bool) {
	return secDetect(ClassifyKey(key), value, 0)
}

// DetectIn is Detect for a value whose key was classified already (a walker
// caches ClassifyKey per key).
func DetectIn(class KeyClass, value string) (Detection, bool) {
	return secDetect(class, value, 0)
}

func secDetect(class KeyClass, value string, depth int) (Detection, bool) {
	if len(value) > secretMaxValue {
		value = value[:secretMaxValue]
	}
	// 0. Below KeyNeutral only strong detections count, and most names,
	// descriptions and ids can be proved to hold none (detect_strong.go).
	if class < KeyNeutral && !secMayHoldStrong(value) {
		return Detection{}, false
	}
	lo, hi := secTrimSpaceIdx(value, 0, len(value))
	if lo == hi {
		return Detection{}, false
	}
	// 1. A value that is nothing but a placeholder (anchored).
	if secIsWholePlaceholder(value[lo:hi]) {
		// ...but a provider key inside its name is one ({{ secret_AKIA… }})
		return secPrefixInWord(value, lo, hi)
	}
	// 2. "Bearer x" / "Basic x" / "Token x" as the whole value: judge x
	// (structural secrets first: "Bearer eyJ…" is a JWT).
	if a, b, ok := secAuthSchemeValue(value, lo, hi); ok {
		if d, ok := secStructural(class, value, depth); ok {
			return d, true
		}
		inner := value[a:b]
		if secIsPlaceholderToken(inner) {
			return Detection{}, false
		}
		if d, ok := secPrefixAt(value, a, b); ok {
			return d, true
		}
		if class >= KeyNeutral && secCredentialShaped(inner, false) {
			return secDet("bearer-token", value, a, b, false), true
		}
		if class == KeyDescriptive || class == KeyIdentifier {
			return Detection{}, false
		}
	}
	// 3. Token by token (the reference's split). The pass also notes
	// whether the value may hold a structural secret (a PEM block, a JWT,
	// a Slack webhook, a URL); only then are those searched for, and they
	// take precedence over a token-level finding.
	d, ok, marks := secScanTokens(class, value, lo, hi, depth, false)
	if ok {
		marks = markAll
	}
	if marks != 0 {
		if sd, sok := secStructuralMarked(class, value, depth, marks); sok {
			return sd, true
		}
	}
	if ok {
		return d, true
	}
	// 4. A literal under a key that names a secret.
	if class >= KeySecret {
		a, b := secUnquoteIdx(value, lo, hi)
		// "label: literal" (a YAML line pasted into the field): the
		// literal stays under the secret key unless the label says it is
		// not a secret
		if c := strings.IndexByte(value[a:b], ':'); c > 0 && c+1 < b-a && secIsSpace(value[a+c+1]) && secIsIdentRun(value[a:a+c], true) {
			if lc := ClassifyKey(value[a : a+c]); lc != KeyIdentifier && lc != KeyDescriptive {
				ia, ib := secTrimSpaceIdx(value, a+c+1, b)
				ia, ib = secUnquoteIdx(value, ia, ib)
				a, b = ia, ib
			}
		}
		if a < b && !secHasSpace(value[a:b]) && secCredentialShaped(value[a:b], class == KeyPassword) {
			fam := "secret-named-key"
			if class == KeyPassword {
				fam = "password-literal"
			}
			return secDet(fam, value, a, b, false), true
		}
	}
	return Detection{}, false
}

// Marks the token pass leaves for the structural finders.
const (
	markPEM  = 1 << iota // five dashes
	markDots             // a long token with two dots: a JWT, hooks.slack.com
	markURL              // "://"
	markAll  = markPEM | markDots | markURL
)

// secStructural: private-key blocks, JWTs, Slack webhooks and secrets in
// URLs, anywhere in the value.
func secStructural(class KeyClass, value string, depth int) (Detection, bool) {
	return secStructuralMarked(class, value, depth, markAll)
}

func secStructuralMarked(class KeyClass, value string, depth int, marks uint8) (Detection, bool) {
	if marks&markPEM != 0 {
		if d, ok := secFindPEM(value); ok {
			return d, true
		}
	}
	if marks&markDots != 0 {
		if d, ok := secFindJWT(value); ok {
			return d, true
		}
		if d, ok := secFindSlackWebhook(value); ok {
			return d, true
		}
	}
	if marks&markURL != 0 && (strings.Contains(value, "://") || strings.Contains(value, `:\/\/`)) {
		if d, ok := secFindURLSecrets(value, class, depth); ok {
			return d, true
		}
	}
	return Detection{}, false
}

// secDet builds a Detection for value[a:b].
func secDet(family, value string, a, b int, strong bool) Detection {
	return Detection{Family: family, Masked: Mask(value[a:b]), Start: a, End: b, Strong: strong}
}

// Mask shows the first 4 characters of a secret, "…" and its length in
// characters (SPEC §2). Secrets shorter than 12 characters show fewer
// leading characters (a third of them) so that the mask never gives away
// most of a short secret.
func Mask(s string) string {
	n := utf8.RuneCountInString(s)
	show := 4
	if n < 12 {
		show = n / 3
	}
	i, k := 0, 0
	for k < show && i < len(s) {
		_, sz := utf8.DecodeRuneInString(s[i:])
		i += sz
		k++
	}
	return s[:i] + "…" + strconv.Itoa(n)
}

func secIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func secHasSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if secIsSpace(s[i]) {
			return true
		}
	}
	return false
}

func secTrimSpaceIdx(s string, lo, hi int) (int, int) {
	for lo < hi && secIsSpace(s[lo]) {
		lo++
	}
	for hi > lo && secIsSpace(s[hi-1]) {
		hi--
	}
	return lo, hi
}

// secUnquoteIdx drops one pair of matching surrounding quotes: a quoted
// literal is still a literal.
func secUnquoteIdx(s string, lo, hi int) (int, int) {
	for k := 0; k < 2 && hi-lo >= 2; k++ {
		c := s[lo]
		if (c == '"' || c == '\'' || c == '`') && s[hi-1] == c {
			lo, hi = lo+1, hi-1
			continue
		}
		break
	}
	return lo, hi
}

// ---- placeholders ----------------------------------------------------------

// secIsWholePlaceholder: the whole (trimmed) value is one placeholder. Unlike
// the reference, ${X} and <X> only count when they are the whole value.
func secIsWholePlaceholder(v string) bool {
	n := len(v)
	switch v[0] {
	case '{', '$', '<', '%', '*', 'x', 'X', '#', '.', 'r', 'R', '[', 0xe2: // 0xe2: first byte of •
	default:
		return false
	}
	switch {
	case n >= 4 && strings.HasPrefix(v, "{{") && strings.HasSuffix(v, "}}"):
		// exactly one template expression: no "}}" before the end
		return strings.Index(v, "}}") == n-2
	case n >= 6 && strings.HasPrefix(v, "${{") && strings.HasSuffix(v, "}}"):
		return strings.Index(v, "}}") == n-2
	case n >= 3 && strings.HasPrefix(v, "${") && v[n-1] == '}':
		return secIsIdentRun(v[2:n-1], true)
	case n >= 2 && v[0] == '$':
		return secIsIdentRun(v[1:], false)
	case n >= 3 && v[0] == '<' && v[n-1] == '>':
		return secIsPlaceholderName(v[1 : n-1])
	case n >= 3 && v[0] == '%' && v[n-1] == '%':
		return secIsIdentRun(v[1:n-1], false)
	case secAllByte(v, '*'), secAllBullets(v), secAllByte(v, 'x'), secAllByte(v, 'X'), secAllByte(v, '#'), secAllByte(v, '.'):
		return true
	case strings.EqualFold(v, "redacted"), strings.EqualFold(v, "[redacted]"), strings.EqualFold(v, "<redacted>"):
		return true
	}
	return false
}

// secIsIdentRun: letters, digits, _ (and . - : for ${env.X:-default} forms when loose).
func secIsIdentRun(s string, loose bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' {
			continue
		}
		if loose && (c == '.' || c == '-' || c == ':' || c == ' ') {
			continue
		}
		return false
	}
	return true
}

// secIsPlaceholderName: the inside of <...>: words, not a secret.
func secIsPlaceholderName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '-' || c == ' ' || c == '.' {
			continue
		}
		if c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	// a random-looking string in angle brackets is not a placeholder
	return !secLooksRandom(s)
}

func secAllByte(s string, b byte) bool {
	if b >= 0x80 { // multi-byte marker such as •
		return false
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != b {
			return false
		}
	}
	return true
}

var secPlaceholderWords = []string{"example", "redacted", "placeholder", "dummy", "sample", "your_", "your-",
	"yourapi", "yourkey", "yourtoken", "yoursecret", "changeme", "change_me", "replace_me", "replaceme",
	"insert_", "xxxx", "****", "####", "<", ">", "{{", "}}", "${", "$(", "%s", "todo", "fixme", "...", "…"}

// secIsPlaceholderToken: a token that stands for a secret instead of being one.
func secIsPlaceholderToken(t string) bool {
	if t == "" {
		return true
	}
	if secIsWholePlaceholder(t) {
		return true
	}
	if len(t) >= 2 && t[0] == '$' && secIsIdentRun(strings.TrimPrefix(strings.TrimSuffix(t[1:], "}"), "{"), true) {
		return true
	}
	if secContainsPlaceholderWord(t) {
		return true
	}
	return secLowDiversity(t, true)
}

func secContainsPlaceholderWord(t string) bool {
	var lower [256]byte
	if len(t) > len(lower) {
		return strings.Contains(strings.ToLower(t), "example")
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	l := string(lower[:len(t)])
	for _, w := range secPlaceholderWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// secLowDiversity: filler rather than a secret. One character makes up most
// of the token (xxxxxxxx, 0000000, glc_1111111111=), runs of one repeated
// character make up most of it (5555555dAAAAA7777777aaaaaaa), it repeats a
// short pattern (123123123123), or it is a run of ascending characters
// (12345678, abcdefgh) — the last test only when asc is set.
func secLowDiversity(t string, asc bool) bool {
	var counts [256]uint16
	var buf [512]byte
	n, max, ascN, inRuns, run := 0, 0, 0, 0, 0
	var prev byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '-' || c == '_' || c == '.' || c == '=' {
			continue
		}
		counts[c]++
		if int(counts[c]) > max {
			max = int(counts[c])
		}
		if n > 0 && c == prev+1 {
			ascN++
		}
		if n > 0 && c == prev {
			run++
		} else {
			if run >= 3 {
				inRuns += run + 1
			}
			run = 0
		}
		if n < len(buf) {
			buf[n] = c
		}
		prev = c
		n++
	}
	if run >= 3 {
		inRuns += run + 1
	}
	if n == 0 {
		return true
	}
	if max*10 >= n*6 || (n >= 8 && inRuns*2 >= n) {
		return true
	}
	if asc && n >= 6 && ascN*10 >= (n-1)*8 {
		return true
	}
	// a short period: the token is one pattern of 1–4 characters repeated
	if n >= 12 && n <= len(buf) {
		for p := 1; p <= 10 && p*2 < n; p++ {
			same := 0
			for i := p; i < n; i++ {
				if buf[i] == buf[i-p] {
					same++
				}
			}
			if same*10 >= (n-p)*9 {
				return true
			}
		}
	}
	return false
}

// ---- generic shape tests ---------------------------------------------------

// secCredentialShaped says whether a single token is shaped like a credential
// rather than like a word, an identifier, a name, a path or a URL. password
// relaxes the test for values under password keys (words are passwords too).
func secCredentialShaped(t string, password bool) bool {
	n := utf8.RuneCountInString(t)
	minLen := 8
	if password {
		minLen = 6
	}
	if n < minLen || n > 4096 {
		return false
	}
	if secIsPlaceholderToken(t) {
		return false
	}
	if strings.Contains(t, "://") || t[0] == '/' || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || strings.HasPrefix(t, "~/") {
		return false
	}
	if secIsEnvName(t) || secIsBoolWord(t) {
		return false
	}
	if at := strings.IndexByte(t, '@'); at > 0 && strings.IndexByte(t[at:], '.') > 0 && !strings.ContainsAny(t, ":/") && secIsEmailish(t) {
		return false // an e-mail address
	}
	// an assignment inside the value (id=jfrog_secret, NAME=) is judged by
	// its own key elsewhere, not as a credential itself
	if eq := strings.IndexByte(t, '='); eq > 0 && secIsIdentRun(t[:eq], true) {
		name, rest := t[:eq], t[eq+1:]
		if rest != "" && rest != "=" {
			return false
		}
		if rest == "" && (secIsEnvName(name) || (secIsIdentifierish(name) && !secLooksRandom(name))) {
			return false // NAME= with nothing after it
		}
	}
	// user:password (one level: the parts are judged without this rule)
	if c := strings.IndexByte(t, ':'); c >= 0 {
		user, pw := t[:c], t[c+1:]
		if strings.IndexByte(pw, ':') >= 0 {
			pw = strings.ReplaceAll(pw, ":", "")
		}
		switch {
		case pw == "":
			return user != "" && secCredentialShaped(user, password)
		case user == "":
			return secCredentialShaped(pw, password)
		default:
			if secURLPasswordPlaceholder(pw) {
				return false
			}
			// a short word after the colon is a tag, a port name, a namespace
			if n := utf8.RuneCountInString(pw); n >= 8 || (n >= 4 && !secIsIdentRun(pw, false)) {
				return true
			}
			return secCredentialShaped(pw, password)
		}
	}
	if password {
		return !secIsPasswordWord(t)
	}
	var letters, digits, upper, lower, other int
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'a' && c <= 'z':
			letters++
			lower++
		case c >= 'A' && c <= 'Z':
			letters++
			upper++
		case c >= '0' && c <= '9':
			digits++
		case c == '-' || c == '_' || c == '.':
		default:
			other++
		}
	}
	if letters == 0 {
		return digits >= 20 // long digit-only strings; shorter ones are ids and numbers
	}
	if secIsIdentifierish(t) && !secLooksRandom(t) {
		return false
	}
	if digits > 0 || other > 0 {
		return true
	}
	// letters only (and separators): random mixed case, not words
	return upper > 0 && lower > 0 && secLooksRandom(t)
}

func secIsEmailish(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '+' || c == '@') {
			return false
		}
	}
	return true
}

func secIsBoolWord(t string) bool {
	switch strings.ToLower(t) {
	case "true", "false", "null", "none", "nil", "undefined", "disabled", "enabled", "required", "optional":
		return true
	}
	return false
}

var secPasswordPlaceholders = secSet("password", "passwd", "pass", "secret", "changeme", "username", "user",
	"pwd", "test", "testing", "admin", "root", "token", "apikey", "api_key", "xxx", "yyy", "none", "empty")

func secIsPasswordWord(t string) bool {
	return secPasswordPlaceholders[strings.ToLower(strings.Trim(t, "'\"`"))]
}

// secIsEnvName: OPENAI_API_KEY, NEXUS-GPT4-API-KEY, TOKEN: an upper-case name of
// word-like segments, i.e. a reference to a variable, not a value.
func secIsEnvName(t string) bool {
	segLen, segDigits := 0, 0
	letters := 0
	for i := 0; i <= len(t); i++ {
		if i == len(t) || t[i] == '_' || t[i] == '-' || t[i] == '.' {
			if segLen > 12 || segDigits > 2 {
				return false
			}
			segLen, segDigits = 0, 0
			continue
		}
		c := t[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			segDigits++
		default:
			return false
		}
		segLen++
	}
	return letters > 0
}

// secIsIdentifierish: snake_case, kebab-case, dotted paths and camelCase made
// of word-like segments (letters, or a letter word ending in at most two
// digits, or a short number): access_token, X25519.key_length,
// TestSourcePassword, v1.2.3, rc0.15.0_20231217_1420-SNAPSHOT is NOT one.
func secIsIdentifierish(t string) bool {
	segs := 0
	i := 0
	for i < len(t) {
		// one segment: up to a separator or a lower→upper case change
		j := i
		letters, digits, upperRun := 0, 0, 0
		for j < len(t) {
			c := t[j]
			if c == '_' || c == '-' || c == '.' || c == '/' || c == ':' {
				break
			}
			isUp := c >= 'A' && c <= 'Z'
			isLow := c >= 'a' && c <= 'z'
			isDig := c >= '0' && c <= '9'
			if !isUp && !isLow && !isDig {
				return false
			}
			if j > i && isUp && t[j-1] >= 'a' && t[j-1] <= 'z' {
				break // camelCase boundary
			}
			if isDig {
				digits++
			} else {
				letters++
				if isUp {
					upperRun++
				}
			}
			j++
		}
		segLen := j - i
		if segLen > 0 {
			segs++
			switch {
			case letters == 0:
				if digits > 4 {
					return false
				}
			case digits > 2:
				return false
			case letters > 14:
				return false
			case upperRun > 1 && upperRun < letters && !secIsAcronymWord(t[i:j]):
				// mixed case inside one segment after the camelCase split is
				// fine for an acronym prefix (HTTPServer), not otherwise
				return false
			}
		}
		if j < len(t) {
			j++ // skip the separator (or stay at the capital that starts the next segment)
			if t[j-1] >= 'A' && t[j-1] <= 'Z' {
				j--
			}
		}
		if j == i {
			j++
		}
		i = j
	}
	return segs > 0
}

// secIsAcronymWord: "HTTPServer", "APIKey", "JSON": capitals then lower case.
func secIsAcronymWord(s string) bool {
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	for i < len(s) && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	return i == len(s)
}

// secLooksRandom: letters that do not split into words: many case changes
// relative to the length (hf tokens, random ids) vs. CamelCaseWords.
func secLooksRandom(s string) bool {
	changes, letters, vowels, cons, maxCons := 0, 0, 0, 0, 0
	var prevUp, have bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up := c >= 'A' && c <= 'Z'
		low := c >= 'a' && c <= 'z'
		if !up && !low {
			have = false
			cons = 0
			continue
		}
		letters++
		switch c | 0x20 {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			vowels++
			cons = 0
		default:
			if low {
				cons++
				maxCons = max(maxCons, cons)
			} else {
				cons = 0
			}
		}
		if have && up != prevUp {
			changes++
		}
		prevUp, have = up, true
	}
	if letters < 6 {
		return false
	}
	// words: a case change every 3+ letters at most, a quarter vowels, and
	// no run of five lower-case consonants (bhjmlql)
	return changes*10 > letters*4 || vowels*4 < letters || maxCons >= 5
}

// ---- entropy ---------------------------------------------------------------

// secShannon returns the Shannon entropy in bits per character of t and its
// length in characters; an ASCII token with too few distinct characters to
// reach secretMinEntropy (4.5) reports 0 without the full computation.
func secShannon(t string) (float64, int) {
	ascii := true
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		// log2(k) bounds the entropy of k distinct characters: with fewer
		// than 23 (2^4.5 ≈ 22.6) the token cannot reach the threshold, and
		// the common long identifier is rejected with a bitmap
		var seen [2]uint64
		for i := 0; i < len(t); i++ {
			seen[t[i]>>6] |= 1 << (t[i] & 63)
		}
		if bits.OnesCount64(seen[0])+bits.OnesCount64(seen[1]) < 23 {
			return 0, len(t)
		}
		var counts [128]uint32
		for i := 0; i < len(t); i++ {
			counts[t[i]]++
		}
		n := float64(len(t))
		h := 0.0
		for _, c := range counts {
			if c > 0 {
				p := float64(c) / n
				h -= p * math.Log2(p)
			}
		}
		return h, len(t)
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range t {
		counts[r]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h, n
}

// ---- tokens ----------------------------------------------------------------

// secTokenSep is the reference's split set: whitespace , ; : | ( ) [ ] < > { } " ' `.
var secTokenSep = func() (t [256]bool) {
	for _, c := range " \t\n\r\f\v,;:|()[]<>{}\"'`" {
		t[c] = true
	}
	return
}()

// secCharClass sorts bytes for the token loop: letters and digits (0),
// the three characters it keeps count of, the rest of the punctuation,
// and separators.
const (
	ccDot = 1 + iota
	ccDash
	ccEq
	ccPunct // any other byte that is neither a letter, a digit nor a separator
	ccSep   // separators: every class from here on
	ccColon // ':' separates too, and is remembered
)

var secCharClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case secTokenSep[c]:
			t[c] = ccSep
		case !secIsAlnum(byte(c)):
			t[c] = ccPunct
		}
	}
	t['.'], t['-'], t['='], t[':'] = ccDot, ccDash, ccEq, ccColon
	return
}()

const secMaxTokensPerValue = 1 << 16

// Flags secNextLongToken returns with a token (and tfStop, detect_tokens.go).
const (
	tfColon    = 1 << iota // a ':' among the separators before the token
	tfBoundary             // the token holds a byte that is neither a letter nor a digit
	tfPEM                  // five dashes in the token (a PEM armour line)
	tfDots                 // two dots or more in the token
	tfTemplate             // the token follows "{" or "{ " (template text: {{ x }}, ${ x })
)

// plain: every label of a "name: x" or "name=x" pair is classed (the path
// before secMayNameSecret, kept for the tests that hold the two together).
func secScanTokens(class KeyClass, value string, lo, hi, depth int, plain bool) (Detection, bool, uint8) {
	// st: the token before (prevA, prevB), the tokens counted, the marks
	// of the short words secNextLongToken passes over
	st := secTokState{prevA: -1, prevB: -1}
	s := value[:hi]
	for i := lo; i < len(s); {
		a, b, firstEq, lastEq, fl := secNextLongToken(s, i, &st)
		i = b
		if a == b || fl&tfStop != 0 {
			break // the end of the value, or too many tokens
		}
		prevA, prevB := st.prevA, st.prevB
		st.prevA, st.prevB = a, b // the token before the next one
		n := b - a
		tok := value[a:b]
		// marks of structural secrets: a PEM armour line (-----), a JWT or
		// hooks.slack.com (two dots in a long token), a URL (://)
		if fl&tfDots != 0 && n >= 16 {
			st.marks |= markDots
		}
		if fl&tfColon != 0 && n > 2 && (tok[0] == '/' && tok[1] == '/' || strings.HasPrefix(tok, `\/\/`)) {
			st.marks |= markURL
		}
		// (no provider key is shorter than 8 bytes: most words of prose
		// are, and skip the calls)
		if n >= 8 {
			if d, ok := secPrefixAt(value, a, b); ok {
				return d, true, st.marks
			}
			// a provider token after "=" (a query string, an assignment)
			if lastEq > 0 && lastEq < n-8 {
				if d, ok := secPrefixAt(value, a+lastEq+1, b); ok {
					return d, true, st.marks
				}
			}
			// a provider token inside an identifier or a pointer: it starts
			// after a byte that is neither a letter nor a digit (that byte
			// and the shortest key: more than secProviderMinSpan bytes)
			if n > secProviderMinSpan && fl&tfBoundary != 0 {
				if d, ok := secPrefixInWord(value, a, b); ok {
					return d, true, st.marks
				}
			}
		}
		// {{ expression }} and ${ expression }: template text, not a literal
		if fl&tfTemplate != 0 {
			continue
		}
		if class >= KeyNeutral {
			// "password: x" inside a value (YAML, a header line)
			// (secMayNameSecret: most labels hold none of the words a
			// secret's key must, and skip the split; plain, every label is
			// classed)
			if fl&tfColon != 0 && prevA >= 0 && depth < 2 && !secIsAuthScheme(tok) && (plain || secMayNameSecret(value[prevA:prevB])) {
				if c := ClassifyKey(value[prevA:prevB]); c >= KeySecret {
					if d, ok := secDetect(c, tok, depth+1); ok {
						d.Start += a
						d.End += a
						return d, true, st.marks
					}
				}
			}
			// "Bearer <literal>" inside prose (a credential-shaped literal
			// has 8 characters at least)
			if n >= 8 && prevA >= 0 && (prevB-prevA == 5 || prevB-prevA == 6) && secIsAuthScheme(value[prevA:prevB]) && !secIsPlaceholderToken(tok) && secCredentialShaped(tok, false) {
				return secDet("bearer-token", value, a, b, false), true, st.marks
			}
			// name=value inside a value: a connection string, a query string
			if depth < 2 && firstEq > 0 && firstEq < n-1 {
				name := tok[:firstEq]
				if secIsIdentRun(name, false) && (plain || secMayNameSecret(name)) {
					if c := ClassifyKey(name); c >= KeySecret {
						if d, ok := secDetect(c, tok[firstEq+1:], depth+1); ok {
							d.Start += a + firstEq + 1
							d.End += a + firstEq + 1
							return d, true, st.marks
						}
					}
				}
			}
			if n >= secretMinEntLen && !secFewDistinct(tok) && secEntropyCandidate(tok) {
				if h, runes := secShannon(tok); runes >= secretMinEntLen && h >= secretMinEntropy && !secIsPlaceholderToken(tok) {
					return secDet("high-entropy-token", value, a, b, false), true, st.marks
				}
			}
		}
		// a path or a URL is no entropy candidate as a whole, and a
		// provider key inside it is no key inside a word when its body is
		// hex; each of its segments is judged as a token: /x/<token>/y, a
		// pointer /$referenced_components/<token>/id, https://h/a/<token>
		// (a segment shorter than the token, and 15 bytes at least: the
		// shortest key; an entropy token is longer)
		if n > secProviderMinSpan && strings.IndexByte(tok, '/') >= 0 {
			if d, ok := secPathSegment(class, value, a, b); ok {
				return d, true, st.marks
			}
		}
	}
	return Detection{}, false, st.marks
}

// secEntropyCandidate leaves out tokens whose entropy says nothing: paths and
// URLs, SRI hashes, data URIs.
func secEntropyCandidate(t string) bool {
	switch {
	case t[0] == '/', strings.HasPrefix(t, "./"), strings.HasPrefix(t, "../"), strings.HasPrefix(t, "~/"):
		// (first: the cheapest look, and paths are the most common long
		// tokens; every case is a "no", so the order cannot change the
		// answer)
		return false
	case secIsIdentifierish(t) && !secLooksRandom(t):
		// NOROM_OSCHF_DebugGetExpectedAverageCrystalAmplitude: many
		// distinct letters, but words
		return false
	case strings.HasPrefix(t, "sha1-"), strings.HasPrefix(t, "sha256-"), strings.HasPrefix(t, "sha384-"), strings.HasPrefix(t, "sha512-"):
		return false
	case strings.Contains(t, "://"):
		return false
	}
	return true
}

// secPathSegment finds the first segment of the token value[a:b] (between
// '/' and '?') that is a secret judged on its own, as a token
// between spaces is: a provider key, or (under a key that is not an
// identifier's) a high-entropy token. The segment boundaries are the
// path's own separators, so a token used as a path component, a pointer's
// reference token or a URL path segment is masked like the same token
// alone. Linear: the split reads each byte once (IndexByte for '/', and
// for '?' once past each), and the look at a segment each of its bytes at
// most once more. Segments shorter than secProviderMinSpan are not looked
// at: no key is that short, and an entropy token is longer.
func secPathSegment(class KeyClass, value string, a, b int) (Detection, bool) {
	// the segments end at each '/' (found with IndexByte) and '?' (rare:
	// its next offset is kept, -1 past the last)
	tok := value[a:b]
	q := strings.IndexByte(tok, '?')
	for s := 0; s <= len(tok); {
		i := len(tok)
		if k := strings.IndexByte(tok[s:], '/'); k >= 0 {
			i = s + k
		}
		if q >= 0 && q < s {
			if q = strings.IndexByte(tok[s:], '?'); q >= 0 {
				q += s
			}
		}
		if q >= 0 && q < i {
			i = q
		}
		if i-s >= secProviderMinSpan && i-s < len(tok) {
			s, i := a+s, a+i
			if d, ok := secPrefixAt(value, s, i); ok {
				return d, true
			}
			// a segment of words and numbers (a directory named after a
			// test, a package slug with a build number) is no token,
			// however many distinct characters it has
			if seg := value[s:i]; class >= KeyNeutral && len(seg) >= secretMinEntLen && !secFewDistinct(seg) && secEntropyCandidate(seg) && !secIsWordsAndNumbers(seg) {
				if h, n := secShannon(seg); n >= secretMinEntLen && h >= secretMinEntropy && !secIsPlaceholderToken(seg) {
					return secDet("high-entropy-token", value, s, i, false), true
				}
			}
		}
		s = i + 1
	}
	return Detection{}, false
}

// secIsWordsAndNumbers: t is words with numbers only at the ends of its
// '-', '_' or '.' separated parts (TestHistoryblog-linkedin-publish-
// agent3921187465, release-build-20261127): without the numbers, an
// identifier of words. Digits inside a part (4b1dY8I8i4…) make a token.
func secIsWordsAndNumbers(t string) bool {
	b := make([]byte, 0, len(t))
	part := 0 // start of the current part in b
	for i := 0; i <= len(t); i++ {
		if i == len(t) || t[i] == '-' || t[i] == '_' || t[i] == '.' {
			// drop the part's trailing number
			for len(b) > part && b[len(b)-1] >= '0' && b[len(b)-1] <= '9' {
				b = b[:len(b)-1]
			}
			for j := part; j < len(b); j++ {
				if b[j] >= '0' && b[j] <= '9' {
					return false
				}
			}
			if i < len(t) && len(b) > part {
				b = append(b, t[i])
			}
			part = len(b)
			continue
		}
		b = append(b, t[i])
	}
	w := strings.Trim(string(b), "-_.")
	return w != "" && secIsIdentifierish(w) && !secLooksRandom(w)
}

func secIsAuthScheme(t string) bool {
	switch len(t) {
	case 5, 6:
	default:
		return false
	}
	switch t[0] | 0x20 {
	case 'b', 't', 'a':
	default:
		return false
	}
	return strings.EqualFold(t, "bearer") || strings.EqualFold(t, "basic") || strings.EqualFold(t, "token") || strings.EqualFold(t, "apikey")
}

// secAuthSchemeValue: the whole value is "<scheme> <one token>".
func secAuthSchemeValue(value string, lo, hi int) (int, int, bool) {
	switch value[lo] | 0x20 {
	case 'b', 't', 'a':
	default:
		return 0, 0, false
	}
	i := lo
	for i < hi && i-lo <= 6 && !secIsSpace(value[i]) {
		i++
	}
	if i == hi || !secIsAuthScheme(value[lo:i]) {
		return 0, 0, false
	}
	for i < hi && secIsSpace(value[i]) {
		i++
	}
	a := i
	for i < hi && !secIsSpace(value[i]) {
		i++
	}
	if i != hi || a == hi {
		return 0, 0, false
	}
	return a, hi, true
}

// ---- structural secrets ----------------------------------------------------

// secPEMWindow bounds the body of one PEM block looked at (a 16 kbit RSA
// key is under 13 KiB).
const secPEMWindow = 64 << 10

// secFindPEM finds a private-key PEM block with a body.
func secFindPEM(value string) (Detection, bool) {
	off := 0
	for {
		k := strings.Index(value[off:], "-----BEGIN ")
		if k < 0 {
			return Detection{}, false
		}
		start := off + k
		hdrEnd := strings.Index(value[start+11:], "-----")
		if hdrEnd < 0 || hdrEnd > 64 {
			off = start + 11
			continue
		}
		label := value[start+11 : start+11+hdrEnd]
		off = start + 11 + hdrEnd + 5
		if !strings.Contains(label, "PRIVATE KEY") {
			continue
		}
		// body: base64 characters up to -----END (or the end), looked for
		// within a window so that many headers cannot make this quadratic
		window := value[off:min(len(value), off+secPEMWindow)]
		end := strings.Index(window, "-----END")
		bodyEnd := off + len(window)
		if end >= 0 {
			bodyEnd = off + end
		}
		b64 := 0
		for i := off; i < bodyEnd && b64 < 64; i++ {
			c := value[i]
			if (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' {
				b64++
			}
		}
		if b64 < 64 {
			continue
		}
		stop := bodyEnd
		if end >= 0 {
			if e := strings.Index(value[bodyEnd+8:min(len(value), bodyEnd+8+80)], "-----"); e >= 0 {
				stop = bodyEnd + 8 + e + 5
			}
		}
		return secDet("private-key", value, start, stop, true), true
	}
}

func secIsB64URL(c byte) bool {
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
}

// secFindJWT finds eyJ<b64url>.eyJ<b64url>.<b64url> (the signature may be
// empty for alg "none" tokens) anywhere in the value.
// indexEyJ is the offset of the first "eyJ" of value at or after off
// (off plus strings.Index(value[off:], "eyJ")), or -1. It looks for the
// capital J, rare in prose, and checks the two bytes before it: a search
// led by the 'e' stops at nearly every word of a prompt.
func indexEyJ(value string, off int) int {
	for i := off + 2; i < len(value); {
		k := strings.IndexByte(value[i:], 'J')
		if k < 0 {
			return -1
		}
		j := i + k
		if value[j-1] == 'y' && value[j-2] == 'e' {
			return j - 2
		}
		i = j + 1
	}
	return -1
}

func secFindJWT(value string) (Detection, bool) {
	off := 0
	for {
		start := indexEyJ(value, off)
		if start < 0 {
			return Detection{}, false
		}
		off = start + 3
		if start > 0 && secIsB64URL(value[start-1]) {
			continue
		}
		i := start + 3
		for i < len(value) && secIsB64URL(value[i]) {
			i++
		}
		if i-start < 10 || i >= len(value) || value[i] != '.' {
			continue
		}
		i++
		if !strings.HasPrefix(value[i:], "eyJ") && !strings.HasPrefix(value[i:], "ey") {
			continue
		}
		p := i
		for i < len(value) && secIsB64URL(value[i]) {
			i++
		}
		if i-p < 6 || i >= len(value) || value[i] != '.' {
			continue
		}
		i++
		for i < len(value) && secIsB64URL(value[i]) {
			i++
		}
		tok := value[start:i]
		if secContainsPlaceholderWord(tok) {
			continue
		}
		return secDet("jwt", value, start, i, true), true
	}
}

// secFindURLSecrets looks at every scheme://… in the value: credentials in the
// user-info part, Slack webhooks, and secret-named query parameters.
func secFindURLSecrets(value string, class KeyClass, depth int) (Detection, bool) {
	off := 0
	// "://", or ":\/\/" as JSON source may spell it (minified files often
	// escape every slash): Redact runs on source lines too. The next
	// position of each is kept, so the search stays linear.
	plain, esc := -2, -2
	next := func(pos *int, sep string) {
		if *pos == -1 || *pos >= off {
			return
		}
		if k := strings.Index(value[off:], sep); k >= 0 {
			*pos = off + k
		} else {
			*pos = -1
		}
	}
	for {
		next(&plain, "://")
		next(&esc, `:\/\/`)
		at, sep := plain, 3
		if esc >= 0 && (at < 0 || esc < at) {
			at, sep = esc, 5
		}
		if at < 0 {
			return Detection{}, false
		}
		// scheme start
		s := at
		for s > 0 && (secIsAlnum(value[s-1]) || value[s-1] == '+' || value[s-1] == '.' || value[s-1] == '-') {
			s--
		}
		// end of the URL
		e := at + sep
		for e < len(value) && !secIsSpace(value[e]) && value[e] != '"' && value[e] != '\'' && value[e] != '`' && value[e] != '>' && value[e] != ')' {
			e++
		}
		off = e
		if s == at {
			continue
		}
		authStart := at + sep
		authEnd := authStart
		for authEnd < e && value[authEnd] != '/' && value[authEnd] != '\\' && value[authEnd] != '?' && value[authEnd] != '#' {
			authEnd++
		}
		authority := value[authStart:authEnd]
		if a := strings.LastIndexByte(authority, '@'); a > 0 {
			userinfo := authority[:a]
			if c := strings.IndexByte(userinfo, ':'); c >= 0 {
				pw := userinfo[c+1:]
				user := userinfo[:c]
				if !secURLPasswordPlaceholder(pw) && !(user == "" && pw == "") {
					pa := authStart + c + 1
					return secDet("url-credentials", value, pa, pa+len(pw), true), true
				}
			}
		}
		if class != KeyDescriptive && depth < 2 {
			if q := strings.IndexByte(value[authEnd:e], '?'); q >= 0 {
				qs := value[authEnd+q+1 : e]
				base := authEnd + q + 1
				for len(qs) > 0 {
					amp := strings.IndexByte(qs, '&')
					part := qs
					if amp >= 0 {
						part = qs[:amp]
					}
					if eq := strings.IndexByte(part, '='); eq > 0 {
						if c := ClassifyKey(part[:eq]); c >= KeySecret {
							if d, ok := secDetect(c, part[eq+1:], depth+1); ok {
								d.Start += base + eq + 1
								d.End += base + eq + 1
								return d, true
							}
						}
					}
					if amp < 0 {
						break
					}
					base += amp + 1
					qs = qs[amp+1:]
				}
			}
		}
	}
}

func secIsAlnum(c byte) bool {
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
}

func secURLPasswordPlaceholder(pw string) bool {
	if pw == "" {
		return true
	}
	// $VAR, ${VAR}, {{x}}, %VAR%, <password>, xxx
	return secIsPasswordWord(pw) || secIsPlaceholderToken(pw)
}

// secFindSlackWebhook finds hooks.slack.com/services|workflows|triggers/… with
// or without a scheme.
func secFindSlackWebhook(value string) (Detection, bool) {
	k := secIndexSlackHooks(value)
	if k < 0 {
		return Detection{}, false
	}
	s := k
	if k >= 8 && value[k-8:k] == "https://" {
		s = k - 8
	} else if k >= 7 && value[k-7:k] == "http://" {
		s = k - 7
	}
	p := k + len("hooks.slack.com")
	e := p
	for e < len(value) && !secIsSpace(value[e]) && value[e] != '"' && value[e] != '\'' && value[e] != '`' && value[e] != ')' && value[e] != '>' {
		e++
	}
	path := value[p:e]
	if !(strings.HasPrefix(path, "/services/") || strings.HasPrefix(path, "/workflows/") || strings.HasPrefix(path, "/triggers/")) {
		return Detection{}, false
	}
	tail := path[strings.IndexByte(path[1:], '/')+2:]
	if len(tail) < 20 || secContainsPlaceholderWord(tail) || secLowDiversity(tail, true) {
		return Detection{}, false
	}
	return secDet("slack-webhook", value, s, e, true), true
}

// secIndexSlackHooks is strings.Index(v, "hooks.slack.com/"), found by
// its ".slack.com/": strings.Index looks for the needle's first byte
// first, and an 'h' is some twenty times as common in prose as a '.'.
// The occurrences of ".slack.com/" are met in order, so the first one
// after "hooks" is the first "hooks.slack.com/".
func secIndexSlackHooks(v string) int {
	for i := len("hooks"); i < len(v); {
		j := strings.Index(v[i:], ".slack.com/")
		if j < 0 {
			return -1
		}
		j += i
		if v[j-len("hooks"):j] == "hooks" {
			return j - len("hooks")
		}
		i = j + 1
	}
	return -1
}

// secAllBullets: the value is "•••" (masked input).
func secAllBullets(v string) bool {
	if v == "" {
		return false
	}
	for _, r := range v {
		if r != '•' {
			return false
		}
	}
	return true
}

// Redact returns s with every literal credential Detect finds in it
// replaced by the masked form: THE masker, for every string that leaves
// the engine for a face (finding messages, source excerpts, graph labels).
// `key: value` and `KEY=value` lines are judged under their key when the
// key names a secret; under any other key (name, description, an id)
// they are judged as neutral text — a masker may show less, never more,
// and an excerpt line often holds more than the one value its first key
// names.
//
// Detect reports a structural secret (URL credentials, JWT, PEM) before a
// token further left, so the text before each detection is redacted too,
// not only the text after it. The number of detections is bounded
// (redactBudget), which keeps the work linear in practice.
func Redact(s string) string {
	key, off, val := SplitAssignment(s)
	class := max(ClassifyKey(key), KeyNeutral)
	budget := min(32+len(val)/16, 256)
	// the key is judged too, as neutral text: a token used as a component
	// key ("ghp_…": {) is a key of its line. Text with no secret, nearly
	// all of it, is returned as it is (no copy: a report of 100,000
	// placeholders passes each of its strings here).
	if _, ok := secDetect(KeyNeutral, s[:off], 0); !ok {
		if _, ok := secDetect(class, val, 0); !ok {
			return s
		}
	}
	var b strings.Builder
	redactInto(&b, KeyNeutral, s[:off], &budget)
	redactInto(&b, class, val, &budget)
	b.WriteString(s[off+len(val):])
	return b.String()
}

func redactInto(b *strings.Builder, class KeyClass, s string, budget *int) {
	for s != "" && *budget > 0 {
		d, ok := secDetect(class, s, 0)
		if !ok || d.End <= d.Start {
			break
		}
		*budget--
		redactInto(b, class, s[:d.Start], budget)
		b.WriteString(d.Masked)
		s = s[d.End:]
	}
	b.WriteString(s)
}

// SplitAssignment recognises `KEY=value`, `key: value`, `"key": "value"`,
// `export KEY=value` and `key => value` lines so that the value is judged
// under its key; any other line is judged as a whole under no key.
// It returns the key, the byte offset of the value in s, and the value.
func SplitAssignment(s string) (string, int, string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '-') {
		i++
	}
	if strings.HasPrefix(s[i:], "export ") {
		i += 7
	}
	q := byte(0)
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		q = s[i]
		i++
	}
	ks := i
	for i < len(s) && (secIsAlnum(s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.') {
		i++
	}
	ke := i
	if ke == ks || ke-ks > 64 {
		return "", 0, s
	}
	if q != 0 {
		if i >= len(s) || s[i] != q {
			return "", 0, s
		}
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	switch {
	case strings.HasPrefix(s[i:], "=>"):
		i += 2
	case strings.HasPrefix(s[i:], ":="):
		i += 2
	case i < len(s) && (s[i] == '=' || s[i] == ':'):
		i++
	default:
		return "", 0, s
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	vs, ve := i, len(s)
	// drop a trailing comma and one pair of quotes
	for ve > vs && (s[ve-1] == ',' || s[ve-1] == ';' || s[ve-1] == ' ') {
		ve--
	}
	if ve-vs >= 2 && (s[vs] == '"' || s[vs] == '\'' || s[vs] == '`') && s[ve-1] == s[vs] {
		vs++
		ve--
	}
	return s[ks:ke], vs, s[vs:ve]
}
