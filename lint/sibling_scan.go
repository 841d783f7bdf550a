package lint

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint/secrets"
)

// The sibling-file scan (reference cinatra.md §2, last paragraph): every
// text file of the package directory except the flow file is searched for
// literal credentials; .env files are forbidden; files over 1 MiB are not
// scanned and say so.

var (
	RuleLiteralCredentialInSiblingFile = &Rule{Code: "literal_credential_in_sibling_file", Severity: compile.Blocker, Group: "package", Tags: []string{"security"},
		Doc: "a file of the agent package holds a literal credential; packages are published, so move it to the platform's secret store"}
	RulePackageEnvFileForbidden = &Rule{Code: "package_env_file_forbidden", Severity: compile.Blocker, Group: "package", Tags: []string{"security"},
		Doc: "an .env file is part of the agent package; only .env.example/.env.sample/.env.template may be shipped"}
	RulePackageFileTooLargeToScan = &Rule{Code: "package_file_too_large_to_scan", Severity: compile.Warning, Group: "package", Tags: []string{"security"},
		Doc: "a package file is larger than 1 MiB (or the package has too many files) and was not scanned for credentials"}
)

var passSiblingFiles = &Check{
	Name:     "sibling-files",
	Profiles: []compile.Profile{compile.ProfileCinatra, compile.ProfileAgentSpec},
	Run: func(p *Pass) {
		if p.Agent.Dir != "" {
			for _, f := range ScanSiblingFiles(p.Agent) {
				p.ReportFinding(f)
			}
		}
	},
}

// Limits of the sibling scan.
const (
	SiblingMaxFileBytes  = 1 << 20 // reference: files over 1,048,576 bytes are not scanned
	siblingMaxFiles      = 2000    // files looked at per package
	siblingMaxTotalBytes = 32 << 20
	siblingMaxDepth      = 16
	siblingMaxPerFile    = 20 // findings reported per file
)

var siblingSkipDirs = secSet("node_modules", ".git", ".hg", ".svn", "dist", "build", "out", ".next", ".turbo",
	".cache", ".pnpm", "coverage", "__pycache__", ".pytest_cache", ".mypy_cache", ".venv", "venv")

var siblingBinaryExt = secSet(".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".bmp", ".tif", ".tiff", ".pdf",
	".zip", ".gz", ".tgz", ".tar", ".bz2", ".xz", ".7z", ".rar", ".jar", ".war", ".woff", ".woff2", ".ttf",
	".otf", ".eot", ".mp3", ".mp4", ".mov", ".avi", ".wav", ".ogg", ".webm", ".flac", ".so", ".dylib", ".dll",
	".exe", ".bin", ".class", ".o", ".a", ".wasm", ".pyc", ".sqlite", ".db", ".lockb", ".p12", ".pfx", ".der")

var siblingLockfiles = secSet("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock")

// secSet is a set of strings (the detector's own moved to lint/secrets).
func secSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// siblingEnvForbidden: .env, .env.local, .env.production … but not the
// documented templates.
func siblingEnvForbidden(base string) bool {
	if base != ".env" && !strings.HasPrefix(base, ".env.") {
		return false
	}
	for _, ok := range []string{".example", ".sample", ".template"} {
		if strings.HasSuffix(base, ok) {
			return false
		}
	}
	return true
}

// ScanSiblingFiles scans the package directory of a (the flow file itself
// and cinatra/oas.json, cinatra/agent.json excluded) and returns its
// findings in alphabetical file order.
func ScanSiblingFiles(a *compile.Agent) []Finding {
	if a == nil || a.Dir == "" {
		return nil
	}
	flowPath := filepath.Clean(a.FlowPath)
	var files []string
	tooMany := false
	var walk func(dir, rel string, depth int)
	walk = func(dir, rel string, depth int) {
		if depth > siblingMaxDepth || tooMany {
			return
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents { // ReadDir sorts by name
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() {
				if !siblingSkipDirs[name] {
					walk(filepath.Join(dir, name), r, depth+1)
				}
				continue
			}
			if !e.Type().IsRegular() {
				continue
			}
			if r == "cinatra/oas.json" || r == "cinatra/agent.json" {
				continue
			}
			if len(files) >= siblingMaxFiles {
				tooMany = true
				return
			}
			files = append(files, r)
		}
	}
	walk(a.Dir, "", 0)
	sort.Strings(files)

	var out []Finding
	total := 0
	for _, rel := range files {
		path := filepath.Join(a.Dir, filepath.FromSlash(rel))
		if path == flowPath || secSameFile(path, a.FlowPath) {
			continue
		}
		base := filepath.Base(rel)
		if siblingEnvForbidden(base) {
			out = append(out, Finding{Code: "package_env_file_forbidden", Severity: compile.Blocker,
				Message: fmt.Sprintf("%s is an environment file; packages must not ship .env files (use .env.example with placeholders)", rel),
				Source:  compile.SourceDeterministic, File: path, Line: 1, Column: 1})
		}
		if siblingBinaryExt[strings.ToLower(filepath.Ext(base))] {
			continue
		}
		st, err := os.Lstat(path)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if st.Size() > SiblingMaxFileBytes {
			out = append(out, Finding{Code: "package_file_too_large_to_scan", Severity: compile.Warning,
				Message: fmt.Sprintf("%s is %d bytes, over the %d-byte limit; it was not scanned for credentials", rel, st.Size(), SiblingMaxFileBytes),
				Source:  compile.SourceDeterministic, File: path, Line: 1, Column: 1})
			continue
		}
		if total+int(st.Size()) > siblingMaxTotalBytes {
			tooMany = true
			break
		}
		src, err := siblingRead(a, rel, path)
		if err != nil {
			continue
		}
		total += len(src)
		if bytes.IndexByte(src[:min(len(src), 8192)], 0) >= 0 {
			continue // binary
		}
		var parsed *compile.Doc
		switch {
		case rel == "package.json" && a.Package != nil && a.Package.Root != nil:
			parsed = a.Package
		case rel == "cinatra.json" && a.CinatraJSON != nil && a.CinatraJSON.Root != nil:
			parsed = a.CinatraJSON
		}
		out = append(out, scanSiblingContent(rel, path, src, parsed, siblingLockfiles[base])...)
	}
	if tooMany {
		out = append(out, Finding{Code: "package_file_too_large_to_scan", Severity: compile.Warning,
			Message: fmt.Sprintf("the package has more than %d files or %d bytes; the rest were not scanned for credentials", siblingMaxFiles, siblingMaxTotalBytes),
			Source:  compile.SourceDeterministic, File: a.Dir, Line: 1, Column: 1})
	}
	return out
}

// secSameFile: the flow file given with a different spelling of its path
// (relative vs absolute); only stat'ed when the base names agree.
func secSameFile(path, flow string) bool {
	if filepath.Base(path) != filepath.Base(flow) {
		return false
	}
	a, err1 := os.Stat(path)
	b, err2 := os.Stat(flow)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// siblingRead reuses the bytes the loader already read.
func siblingRead(a *compile.Agent, rel, path string) ([]byte, error) {
	switch {
	case rel == "package.json" && a.Package != nil && a.Package.Src != nil:
		return a.Package.Src, nil
	case rel == "cinatra.json" && a.CinatraJSON != nil && a.CinatraJSON.Src != nil:
		return a.CinatraJSON.Src, nil
	}
	return os.ReadFile(path)
}

// scanSiblingContent scans one file: JSON files by structure (key-aware,
// finding located by JSON Pointer), anything else line by line.
func scanSiblingContent(rel, path string, src []byte, d *compile.Doc, lockfile bool) []Finding {
	var out []Finding
	if strings.HasSuffix(rel, ".json") && !lockfile {
		if d == nil {
			d = compile.ParseDoc(path, src)
		}
		if d.Root != nil {
			w := secretWalker{report: func(ptr string, class secrets.KeyClass, det secrets.Detection) {
				// descriptive fields only report strong detections (the
				// walker filters); a provider token in package.json's
				// description is published with the package, so it is a
				// blocker here as in the reference's line scan
				if len(out) >= siblingMaxPerFile {
					return
				}
				line, col := d.PointerPosition(ptr)
				col += siblingSecretColumn(d, ptr, det)
				out = append(out, Finding{Code: "literal_credential_in_sibling_file", Severity: compile.Blocker,
					Message:  fmt.Sprintf("literal credential detected in %s:%d: pattern=%s, value %s", rel, line, det.Family, det.Masked),
					Location: ptr, Source: compile.SourceDeterministic, File: path, Line: line, Column: col})
			}}
			w.walk(d.Root, "", secrets.KeyNeutral)
			return out
		}
	}
	lineNo := 0
	for len(src) > 0 && len(out) < siblingMaxPerFile {
		lineNo++
		nl := bytes.IndexByte(src, '\n')
		var line []byte
		if nl < 0 {
			line, src = src, nil
		} else {
			line, src = src[:nl], src[nl+1:]
		}
		if len(line) == 0 {
			continue
		}
		s := strings.TrimRight(string(line), "\r")
		if lockfile && (strings.Contains(s, "integrity") || strings.Contains(s, "sha512-") || strings.Contains(s, "sha1-")) {
			continue
		}
		key, off, val := secrets.SplitAssignment(s)
		det, ok := secrets.Detect(key, val)
		if !ok {
			continue
		}
		if secrets.ClassifyKey(key) == secrets.KeyDescriptive && !det.Strong {
			continue
		}
		col := utf8.RuneCountInString(s[:off+det.Start]) + 1
		out = append(out, Finding{Code: "literal_credential_in_sibling_file", Severity: compile.Blocker,
			Message: fmt.Sprintf("literal credential detected in %s:%d: pattern=%s, value %s", rel, lineNo, det.Family, det.Masked),
			Source:  compile.SourceDeterministic, File: path, Line: lineNo, Column: col})
	}
	return out
}

// siblingSecretColumn is how many characters after the string's opening
// quote the secret starts, when the source spells the string without
// escapes up to it (then the decoded and the raw text agree); 0 otherwise,
// which leaves the position at the string.
func siblingSecretColumn(d *compile.Doc, ptr string, det secrets.Detection) int {
	n := d.Lookup(ptr)
	if n == nil || n.Kind != compile.String || det.Start < 0 || det.Start > len(n.Text) {
		return 0
	}
	off := n.Offset + 1
	if off+det.Start > len(d.Src) || string(d.Src[off:off+det.Start]) != n.Text[:det.Start] {
		return 0
	}
	if strings.ContainsAny(n.Text[:det.Start], "\n") {
		return 0
	}
	return utf8.RuneCountInString(n.Text[:det.Start]) + 1
}
