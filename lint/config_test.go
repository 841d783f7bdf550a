package lint

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

var rvConfigDir = filepath.Join("..", "testdata", "config")

func TestFindConfig(t *testing.T) {
	want, _ := filepath.Abs(filepath.Join(rvConfigDir, "tree", ".oastui.yaml"))
	for _, start := range []string{
		filepath.Join(rvConfigDir, "tree"),
		filepath.Join(rvConfigDir, "tree", "agents", "acme", "deep"),
		filepath.Join(rvConfigDir, "tree", "agents", "acme", "deep", ".keep"), // a file: its directory
	} {
		got, ok := FindConfig(start)
		if !ok || got != want {
			t.Errorf("FindConfig(%s) = %q, %v; want %q", start, got, ok, want)
		}
	}
	if got, ok := FindConfig(t.TempDir()); ok {
		t.Logf("a config above the temporary directory: %s", got) // not ours; nothing to assert
	}
}

func TestLoadConfig(t *testing.T) {
	c, err := LoadConfig(filepath.Join(rvConfigDir, "tree", ".oastui.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.AllowedHosts, " ") != "api.partner.example *.trusted.example" {
		t.Errorf("allowed_hosts %v", c.AllowedHosts)
	}
	if c.Rules["start_node_inputs_without_required"] != "suggestion" || c.Rules["package_name_mismatch"] != "off" {
		t.Errorf("rules %v", c.Rules)
	}
	if len(c.Ignores) != 4 {
		t.Fatalf("%d ignores", len(c.Ignores))
	}
	for i, line := range []int{9, 13, 17} {
		if ig := c.Ignores[i]; ig.Line != line || ig.Reason == "" || !strings.HasPrefix(ig.Pointer, "/") {
			t.Errorf("ignore %d: %+v, want line %d", i, ig, line)
		}
	}
	// An empty file is the defaults.
	if c, err := ParseConfig("empty.yaml", []byte("# nothing\n")); err != nil || len(c.Rules)+len(c.Ignores)+len(c.AllowedHosts) != 0 {
		t.Errorf("empty config: %+v, %v", c, err)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	for file, want := range map[string]string{
		"missing-reason.yaml": `missing-reason.yaml:2: ignores[0] (rule untrusted_external_url at agents/x/cinatra/oas.json /$referenced_components/peer/agent_url): "reason" is required`,
		"unknown-key.yaml":    `unknown-key.yaml:2: unknown key "allowed_host"`,
		"bad-severity.yaml":   `bad-severity.yaml:2: rule "untrusted_external_url": severity must be blocker, warning, suggestion or off, got "error"`,
		"unknown-rule.yaml":   `unknown-rule.yaml:2: unknown rule "untrusted_external_urls" (did you mean "untrusted_external_url"?)`,
		"url-as-host.yaml":    `url-as-host.yaml:2: allowed_hosts entry "https://api.example.com/v1" must be a bare host`,
		"bad-pointer.yaml":    `bad-pointer.yaml:4: ignores[0] (rule untrusted_external_url): pointer "$referenced_components.peer.agent_url" must be a JSON Pointer`,
		"not-yaml.yaml":       `not-yaml.yaml:1:1: invalid YAML: did not find expected`,
		"no-such-file.yaml":   `no-such-file.yaml: cannot read config`,
	} {
		t.Run(file, func(t *testing.T) {
			_, err := LoadConfig(filepath.Join(rvConfigDir, "bad", file))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want a *ConfigError", err, err)
			}
			if got := strings.TrimPrefix(err.Error(), filepath.Join(rvConfigDir, "bad")+string(filepath.Separator)); !strings.HasPrefix(got, want) {
				t.Errorf("error\n  %s\nwant prefix\n  %s", got, want)
			}
		})
	}
}

// TestConfigApply: allowed hosts, ignores (exact pointer and a pointer above
// the finding), per-rule severity and off, and an unused ignore reported at
// its line in the config file — only in the review of the agent it names.
func TestConfigApply(t *testing.T) {
	cfgPath := filepath.Join(rvConfigDir, "tree", ".oastui.yaml")
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	only := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			switch f.Code {
			case "untrusted_external_url", "llm_bridge_missing_agent_id", "start_node_inputs_without_required", "package_name_mismatch", "unused_ignore":
				out = append(out, f.Code+" "+string(f.Severity)+" "+f.Location)
			}
		}
		return out
	}

	urls := rvLoad(t, ruleCase("err", "untrusted_external_url", "urls-everywhere"))
	plain := only(review(urls, Options{}).Findings)
	got := only(review(urls, Options{Config: cfg}).Findings)
	if len(got) != len(plain)+1 { // one silenced, two unused_ignore added
		t.Errorf("with config %d findings, without %d", len(got), len(plain))
	}
	if strings.Contains(strings.Join(got, "\n"), "/peer/agent_url") {
		t.Error("ignored finding still reported")
	}
	var unused []Finding
	for _, f := range review(urls, Options{Config: cfg}).Findings {
		if f.Code == "unused_ignore" {
			unused = append(unused, f)
		}
	}
	if len(unused) != 2 || unused[0].File != cfgPath || unused[0].Line != 17 || unused[0].Severity != compile.Warning ||
		unused[0].Location != "/ignores/2" || !strings.Contains(unused[0].Message, "no_such_component") ||
		unused[1].Line != 21 || !strings.Contains(unused[1].Message, "names no existing file") {
		t.Errorf("unused ignores %+v", unused)
	}

	bridge := rvLoad(t, ruleCase("err", "llm_bridge_missing_agent_id", "bridge-nested"))
	got = only(review(bridge, Options{Config: cfg}).Findings)
	for _, g := range got {
		if strings.Contains(g, "/bridge-subflow/") || (strings.HasPrefix(g, "unused_ignore") && g != "unused_ignore warning /ignores/3") {
			t.Errorf("bridge-nested: %s (the subflow is ignored; only the missing-file ignore is reported)", g)
		}
	}

	start := rvLoad(t, ruleCase("err", "start_node_inputs_without_required", "startnode-nested-inline"))
	for _, g := range only(review(start, Options{Config: cfg}).Findings) {
		if !strings.HasPrefix(g, "start_node_inputs_without_required suggestion") && !strings.HasPrefix(g, "unused_ignore") {
			t.Errorf("startnode: %s, want the warning lowered to a suggestion", g)
		}
	}
	pkg := rvLoad(t, ruleCase("err", "package_version_oas_pkg_drift", "package-drift-license-name"))
	for _, g := range only(review(pkg, Options{Config: cfg}).Findings) {
		if strings.HasPrefix(g, "package_name_mismatch") {
			t.Errorf("rule off but reported: %s", g)
		}
	}

	allow := rvLoad(t, ruleCase("err", "untrusted_external_url", "urls-allowlist"))
	n := len(only(review(allow, Options{}).Findings))
	m := len(only(review(allow, Options{Config: cfg}).Findings))
	if m >= n {
		t.Errorf("allowed_hosts: %d findings with, %d without", m, n)
	}
}

func TestURLTrust(t *testing.T) {
	allowed := []string{"api.partner.example", "*.trusted.example", "internal.example:8443", "[::1]", "[fd00::2]:9443"}
	for u, want := range map[string]bool{
		"":                                       true,
		"/api/x":                                 true,
		"/":                                      true,
		"{{CINATRA_BASE_URL}}":                   true,
		"{{CINATRA_BASE_URL}}/api/mcp":           true,
		"{{ CINATRA_BASE_URL }}/api/mcp":         true,
		"{{CINATRA_BASE_URL}}?x=1":               true,
		"{{CINATRA_BASE_URL}}.evil.example/x":    false,
		"{{CINATRA_BASE_URL}}@evil.example/x":    false,
		"{{OTHER}}/api":                          false,
		"//evil.example/x":                       false,
		"/\\evil.example/x":                      false,
		"https://api.partner.example/v1":         true,
		"HTTPS://API.PARTNER.EXAMPLE/v1":         true,
		"https://api.partner.example:443/v1":     true,
		"https://x.api.partner.example/v1":       false,
		"https://a.trusted.example/":             true,
		"https://a.b.trusted.example/":           true,
		"https://trusted.example/":               false,
		"https://eviltrusted.example/":           false,
		"https://api.partner.example.evil/":      false,
		"https://api.partner.example@evil.com/":  false,
		"https://internal.example:8443/x":        true,
		"https://internal.example/x":             false,
		"http://[::1]:8080/x":                    true,
		"https://[fd00::2]:9443/x":               true,
		"https://[fd00::2]/x":                    false,
		"api.partner.example/v1":                 false,
		"https://{{host}}/x":                     false,
		"ws://internal-only/a2a":                 false,
		"https://api.partner.example\\@evil.com": false,
	} {
		if got := urlTrusted(u, allowed); got != want {
			t.Errorf("urlTrusted(%q) = %v, want %v", u, got, want)
		}
	}
}

func TestLLMBridgeURL(t *testing.T) {
	for u, want := range map[string]bool{
		"{{CINATRA_BASE_URL}}/api/llm-bridge":    true,
		"/api/llm-bridge":                        true,
		"https://x.example/api/llm-bridge":       true,
		"/api/llm-bridge/":                       true,
		"/api/llm-bridge?stream=1":               true,
		"/api/llm-bridge-status":                 false,
		"/api/other":                             false,
		"{{CINATRA_BASE_URL}}/api/llm-bridge#x":  true,
		"{{CINATRA_BASE_URL}}/api/llm-bridgeway": false,
	} {
		if got := isLLMBridgeURL(u); got != want {
			t.Errorf("isLLMBridgeURL(%q) = %v, want %v", u, got, want)
		}
	}
}

// TestURLDisplay: what an untrusted_external_url message shows of a URL —
// never a credential.
func TestURLDisplay(t *testing.T) {
	for in, want := range map[string]string{
		"https://evil.example/x":                                                      "https://evil.example/x",
		"https://bob:hunter2hunter2@evil.example/x":                                   "https://bob:hunt…14@evil.example/x",
		"https://bob:pw@evil.example/x":                                               "https://bob:…2@evil.example/x",
		"https://evil.example/x?api_key=abcd1234efgh5678&page=2":                      "https://evil.example/x?api_key=abcd…16&page=2",
		"https://hooks.example/services/T01ABCDEF/B01ABCDEF/abcdefghijklmnop1234wxyz": "https://hooks.example/services/T01ABCDEF/B01ABCDEF/abcd…24",
		"https://x.example/api?k=AIzaSyA1234567890abcdefghijklmnopqrstuv":             "https://x.example/api?k=AIza…39",
		"https://x.example/api/a-very-long-resource-name-without-digits":              "https://x.example/api/a-very-long-resource-name-without-digits",
		"{{CINATRA_BASE_URL}}@evil.example/x":                                         "{{CINATRA_BASE_URL}}@evil.example/x",
	} {
		if got := urlRedact(urlDisplay(in)); got != want {
			t.Errorf("display(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConfigYAMLSyntaxPosition: YAML syntax errors are path:line:col, on
// the line at fault for the scanner's and the parser's problems alike.
func TestConfigYAMLSyntaxPosition(t *testing.T) {
	for src, want := range map[string]string{
		"rules:\n  a: [unclosed\n":  "c.yaml:2:3: invalid YAML: did not find expected ',' or ']'",
		"a: 1\nb: 2\nc: [x\n":       "c.yaml:3:1: invalid YAML: did not find expected ',' or ']'",
		"ignores:\n\t- rule: x\n":   "c.yaml:2:1: invalid YAML: found character that cannot start any token",
		"a: 1\n  b: 2\n":            "c.yaml:2:3: invalid YAML: mapping values are not allowed in this context",
		"rules: {}\n- b\n":          "c.yaml:2:1: invalid YAML: did not find expected key",
		"rules: \"unterminated\n\n": "c.yaml:1:1: invalid YAML: found unexpected end of stream",
	} {
		_, err := ParseConfig("c.yaml", []byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", src, err, want)
		}
	}
}

// TestConfigIgnoreGlobsAndValues: "**" crosses directories ("*" does
// not); an ignore with value_hash matches that value only; the long form
// of a rule setting carries a reason, required to turn a security rule off.
func TestConfigIgnoreGlobsAndValues(t *testing.T) {
	dir := t.TempDir()
	c, err := ParseConfig(filepath.Join(dir, ".oastui.yaml"), []byte(`
rules:
  start_node_inputs_without_required: {severity: off}
  literal_credential_detected: warning
  untrusted_external_url: {severity: off, reason: gateway vets hosts}
ignores:
  - {rule: package_name_mismatch, file: "agents/**/package.json", reason: renamed}
  - {rule: agent_package_missing_license, file: "agents/*/package.json", reason: internal}
  - {rule: literal_credential_detected, file: "agents/**/oas.json", value_hash: 0123456789abcdef0123456789abcdef, reason: demo}
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Rules["start_node_inputs_without_required"] != "off" || c.Rules["literal_credential_detected"] != "warning" || c.RuleReasons["untrusted_external_url"] != "gateway vets hosts" {
		t.Errorf("rules %v %v", c.Rules, c.RuleReasons)
	}
	if n := c.Notices(); len(n) != 1 || !strings.Contains(n[0], "untrusted_external_url") {
		t.Errorf("notices %q", n)
	}
	deep := filepath.Join(dir, "agents", "acme", "x", "package.json")
	for _, tc := range []struct {
		f    Finding
		want int
	}{
		{Finding{Code: "package_name_mismatch", File: deep}, 0},
		{Finding{Code: "agent_package_missing_license", File: deep}, -1}, // "*" stays in one directory
		{Finding{Code: "agent_package_missing_license", File: filepath.Join(dir, "agents", "acme", "package.json")}, 1},
		{Finding{Code: "literal_credential_detected", File: filepath.Join(dir, "agents", "a", "cinatra", "oas.json"), ValueHash: "0123456789abcdef0123456789abcdef"}, 2},
		{Finding{Code: "literal_credential_detected", File: filepath.Join(dir, "agents", "a", "cinatra", "oas.json"), ValueHash: "ffffffffffffffffffffffffffffffff"}, -1},
	} {
		if got := c.matchIgnore(tc.f); got != tc.want {
			t.Errorf("%s %s %s: ignore %d, want %d", tc.f.Code, tc.f.File, tc.f.ValueHash, got, tc.want)
		}
	}
	for src, want := range map[string]string{
		"rules:\n  literal_credential_detected: off\n":                                             "needs a reason",
		"rules:\n  literal_credential_detected: {severity: off}\n":                                 "needs a reason",
		"rules:\n  untrusted_external_url: {reason: x}\n":                                          `"severity" is required`,
		"ignores:\n  - {rule: credential_in_description, file: a, reason: x}\n":                    "value_hash",
		"ignores:\n  - {rule: literal_credential_detected, file: a, value_hash: xyz, reason: x}\n": "32 hex digits",
	} {
		if _, err := ParseConfig("c.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

// TestParseDiffReasons (issue 35, point 3): a diff: level may carry a
// reason ({level, reason}); unknown keys and a missing level are errors.
func TestParseDiffReasons(t *testing.T) {
	c, err := ParseConfig(".oastui.yaml", []byte("diff:\n  diff_risk_lowered: {level: off, reason: \" gated upstream \"}\n  diff_node_renamed: warn\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Diff["diff_risk_lowered"] != "off" || c.DiffReasons["diff_risk_lowered"] != "gated upstream" || c.Diff["diff_node_renamed"] != "warn" {
		t.Errorf("diff %v reasons %v", c.Diff, c.DiffReasons)
	}
	for src, want := range map[string]string{
		"diff:\n  diff_risk_lowered: {reason: x}\n":               "level is required",
		"diff:\n  diff_risk_lowered: {level: off, why: x}\n":      "unknown key",
		"diff:\n  diff_risk_lowered: {level: never, reason: x}\n": "not breaking, warn, info or off",
	} {
		if _, err := ParseConfig(".oastui.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}
