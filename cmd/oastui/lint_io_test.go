package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pkgJSONInvalid = "../../lint/testdata/rules/err/package_json_invalid"

func runLintStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runStdin(append([]string{"lint"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// `lint - --stdin-filename F` reports exactly what `lint F` reports (the
// package.json beside F included); without a name the flow is bare.
func TestLintStdin(t *testing.T) {
	flow := filepath.Join(pkgJSONInvalid, "cinatra", "oas.json")
	src := readFile(t, flow)

	codeDisk, disk, _ := runLintCmd(t, "--format", "json", pkgJSONInvalid)
	code, named, errOut := runLintStdin(t, src, "--format", "json", "-", "--stdin-filename", flow)
	if code != codeDisk || named != disk {
		t.Errorf("stdin with --stdin-filename: exit %d (disk %d)\n%s\nwant\n%s%s", code, codeDisk, named, disk, errOut)
	}
	if !strings.Contains(disk, `"package_json_invalid"`) {
		t.Fatalf("the fixture lost its package finding:\n%s", disk)
	}

	// The config found around --stdin-filename applies (unused_ignore is
	// reported from the package's .oastui.yaml).
	cfgPkg := "../../lint/testdata/rules/err/unused_ignore"
	cfgFlow := filepath.Join(cfgPkg, "cinatra", "oas.json")
	_, cfgDisk, _ := runLintCmd(t, "--format", "json", cfgPkg)
	_, cfgStdin, _ := runLintStdin(t, readFile(t, cfgFlow), "--format", "json", "-", "--stdin-filename", cfgFlow)
	if !strings.Contains(cfgDisk, `"unused_ignore"`) || cfgStdin != cfgDisk {
		t.Errorf("config of --stdin-filename:\n%s\nwant\n%s", cfgStdin, cfgDisk)
	}

	// An unsaved file beside it (not on disk) gets the same package.
	_, draft, _ := runLintStdin(t, src, "--format", "json", "-", "--stdin-filename", filepath.Join(pkgJSONInvalid, "cinatra", "draft.json"))
	if !strings.Contains(draft, `"package_json_invalid"`) {
		t.Errorf("a file not on disk lost its package context:\n%s", draft)
	}

	// The stdin bytes are what is reviewed, not the file on disk.
	_, changed, _ := runLintStdin(t, `{"componentType": "Flow"}`, "--format", "json", "-", "--stdin-filename", flow)
	if !strings.Contains(changed, `"/componentType"`) || strings.Contains(disk, `"/componentType"`) {
		t.Errorf("stdin contents not reviewed:\n%s", changed)
	}

	// Bare: no package context, file named <stdin>.
	if _, bare, _ := runLintStdin(t, src, "--format", "json", "-"); strings.Contains(bare, `"package_json_invalid"`) {
		t.Errorf("bare stdin has a package:\n%s", bare)
	}
	_, bare, _ := runLintStdin(t, readFile(t, legacyFixture), "--format", "json", "-")
	var rep lintJSON
	if err := json.Unmarshal([]byte(bare), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 || rep.Summary.Files != 1 {
		t.Errorf("bare stdin:\n%s", bare)
	}
	for _, f := range rep.Findings {
		if f.File != stdinName {
			t.Errorf("bare stdin finding in %q, want %q", f.File, stdinName)
		}
	}

	// Text output shows the source lines of the stdin flow.
	_, text, _ := runLintStdin(t, readFile(t, legacyFixture), "-")
	if !strings.Contains(text, "<stdin>:2:20: blocker: legacy field") || !strings.Contains(text, "2 |   \"componentType\": \"Flow\",\n  |                    ^~~~~~") {
		t.Errorf("text from stdin:\n%s", text)
	}
	// Invalid JSON on stdin is a finding, not an error.
	if code, out, _ := runLintStdin(t, `{"a":`, "-"); code != exitFindings || !strings.Contains(out, "invalid_json") {
		t.Errorf("broken stdin: exit %d\n%s", code, out)
	}
}

func TestLintStdinUsageErrors(t *testing.T) {
	dirJSON := filepath.Join(t.TempDir(), "d.json")
	if err := os.Mkdir(dirJSON, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--stdin-filename", "x.json", legacyFixture}, // no -
		{"-", legacyFixture},                          // - with other PATHs
		{"-", "--stdin-filename", "x.txt"},            // not a flow file name
		{"-", "--stdin-filename", dirJSON},            // a directory
	} {
		if code, _, errOut := runLintStdin(t, "{}", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
}

// Several outputs in one run, golangci-lint's way, written atomically.
func TestLintOutputs(t *testing.T) {
	dir := t.TempDir()
	_, wantText, _ := runLintCmd(t, legacyFixture)
	_, wantSARIF, _ := runLintCmd(t, "--format", "sarif", legacyFixture)
	_, wantJSON, _ := runLintCmd(t, "--format", "json", legacyFixture)
	sarif, js := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "out.json")

	for _, tc := range []struct {
		name  string
		args  []string
		out   string // stdout
		files map[string]string
	}{
		{"format and output pairs", []string{"--format", "text", "--format", "sarif", "--output", "-", "--output", sarif}, wantText, map[string]string{sarif: wantSARIF}},
		{"out-format comma list", []string{"--out-format", "sarif:" + sarif + ",text"}, wantText, map[string]string{sarif: wantSARIF}},
		{"format:path, two files", []string{"--format", "json:" + js + ",sarif:" + sarif}, "", map[string]string{sarif: wantSARIF, js: wantJSON}},
		{"one --output", []string{"--format", "json", "--output", js}, "", map[string]string{js: wantJSON}},
		{"default format to a file", []string{"--output", js}, "", map[string]string{js: wantText}},
		{"stdout spelled out", []string{"--format", "json:stdout"}, wantJSON, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for p := range tc.files {
				os.Remove(p)
			}
			code, out, errOut := runLintCmd(t, append(tc.args, legacyFixture)...)
			if code != exitFindings || out != tc.out {
				t.Errorf("exit %d, stdout\n%s\nwant\n%s%s", code, out, tc.out, errOut)
			}
			for p, want := range tc.files {
				if got := readFile(t, p); got != want {
					t.Errorf("%s:\n%s\nwant\n%s", p, got, want)
				}
			}
		})
	}

	// stderr as a destination.
	var out, errb bytes.Buffer
	run([]string{"lint", "--format", "json:stderr", legacyFixture}, &out, &errb)
	if out.Len() != 0 || errb.String() != wantJSON {
		t.Errorf("json:stderr: stdout %q, stderr\n%s", out.String(), errb.String())
	}

	// Files are replaced through edit.WriteFileAtomic: never through a symlink.
	link := filepath.Join(dir, "link.sarif")
	if err := os.Symlink(filepath.Join(dir, "target"), link); err != nil {
		t.Skip(err)
	}
	if code, _, errOut := runLintCmd(t, "--format", "sarif:"+link, legacyFixture); code != exitUsage || !strings.Contains(errOut, "symlink") {
		t.Errorf("output through a symlink: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "target")); err == nil {
		t.Errorf("wrote through the symlink")
	}
}

func TestLintOutputUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--format", "text", "--format", "sarif", "--output", "a"}, // counts differ
		{"--format", "sarif:a.sarif", "--output", "b.sarif"},       // both ways
		{"--format", "json:" + dir + "/x,sarif:" + dir + "/x"},     // one file twice
		{"--format", "text,yaml"},                                  // unknown format
		{"--format", "json:"},                                      // empty path
		{"--format", "json", "--output", dir},                      // a directory
		{"--color", "sometimes"},                                   // bad --color
	} {
		if code, out, errOut := runLintCmd(t, append(args, legacyFixture)...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, code, out, errOut)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a refused run wrote %v", ents)
	}
}

// The colour matrix: --color and the environment, through colorprofile.
// TTY_FORCE=1 makes colorprofile treat the writer as a terminal.
func TestUseColor(t *testing.T) {
	var buf bytes.Buffer
	tty := []string{"TTY_FORCE=1", "TERM=xterm-256color"}
	for _, tc := range []struct {
		mode string
		env  []string
		file bool // the output is a file (no writer)
		want bool
	}{
		{"auto", tty, false, true},
		{"auto", []string{"TERM=xterm-256color"}, false, false}, // not a terminal
		{"auto", []string{"TTY_FORCE=1", "TERM=dumb"}, false, false},
		{"auto", []string{"TTY_FORCE=1"}, false, false}, // TERM unset
		{"auto", append(tty, "NO_COLOR=1"), false, false},
		{"auto", append(tty, "NO_COLOR=yes"), false, false}, // any non-empty value
		{"auto", append(tty, "NO_COLOR=0"), false, false},
		{"auto", append(tty, "NO_COLOR="), false, true}, // empty: ignored
		{"auto", tty, true, false},                      // a file
		{"always", []string{"TERM=dumb", "NO_COLOR=1"}, false, true},
		{"always", nil, true, true},
		{"never", tty, false, false},
	} {
		var w *bytes.Buffer
		if !tc.file {
			w = &buf
		}
		var got bool
		if w == nil {
			got = useColor(nil, tc.mode, tc.env)
		} else {
			got = useColor(w, tc.mode, tc.env)
		}
		if got != tc.want {
			t.Errorf("--color %s, env %v, file %v: colour %v, want %v", tc.mode, tc.env, tc.file, got, tc.want)
		}
	}
}

func TestLintColorFlag(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for mode, want := range map[string]bool{"always": true, "never": false, "auto": false} {
		_, out, _ := runLintCmd(t, "--color", mode, legacyFixture)
		if got := strings.ContainsRune(out, 0x1b); got != want {
			t.Errorf("--color %s to a buffer: colour %v, want %v", mode, got, want)
		}
	}
	// Colour is only for text: json stays plain with --color always.
	_, out, _ := runLintCmd(t, "--color", "always", "--format", "json", legacyFixture)
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("colour in json output")
	}
}
