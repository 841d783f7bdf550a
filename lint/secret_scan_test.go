package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// secScanJSON runs the flow-document secret scan over src.
func secScanJSON(t testing.TB, src string) []Finding {
	t.Helper()
	d := compile.ParseDoc("oas.json", []byte(src))
	if d.Root == nil {
		t.Fatalf("bad JSON: %v", d.Err)
	}
	p := &Pass{Config: &Config{}}
	scanDocSecrets(p, d)
	return compile.SortFindings(p.Findings())
}

func secFindingLines(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s %s %d:%d", f.Code, f.Severity, f.Location, f.Line, f.Column))
	}
	return out
}

func TestSecretScanDocument(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "nested subflow, escaped pointer",
			src: `{"component_type":"Flow","$referenced_components":{"sub":{"component_type":"FlowNode","subflow":{
  "component_type":"Flow","$referenced_components":{"api":{"component_type":"ApiNode",
  "headers":{"x-api/key":"` + fakeGH + `"}}}}}}}`,
			want: []string{"literal_credential_detected blocker /$referenced_components/sub/subflow/$referenced_components/api/headers/x-api~1key 3:26"},
		},
		{
			name: "secret-named key outside the reference's scannable keys",
			src:  `{"metadata":{"cinatra":{"llm":{"api_key":"Zf3D0LXCM3EIMbgJ"}}}}`,
			want: []string{"literal_credential_detected blocker /metadata/cinatra/llm/api_key 1:42"},
		},
		{
			name: "name/value header pairs",
			src:  `{"headers":[{"name":"Authorization","value":"Zf3D0LXCM3EIMbgJ"},{"name":"Accept","value":"application/json"}]}`,
			want: []string{"literal_credential_detected blocker /headers/0/value 1:45"},
		},
		{
			name: "array items inherit the key",
			src:  `{"tokens_by_env":{"api_keys":["{{A}}"],"token":["Zf3D0LXCM3EIMbgJ","${B}"]}}`,
			want: []string{"literal_credential_detected blocker /tokens_by_env/token/0 1:49"},
		},
		{
			name: "descriptions: provider token is a warning, entropy is nothing",
			src:  `{"description":"rotate ` + fakeOpenAI + `","name":"Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznBQ7"}`,
			want: []string{"credential_in_description warning /description 1:16"},
		},
		{
			name: "URL with a password",
			src:  `{"url":"https://admin:s3cr3tP4ss@db.example.com/x","agent_url":"https://example.com/a2a"}`,
			want: []string{"literal_credential_detected blocker /url 1:8"},
		},
		{
			name: "clean: ids, templates, prose",
			src: `{"id":"550e8400-e29b-41d4-a716-446655440000","headers":{"Authorization":"Bearer {{CINATRA_TOKEN}}"},
"system_prompt":"Never print the API key.","data":{"agent_id":"Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7"}}`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := secFindingLines(secScanJSON(t, c.src))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestSecretRulesRegistered(t *testing.T) {
	for code, sev := range map[string]compile.Severity{
		"literal_credential_detected":        compile.Blocker,
		"credential_in_description":          compile.Warning,
		"literal_credential_in_sibling_file": compile.Blocker,
		"package_env_file_forbidden":         compile.Blocker,
		"package_file_too_large_to_scan":     compile.Warning,
	} {
		r := LookupRule(code)
		if r == nil {
			t.Errorf("%s not registered", code)
			continue
		}
		if r.Severity != sev || r.Doc == "" {
			t.Errorf("%s: severity %s doc %q", code, r.Severity, r.Doc)
		}
		hasSec := false
		for _, tag := range r.Tags {
			hasSec = hasSec || tag == "security"
		}
		if !hasSec {
			t.Errorf("%s is not tagged security", code)
		}
	}
}

// TestSecretMessagesNeverHoldTheSecret: every secret row of the sample set,
// put in a flow file under a neutral and a secret-bearing key and in a
// sibling file, yields messages without the raw secret.
func TestSecretMessagesNeverHoldTheSecret(t *testing.T) {
	rows := secLoadGitleaks(t)
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	if err := os.MkdirAll(filepath.Join(pkg, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	var lines []string
	checked := 0
	for _, r := range rows {
		if r.Label != "secret" || strings.TrimSpace(r.Value) == "" {
			continue
		}
		doc := map[string]any{"note": r.Value, "api_key": r.Value, "headers": map[string]string{"Authorization": "Bearer " + r.Value}}
		src, _ := json.Marshal(doc)
		fs := secScanJSON(t, string(src))
		for _, f := range fs {
			checked++
			if strings.Contains(f.Message, r.Value) || (len(r.Value) > 4 && strings.Contains(f.Message, strings.TrimSpace(r.Value))) {
				t.Errorf("%s: message shows the secret: %s", r.Rule, f.Code)
			}
		}
		if !strings.Contains(r.Value, "\n") {
			lines = append(lines, "API_KEY="+r.Value, "note: "+r.Value)
		}
	}
	if err := os.WriteFile(filepath.Join(pkg, "notes.txt"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"x","version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// the sibling scan caps findings per file; spread the lines over files
	// of 10 lines each so that every secret is reported
	for i := 0; i*10 < len(lines); i++ {
		end := min(len(lines), i*10+10)
		_ = os.WriteFile(filepath.Join(pkg, fmt.Sprintf("part%04d.txt", i)), []byte(strings.Join(lines[i*10:end], "\n")), 0o644)
	}
	if err := os.WriteFile(filepath.Join(pkg, "cinatra", "oas.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := rvLoad(t, pkg) // Load reads the sibling files
	sib := ScanSiblingFiles(a)
	for _, f := range sib {
		checked++
		for _, r := range rows {
			if r.Label == "secret" && len(strings.TrimSpace(r.Value)) > 4 && strings.Contains(f.Message, r.Value) {
				t.Errorf("sibling message shows a secret of %s", r.Rule)
			}
		}
	}
	if checked < 1000 || len(sib) < 300 {
		t.Errorf("only %d findings checked (%d sibling): the test does not exercise the scan", checked, len(sib))
	}
}

// secWriteTree writes files (relative path → content) under dir.
func secWriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSiblingFileScan(t *testing.T) {
	flow := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","headers":{"token":"` + fakeGH + `"}}`
	cases := []struct {
		name  string
		files map[string]string
		want  []string // "code severity rel line:col"
	}{
		{
			name: "clean package",
			files: map[string]string{
				"package.json":    `{"name":"@x/y","version":"1.0.0","description":"uses ` + "sk-EXAMPLE" + `","license":"MIT"}`,
				"README.md":       "# Agent\n\nSet `OPENAI_API_KEY=<your key>` and run.\n",
				".env.example":    "OPENAI_API_KEY=\nTOKEN=${TOKEN}\n",
				"skills/x/a.md":   "call with Authorization: Bearer {{token}}\n",
				"assets/logo.png": "\x89PNG\r\n\x1a\n" + fakeGH,
			},
		},
		{
			name: "secrets in text, JSON and .env files; the flow file is not rescanned",
			files: map[string]string{
				"package.json":       `{"name":"@x/y","version":"1.0.0","config":{"apiKey":"Zf3D0LXCM3EIMbgJ"}}`,
				"skills/x/SKILL.md":  "# Skill\n\nuse  " + fakeOpenAI + " here\n",
				".env":               "SLACK=" + tk("xoxb-", "781236542736-2364535789652-GkwFDQoHqzXDVsC6GzqYUypD") + "\n",
				".env.local":         "A=1\n",
				"cinatra/agent.json": flow,
			},
			want: []string{
				"package_env_file_forbidden blocker .env 1:1",
				"literal_credential_in_sibling_file blocker .env 1:7",
				"package_env_file_forbidden blocker .env.local 1:1",
				"literal_credential_in_sibling_file blocker package.json 1:54",
				"literal_credential_in_sibling_file blocker skills/x/SKILL.md 3:6",
			},
		},
		{
			name: "skipped directories and lockfile integrity lines",
			files: map[string]string{
				"node_modules/x/index.js": "const k = '" + fakeGH + "'\n",
				".git/config":             "token = " + fakeGH + "\n",
				"dist/out.js":             "k='" + fakeGH + "'\n",
				"package-lock.json":       "{\n  \"integrity\": \"sha512-Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7+V4eUrLfpuyOuxmiW9rhROG/Whikle15syazJOkrjJa3U2A==\"\n}\n",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"cinatra/oas.json": flow}
			for k, v := range c.files {
				files[k] = v
			}
			secWriteTree(t, dir, files)
			a := rvLoad(t, dir) // Load reads the sibling files
			var got []string
			for _, f := range ScanSiblingFiles(a) {
				rel, _ := filepath.Rel(dir, f.File)
				got = append(got, fmt.Sprintf("%s %s %s %d:%d", f.Code, f.Severity, filepath.ToSlash(rel), f.Line, f.Column))
				if f.Source != compile.SourceDeterministic {
					t.Errorf("source %q", f.Source)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestSiblingFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("lorem ipsum dolor sit amet\n", SiblingMaxFileBytes/27+10)
	secWriteTree(t, dir, map[string]string{"cinatra/oas.json": "{}", "data/big.txt": big + fakeGH})
	a := rvLoad(t, dir) // Load reads the sibling files
	fs := ScanSiblingFiles(a)
	if len(fs) != 1 || fs[0].Code != "package_file_too_large_to_scan" || fs[0].Severity != compile.Warning {
		t.Fatalf("got %v", fs)
	}
}

func TestSiblingSplitAssignment(t *testing.T) {
	for in, want := range map[string][3]string{
		"OPENAI_API_KEY=abc":           {"OPENAI_API_KEY", "15", "abc"},
		"export TOKEN=\"abc\"":         {"TOKEN", "14", "abc"},
		`  "apiKey": "abc",`:           {"apiKey", "13", "abc"},
		"password: hunter2":            {"password", "10", "hunter2"},
		"  - token => 'x'":             {"token", "14", "x"},
		"just a line of prose: really": {"", "0", "just a line of prose: really"},
	} {
		k, off, v := present.SplitAssignment(in)
		if k != want[0] || fmt.Sprint(off) != want[1] || v != want[2] {
			t.Errorf("%q → %q %d %q, want %v", in, k, off, v, want)
		}
	}
}

// TestSecretScanInReview: the checks run through lint.Run for both
// profiles, and a flow file given directly (no package) gets no sibling scan.
func TestSecretScanInReview(t *testing.T) {
	dir := t.TempDir()
	secWriteTree(t, dir, map[string]string{
		"agents/v/p/package.json":     `{"name":"@v/p","version":"1.0.0","license":"MIT"}`,
		"agents/v/p/cinatra/oas.json": `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"node"}},"headers":{"token":"` + fakeGH + `"}}`,
		"agents/v/p/.env":             "A=1\n",
		"loose/flow.json":             `{"agentspec_version":"26.1.0","component_type":"Agent","id":"a","name":"A","llm_config":{"api_key":"` + fakeOpenAI + `"}}`,
	})
	for _, c := range []struct {
		path string
		want []string
	}{
		{filepath.Join(dir, "agents/v/p"), []string{"package_env_file_forbidden", "literal_credential_detected"}},
		{filepath.Join(dir, "loose/flow.json"), []string{"literal_credential_detected"}},
	} {
		a, err := compile.Load(c.path, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := review(a, Options{})
		var got []string
		for _, f := range r.Findings {
			switch f.Code {
			case "literal_credential_detected", "package_env_file_forbidden", "literal_credential_in_sibling_file", "credential_in_description":
				got = append(got, f.Code)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s (%s): got %v, want %v", c.path, a.Profile, got, c.want)
		}
	}
}

// secCorpusAgents loads the corpus agents once for the benchmarks.
func secCorpusAgents(b *testing.B) []*compile.Agent {
	root := filepath.Join(secSharedDir(b), "corpus", "cinatra", "agents", "cinatra-ai")
	ents, err := os.ReadDir(root)
	if err != nil {
		b.Skip(err)
	}
	var out []*compile.Agent
	for _, e := range ents {
		if e.IsDir() {
			a, err := compile.Load(filepath.Join(root, e.Name()), compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, a)
		}
	}
	return out
}

// BenchmarkSecretScanCorpus: the flow-document scan over the 25 corpus
// agents per iteration (multiply ns/op by 40 for 1,000 agents).
func BenchmarkSecretScanCorpus(b *testing.B) {
	agents := secCorpusAgents(b)
	b.ReportAllocs()
	cpu := secThreadCPU(b)
	for b.Loop() {
		for _, a := range agents {
			p := &Pass{Agent: a, Config: &Config{}}
			scanDocSecrets(p, a.Flow)
		}
	}
	cpu.report(b, len(agents))
}

// secCPU measures the CPU time of the benchmark's thread, which stays
// meaningful when other processes share the machine (wall-clock ns/op
// does not).
type secCPU struct{ start int64 }

func secThreadCPU(b *testing.B) secCPU {
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	return secCPU{secThreadNanos()}
}

func secThreadNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD on Linux */, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func (c secCPU) report(b *testing.B, agents int) {
	if c.start == 0 || b.N == 0 {
		return
	}
	per := float64(secThreadNanos()-c.start) / float64(b.N) / float64(agents)
	b.ReportMetric(per/1e3, "cpu-µs/agent")
	b.ReportMetric(per*1000/1e6, "cpu-ms/1000agents")
}

// BenchmarkSiblingScanCorpus: the sibling-file scan (directory walk and
// package.json) over the 25 corpus agents per iteration.
func BenchmarkSiblingScanCorpus(b *testing.B) {
	agents := secCorpusAgents(b)
	b.ReportAllocs()
	cpu := secThreadCPU(b)
	for b.Loop() {
		for _, a := range agents {
			ScanSiblingFiles(a)
		}
	}
	cpu.report(b, len(agents))
}

func TestSiblingDescriptionToken(t *testing.T) {
	dir := t.TempDir()
	secWriteTree(t, dir, map[string]string{
		"cinatra/oas.json": "{}",
		"package.json":     `{"name":"x","description":"rotate ` + fakeOpenAI + ` monthly","keywords":["Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznBQ7"]}`,
	})
	a := rvLoad(t, dir) // Load reads the sibling files
	fs := ScanSiblingFiles(a)
	var got []string
	for _, f := range fs {
		got = append(got, f.Code+" "+f.Location)
	}
	want := []string{"literal_credential_in_sibling_file /description", "literal_credential_in_sibling_file /keywords/0"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
}
