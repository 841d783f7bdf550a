package main

// Input and output handling of `oastui lint`: stdin (`lint -`,
// --stdin-filename), several --format/--output pairs written atomically,
// and colour (--color, through colorprofile). The filtering of findings
// (config, ignores, baselines) lives in lint.go.

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/pflag"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/report"
)

// stdinName is the file name of a flow read from stdin without
// --stdin-filename.
const stdinName = "<stdin>"

// ioFlags are lint's input/output flags.
type ioFlags struct {
	formats       formatList // --format (repeatable, comma lists, name[:path]); alias --out-format
	outputs       []string   // --output, paired in order with the formats
	stdinFilename string     // --stdin-filename
	color         string     // --color auto|always|never
}

func addIOFlags(f *pflag.FlagSet, fl *ioFlags) {
	f.Var(&fl.formats, "format", "output format: "+strings.Join(report.Names(), "|")+
		"; repeat it or give a comma list for several outputs, each FORMAT or FORMAT:PATH (default text)")
	f.Var(&fl.formats, "out-format", "the same as --format (golangci-lint's spelling: --out-format sarif:out.sarif,text)")
	f.StringArrayVar(&fl.outputs, "output", nil, "write the output to this file instead of stdout (- or stdout: stdout, stderr: stderr); repeat it, once per --format, in the same order")
	f.StringVarP(&fl.stdinFilename, "stdin-filename", "", "", "with PATH -: the path of the flow read from stdin; its package, registry and config are found around it as for that file on disk")
	f.StringVar(&fl.color, "color", "auto", "colour in text output: auto (a terminal, TERM not dumb, NO_COLOR empty or unset)|always|never")
}

// formatList is the value of --format/--out-format: every value is split
// at commas and appended, so `--format text --format sarif:x` and
// `--format text,sarif:x` are the same.
type formatList []string

func (l *formatList) String() string { return strings.Join(*l, ",") }
func (l *formatList) Type() string   { return "format[:path]" }
func (l *formatList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// lintOutput is one rendering of a run: a format and where it goes.
type lintOutput struct {
	name   string
	format report.Formatter
	path   string // "" stdout, "\x00stderr" stderr, else a file
}

const stderrPath = "\x00stderr"

func (o lintOutput) String() string {
	switch o.path {
	case "":
		return o.name + " to stdout"
	case stderrPath:
		return o.name + " to stderr"
	}
	return o.name + " to " + o.path
}

// lintOutputs resolves --format and --output, following golangci-lint:
// each format is FORMAT or FORMAT:PATH (its v1 --out-format convention,
// `--out-format sarif:out.sarif,text`); without a path a format goes to
// stdout. --output FILE pairs with the formats in order (Spectral's and
// golangci-lint v2's one path per format), so its count must equal theirs
// and it cannot be mixed with FORMAT:PATH. PATH - or stdout is stdout,
// stderr is stderr. Two outputs may not share a file.
func lintOutputs(fl ioFlags) ([]lintOutput, error) {
	specs := []string(fl.formats)
	if len(specs) == 0 {
		specs = []string{"text"}
	}
	if len(fl.outputs) > 0 && len(fl.outputs) != len(specs) {
		return nil, usageErrorf("%d --output for %d --format: give one --output per format, in the same order (or FORMAT:PATH)", len(fl.outputs), len(specs))
	}
	var outs []lintOutput
	files := map[string]bool{}
	for i, spec := range specs {
		name, path, hasPath := strings.Cut(spec, ":")
		if hasPath && len(fl.outputs) > 0 {
			return nil, usageErrorf("--format %s: give the path either as FORMAT:PATH or with --output, not both", spec)
		}
		if len(fl.outputs) > 0 {
			path, hasPath = fl.outputs[i], true
		}
		f, ok := report.Lookup(name)
		if !ok {
			return nil, usageErrorf("--format must be one of %s (got %q)", strings.Join(report.Names(), ", "), name)
		}
		o := lintOutput{name: name, format: f}
		switch {
		case !hasPath || path == "-" || path == "stdout":
		case path == "":
			return nil, usageErrorf("--format %s: empty output path", spec)
		case path == "stderr":
			o.path = stderrPath
		default:
			o.path = path
			key := filepath.Clean(path)
			if abs, err := filepath.Abs(path); err == nil {
				key = abs
			}
			if files[key] {
				return nil, usageErrorf("two outputs write %s", path)
			}
			files[key] = true
			if st, err := os.Stat(path); err == nil && st.IsDir() {
				return nil, usageErrorf("--output %s: is a directory", path)
			}
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// textOnStdoutOnly: the one output is text on stdout (its summary line
// says what a run left out, so stderr need not).
func textOnStdoutOnly(outs []lintOutput) bool {
	return len(outs) == 1 && outs[0].name == "text" && outs[0].path == ""
}

// usesSource: some output needs the parsed files of the findings.
func usesSource(outs []lintOutput) bool {
	for _, o := range outs {
		if report.UsesSource(o.format) {
			return true
		}
	}
	return false
}

// usesTargets reports whether an output reads the report's Targets (the
// agents linted and their counts: text and summary).
func usesTargets(outs []lintOutput) bool {
	for _, o := range outs {
		if report.UsesTargets(o.format) {
			return true
		}
	}
	return false
}

// writeOutputs renders r once per output, in order. Files are written
// atomically (edit.WriteFileAtomic: a reader never sees half a report);
// a file that cannot be written is a usage error (exit 2), naming it.
func writeOutputs(outs []lintOutput, r report.Report, stdout, stderr io.Writer, colorMode string) error {
	env := os.Environ()
	for _, o := range outs {
		var w io.Writer
		switch o.path {
		case "":
			w = stdout
		case stderrPath:
			w = stderr
		}
		r.Color = o.name == "text" && useColor(w, colorMode, env)
		if w != nil {
			if err := report.Write(w, o.format, r); err != nil {
				return internalErrorf("writing %s: %v", o, err)
			}
			continue
		}
		var buf bytes.Buffer
		if err := report.Write(&buf, o.format, r); err != nil {
			return internalErrorf("writing %s: %v", o, err)
		}
		if err := edit.WriteFileAtomic(o.path, buf.Bytes()); err != nil {
			return usageErrorf("--output: %v", err)
		}
	}
	return nil
}

// useColor decides colour for one output (w is nil for a file): never and
// always are what they say; auto asks colorprofile (the detection of the
// Charm stack the TUI uses: a terminal, TERM set and not dumb) and honours
// NO_COLOR whenever it is non-empty (no-color.org: any value, where
// colorprofile only honours the ones strconv.ParseBool calls true); an
// empty NO_COLOR does not disable colour.
func useColor(w io.Writer, mode string, env []string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if w == nil {
		return false
	}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NO_COLOR="); ok && v != "" {
			return false
		}
	}
	return colorprofile.Detect(w, env) >= colorprofile.ANSI
}

func checkColorFlag(mode string) error {
	switch mode {
	case "auto", "always", "never":
		return nil
	}
	return usageErrorf("--color must be auto, always or never (got %q)", mode)
}

// stdinInput is the flow `oastui lint -` read.
type stdinInput struct {
	path string // --stdin-filename, or stdinName
	data []byte
	bare bool // no --stdin-filename: reviewed as a bare flow file
}

// readStdinInput returns the stdin flow when the only PATH is "-", nil for
// ordinary PATHs. At most compile.MaxFileBytes+1 bytes are read: loading
// refuses more with its usual "beyond oastui's limits" finding.
func readStdinInput(args []string, fl ioFlags, stdin io.Reader) (*stdinInput, error) {
	dash := false
	for _, a := range args {
		if a == "-" {
			dash = true
		}
	}
	if !dash {
		if fl.stdinFilename != "" {
			return nil, usageErrorf("--stdin-filename needs the PATH - (oastui lint - --stdin-filename %s)", fl.stdinFilename)
		}
		return nil, nil
	}
	if len(args) != 1 {
		return nil, usageErrorf("PATH - (stdin) cannot be combined with other PATHs")
	}
	in := &stdinInput{path: stdinName, bare: true}
	if p := fl.stdinFilename; p != "" {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml":
		default:
			return nil, usageErrorf("--stdin-filename %s: not a flow file: a flow file is .json, .yaml or .yml", p)
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return nil, usageErrorf("--stdin-filename %s: is a directory", p)
		}
		in.path, in.bare = filepath.Clean(p), false
	}
	if stdin == nil {
		stdin = os.Stdin
	}
	data, err := io.ReadAll(io.LimitReader(stdin, compile.MaxFileBytes+1))
	if err != nil {
		return nil, usageErrorf("reading stdin: %v", err)
	}
	in.data = data
	return in, nil
}

// configStart is where the config search of the stdin flow starts: the
// directory of --stdin-filename (the file need not exist), else the
// working directory.
func (in *stdinInput) configStart() string {
	if in.bare {
		return "."
	}
	return filepath.Dir(in.path)
}

// apply makes the analysis load the stdin bytes in place of the file.
func (in *stdinInput) apply(lo *compile.LoadOptions) {
	lo.Overlay = map[string][]byte{in.path: in.data}
	lo.Bare = in.bare
}
