package lint

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// untrusted_external_url (SPEC §3.3): every outbound URL of the document —
// not only the top-level $referenced_components the reference looks at —
// must stay on the platform or on a host the project allows.

var (
	RuleUntrustedExternalURL = &Rule{Code: "untrusted_external_url", Severity: compile.Blocker, Group: "scan", Tags: []string{"security"},
		Doc: "an outbound URL (A2AAgent agent_url, MCPToolBox url or client_transport.url, ApiNode url, RemoteTool url, remote transport url) points outside the platform and off the allowed_hosts list"}
)

var passURLs = &Check{Name: "scan_urls", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkUntrustedURLs}

// urlFields lists the URL fields of each component type; a field "a/b"
// is the pointer path below the component. Remote transports (component
// types ending in "Transport", except StdioTransport) have "url". A switch,
// not a map: it runs for every component of every flow.
func urlFields(componentType string) []string {
	switch componentType {
	case "A2AAgent":
		return urlFieldsAgentURL
	case "MCPToolBox":
		return urlFieldsToolBox
	case "MCPTool":
		return urlFieldsTransport
	case "ApiNode", "RemoteTool":
		return urlFieldsURL
	}
	if strings.HasSuffix(componentType, "Transport") && componentType != "StdioTransport" {
		return urlFieldsURL
	}
	return nil
}

var (
	urlFieldsAgentURL  = []string{"agent_url"}
	urlFieldsToolBox   = []string{"url", "client_transport/url"}
	urlFieldsTransport = []string{"client_transport/url"}
	urlFieldsURL       = []string{"url"}
)

// urlField is n.Path(strings.Split(field, "/")...) without the split.
func urlField(n *compile.Node, field string) *compile.Node {
	for {
		i := strings.IndexByte(field, '/')
		if i < 0 {
			return n.Get(field)
		}
		n, field = n.Get(field[:i]), field[i+1:]
	}
}

func checkUntrustedURLs(p *Pass) {
	doc := p.Agent.Flow
	var allowed []string
	if p.Config != nil {
		allowed = p.Config.AllowedHosts
	}
	seen := map[string]bool{}
	for _, c := range p.flowComponents() {
		for _, field := range urlFields(c.Type) {
			v := urlField(c.Node, field)
			s, ok := v.Str()
			if !ok {
				continue // absent, a $component_ref or not a string
			}
			if urlTrusted(s, allowed) {
				continue
			}
			ptr := compile.PointerOf(v)
			if seen[ptr] {
				continue
			}
			seen[ptr] = true
			p.Report(doc, ptr, RuleUntrustedExternalURL,
				"untrusted "+strings.ReplaceAll(field, "/", ".")+" on "+c.Type+" "+c.Label()+": "+urlRedact(urlDisplay(s)))
		}
	}
}

// cinatraBasePrefix is the platform's own base URL placeholder at the
// start of s (spaces inside the braces are allowed; the reference only
// accepts the exact spelling), as ^\{\{\s*CINATRA_BASE_URL\s*\}\} finds it
// (the oracle of TestCinatraBasePrefix), by hand: "{{", spaces
// (RE2's \s: tab, newline, form feed, carriage return, space),
// CINATRA_BASE_URL, spaces, "}}" at the start of s; "" when s does not
// start so. The regular expression's set-up cost more than the look
// (2,474 URLs for 1,000 agents, 3,900 instructions each).
func cinatraBasePrefix(s string) string {
	if !strings.HasPrefix(s, "{{") {
		return ""
	}
	i := skipRE2Space(s, 2)
	if !strings.HasPrefix(s[i:], "CINATRA_BASE_URL") {
		return ""
	}
	i = skipRE2Space(s, i+len("CINATRA_BASE_URL"))
	if !strings.HasPrefix(s[i:], "}}") {
		return ""
	}
	return s[:i+2]
}

// skipRE2Space is the offset of the first byte of s at or after i that is
// not in RE2's \s.
func skipRE2Space(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '\t', '\n', '\f', '\r', ' ':
			i++
		default:
			return i
		}
	}
	return i
}

// urlTrusted implements the trust rules of SPEC §3.3: empty; the platform
// placeholder followed by nothing or a path, query or fragment (so that
// "{{CINATRA_BASE_URL}}@evil.example" or "….evil.example" cannot smuggle
// another host in); a path starting with a single "/" ("//host" and "/\host"
// are protocol-relative to browsers and fetch); or an absolute URL whose
// host is on the allowlist.
func urlTrusted(s string, allowed []string) bool {
	if s == "" {
		return true
	}
	if m := cinatraBasePrefix(s); m != "" {
		rest := s[len(m):]
		return rest == "" || strings.ContainsAny(rest[:1], "/?#")
	}
	if strings.HasPrefix(s, "/") {
		return len(s) == 1 || (s[1] != '/' && s[1] != '\\')
	}
	return urlHostAllowed(s, allowed)
}

// urlHostAllowed reports whether s is an absolute URL whose host matches an
// allowlist entry: an exact host (case-insensitive; an entry with a port
// must match host:port), or "*.suffix" for any host below suffix (not
// suffix itself).
func urlHostAllowed(s string, allowed []string) bool {
	if len(allowed) == 0 || strings.ContainsAny(s, "\\ \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Scheme == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	hostPort := strings.ToLower(u.Host)
	if host == "" || strings.Contains(host, "{") {
		return false
	}
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == "":
		case strings.HasPrefix(a, "*."):
			if suf := a[1:]; len(host) > len(suf) && strings.HasSuffix(host, suf) {
				return true
			}
		case strings.HasPrefix(a, "[") && strings.Contains(a, "]:"), strings.Contains(a, ":") && !strings.HasPrefix(a, "["):
			if hostPort == a { // an entry with a port matches that port only
				return true
			}
		default:
			if host == strings.Trim(a, "[]") {
				return true
			}
		}
	}
	return false
}

// urlDisplay is the URL as a message shows it: a password in the user info
// and the values of secret-looking query parameters are masked, so that a
// message never carries a credential (SPEC §2).
func urlDisplay(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		if i := strings.Index(s, "@"); i > 0 && strings.Contains(s[:i], ":") {
			return urlMask(s) // unparsable and possibly user:pass@: mask it all
		}
		return s
	}
	changed := false
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), urlMask(pw))
			changed = true
		}
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, part := range parts {
			k, v, ok := strings.Cut(part, "=")
			if ok && v != "" && urlSecretParam(k) {
				parts[i] = k + "=" + urlMask(v)
				changed = true
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if !changed {
		return s
	}
	out := u.String()
	if uq, err := url.PathUnescape(out); err == nil {
		out = uq // keep the mask's "…" readable
	}
	return out
}

// urlRedact masks, in a URL already through urlDisplay, whatever the secret
// detector finds (provider tokens anywhere in it) and every long token-like
// path segment or query value (webhook secrets such as
// /services/T…/B…/<secret> live in the path).
func urlRedact(s string) string {
	var b strings.Builder
	rest := s
	for i := 0; i < 16 && rest != ""; i++ {
		d, ok := present.Detect("url", rest)
		if !ok || d.Start < 0 || d.End <= d.Start || d.End > len(rest) {
			break
		}
		b.WriteString(rest[:d.Start])
		b.WriteString(d.Masked)
		rest = rest[d.End:]
	}
	b.WriteString(rest)
	return urlTokenRe.ReplaceAllStringFunc(b.String(), func(m string) string {
		sep, tok := m[:1], m[1:]
		hasDigit := strings.ContainsAny(tok, "0123456789")
		hasLetter := strings.IndexFunc(tok, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }) >= 0
		if !hasDigit || !hasLetter {
			return m
		}
		return sep + urlMask(tok)
	})
}

// urlTokenRe: a path segment or query value of 20 or more token characters.
var urlTokenRe = newLazyRegexp(`[/=][A-Za-z0-9_\-]{20,}`)

func urlSecretParam(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "pwd", "auth", "sig", "credential"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// urlMask is the masked form of SPEC §2: the first 4 characters, "…", the
// length in characters.
func urlMask(s string) string {
	n := utf8.RuneCountInString(s)
	r := []rune(s)
	if len(r) > 4 {
		r = r[:4]
	}
	if n <= 8 {
		r = nil // too short to show any of it
	}
	return string(r) + "…" + strconv.Itoa(n)
}
