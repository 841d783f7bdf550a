package present

// Key classification for the secret scan: the name of the JSON key a string
// sits under decides how hard the value is looked at. This replaces the
// ever-growing identifier allowlists of text-based scanners (linters.md
// §1.7.5) with a small classifier over the key's words.

// KeyClass orders how strictly a value is scanned.
type KeyClass uint8

const (
	// KeyDescriptive: `name`, `description` — prose that quotes examples;
	// only strong (provider-prefixed or structural) secrets are reported,
	// and only as the warning credential_in_description.
	KeyDescriptive KeyClass = iota
	// KeyIdentifier: the key names something that is not a secret (an id,
	// a name, a URL, a hash, a length, a public key, a CSRF token, ...):
	// strong detections only, no entropy.
	KeyIdentifier
	// KeyNeutral: any other key: the reference's value rules (prefixes,
	// JWT, Bearer, entropy).
	KeyNeutral
	// KeySecret: the key names a secret (api_key, token, authorization,
	// client_secret, ...): additionally any literal that is shaped like a
	// credential.
	KeySecret
	// KeyPassword: the key names a password: any non-placeholder literal.
	KeyPassword
)

// secMaxKeyWords bounds the work on a pathological key.
const secMaxKeyWords = 12

// secKeySplit is a key cut into lower-case words (camelCase, snake_case,
// kebab-case, dotted and spaced keys all split the same way; digits stay in
// their word), kept as offsets into a fixed buffer so that splitting does
// not allocate. Only the last secMaxKeyWords words of the last 128 bytes count.
type secKeySplit struct {
	buf   [128]byte
	words [secMaxKeyWords][2]uint8
	n     int
}

func (k *secKeySplit) word(i int) []byte { return k.buf[k.words[i][0]:k.words[i][1]] }

func (k *secKeySplit) split(key string) {
	if len(key) > len(k.buf)-16 {
		key = key[len(key)-(len(k.buf)-16):]
	}
	j := 0
	for i := 0; i < len(key) && j < len(k.buf)-1; i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z':
			// a new word starts at a capital after a lower-case letter or
			// digit, or at the last capital of a run before a lower-case
			// letter (APIKey → api key).
			if i > 0 {
				p := key[i-1]
				if (p >= 'a' && p <= 'z') || (p >= '0' && p <= '9') ||
					(p >= 'A' && p <= 'Z' && i+1 < len(key) && key[i+1] >= 'a' && key[i+1] <= 'z') {
					if j > 0 && k.buf[j-1] != ' ' {
						k.buf[j] = ' '
						j++
					}
				}
			}
			k.buf[j] = c + 'a' - 'A'
			j++
		case (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'):
			k.buf[j] = c
			j++
		default:
			if j > 0 && k.buf[j-1] != ' ' {
				k.buf[j] = ' '
				j++
			}
		}
	}
	k.n = 0
	start := -1
	for i := 0; i <= j; i++ {
		if i == j || k.buf[i] == ' ' {
			if start >= 0 {
				if k.n == secMaxKeyWords {
					copy(k.words[:], k.words[1:])
					k.n--
				}
				k.words[k.n] = [2]uint8{uint8(start), uint8(i)}
				k.n++
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
}

func secIsDigits(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

var secIdentifierHeads = secSet(
	"id", "ids", "uuid", "guid", "name", "names", "title", "label", "labels", "url", "uri", "urls", "uris",
	"endpoint", "endpoints", "host", "hostname", "domain", "path", "paths", "file", "filename", "files",
	"dir", "directory", "type", "types", "kind", "format", "version", "length", "len", "size", "count",
	"limit", "ttl", "expiry", "expires", "expiration", "timeout", "env", "var", "variable", "field",
	"fields", "header", "param", "parameter", "hash", "sha", "sha1", "sha256", "sha512", "md5", "checksum",
	"digest", "etag", "fingerprint", "integrity", "mode", "scheme", "method", "algorithm", "alg",
	"prefix", "suffix", "location", "ref", "reference", "source", "provider", "schema", "policy",
	"scope", "scopes", "role", "roles", "hint", "placeholder", "example", "examples", "description",
	"help", "pattern", "regex", "slug", "at", "on", "enabled", "required", "rotation", "created",
	"updated", "lifetime", "usage", "index", "position", "offset", "status", "state", "level",
	"strategy", "store", "vault", "manager", "exists", "set", "present", "configured", "missing",
	"resolver", "selector", "service", "mapping", "map", "class", "component", "node",
	"step", "agent", "flow", "tool", "ids", "number", "version", "versions", "budget", "window", "tokens",
)

var secTokenNonSecretMods = secSet(
	"csrf", "xsrf", "public", "max", "min", "next", "page", "pagination", "continuation", "cursor",
	"sync", "count", "num", "total", "input", "output", "prompt", "completion", "context", "stop", "eos",
	"bos", "pad", "special", "unk", "cls", "sep", "mask", "end", "start", "reasoning", "cached",
	"idempotency", "anti", "forgery", "design", "word", "lexer", "parser", "syntax", "cancellation",
	"cancel", "progress", "continue", "resume", "last",
)

var secKeyNonSecretMods = secSet(
	"public", "pub", "primary", "foreign", "bucket", "schema", "sort", "partition", "cache",
	"idempotency", "object", "map", "dict", "lookup", "row", "index", "idx", "natural", "sequence",
	"unique", "composite", "surrogate", "hot", "shortcut", "keyboard", "translation", "i18n",
	"message", "route", "group", "registry", "entry", "json", "yaml", "field", "column", "attribute",
	"metadata", "label", "tag", "config", "setting", "settings", "option", "state", "item", "event",
	"press", "mesh", "ring", "frame", "board", "dedup", "dedupe", "lock", "s3", "kv", "hash", "range",
	"react", "list", "output", "input", "result", "results", "store", "slot", "context", "artifact",
	"data", "lang", "locale", "dedupe", "cursor", "pagination", "sort", "order", "parent", "child",
	"node", "component", "step", "flow", "agent", "tool", "unique", "signal", "response", "request",
	"prompt", "template", "var", "variable", "env", "header", "query", "path", "param", "cache",
)

var secSecretHeads = secSet(
	"secret", "token", "apikey", "authorization", "auth", "credential", "credentials", "creds",
	"bearer", "privatekey", "accesskey", "secretkey", "clientsecret", "apitoken", "accesstoken",
	"authtoken", "refreshtoken", "sessiontoken", "pat", "passkey", "signingkey", "encryptionkey",
	"masterkey", "licensekey", "webhooksecret", "dsn", "connectionstring",
)

var secPasswordHeads = secSet("password", "passwd", "pwd", "passphrase", "pass", "passcode", "userpass")

func secSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// ClassifyKey decides how strictly a value under key is scanned.
func ClassifyKey(key string) KeyClass {
	if key == "" {
		return KeyNeutral
	}
	switch key {
	case "name", "description", "Name", "Description", "NAME", "DESCRIPTION":
		return KeyDescriptive
	}
	var k secKeySplit
	k.split(key)
	n := k.n
	// drop trailing pure-digit words: token 2, api_key_1
	for n > 0 && secIsDigits(k.word(n-1)) {
		n--
	}
	if n == 0 {
		return KeyNeutral
	}
	head := k.word(n - 1)
	// strip a trailing digit run from the head word: token2 → token
	for len(head) > 1 && head[len(head)-1] >= '0' && head[len(head)-1] <= '9' {
		head = head[:len(head)-1]
	}
	var mod []byte
	if n > 1 {
		mod = k.word(n - 2)
	}
	h := string(head) // the compiler does not allocate for map index expressions below
	switch {
	case secPasswordHeads[string(head)]:
		if h == "pass" && n == 1 {
			// a bare "pass" key is too often a verb or a flag (pass/fail)
			return KeyNeutral
		}
		return KeyPassword
	case h == "key":
		if n == 1 || (n == 2 && string(mod) == "x") {
			return KeyNeutral // a bare "key" is mostly a map key / lookup key
		}
		if secKeyNonSecretMods[string(mod)] {
			return KeyIdentifier
		}
		return KeySecret
	case h == "token":
		if secTokenNonSecretMods[string(mod)] {
			return KeyIdentifier
		}
		return KeySecret
	case secSecretHeads[string(head)]:
		if m := string(mod); m == "public" || m == "csrf" || m == "xsrf" {
			return KeyIdentifier
		}
		return KeySecret
	case secIdentifierHeads[string(head)]:
		return KeyIdentifier
	}
	return KeyNeutral
}

// secMayNameSecret is false only when ClassifyKey(key) is below KeySecret:
// it is a look for the words such a key's last word must hold, without the
// split. A key classed KeySecret or KeyPassword ends (before trailing
// digits) in a word of its letters and digits, cased as it likes, that is
// one of secPasswordHeads, secSecretHeads, "key" or "token"; each of those
// holds, as ASCII letters in any case, one of pass, pwd, key, token,
// secret, auth, cred, bearer, pat, dsn or conn (TestMayNameSecret holds it
// to ClassifyKey and to the head sets).
func secMayNameSecret(key string) bool {
	for i := 0; i < len(key); i++ {
		var rest string
		switch key[i] | 0x20 {
		case 'p':
			if secFoldAt(key, i+1, "ass") || secFoldAt(key, i+1, "wd") || secFoldAt(key, i+1, "at") {
				return true
			}
			continue
		case 'c':
			if secFoldAt(key, i+1, "red") || secFoldAt(key, i+1, "onn") {
				return true
			}
			continue
		case 'k':
			rest = "ey"
		case 't':
			rest = "oken"
		case 's':
			rest = "ecret"
		case 'a':
			rest = "uth"
		case 'b':
			rest = "earer"
		case 'd':
			rest = "sn"
		default:
			continue
		}
		if secFoldAt(key, i+1, rest) {
			return true
		}
	}
	return false
}

// secFoldAt: s[i:] starts with lit (lower-case ASCII letters) in any case.
func secFoldAt(s string, i int, lit string) bool {
	if len(s)-i < len(lit) {
		return false
	}
	for j := 0; j < len(lit); j++ {
		if s[i+j]|0x20 != lit[j] {
			return false
		}
	}
	return true
}
