package lint

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// The sibling-file scan (reference cinatra.md §2, last paragraph): every
// text file of the package directory except the flow file is searched for
// literal credentials; .env files are forbidden; files over 1 MiB are not
// scanned and say so.

var (
	RuleLiteralCredentialInSiblingFile = &Rule{Code: "literal_credential_in_sibling_file", Severity: compile.Blocker, Group: "package", Tags: []string{"security"}, Secret: true,
		Fix: "move the credential to the platform's secret store, remove it from the file, and rotate it",
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

// Limits of the sibling scan: the walk and the reads happen in loading
// (compile.Agent.Siblings), with compile's limits.
const (
	SiblingMaxFileBytes = compile.SiblingMaxFileBytes // reference: files over 1,048,576 bytes are not scanned
	siblingMaxPerFile   = 20                          // findings reported per file
)

// ScanSiblingFiles scans the package files loading read (a.Siblings: the
// flow file itself and cinatra/oas.json, cinatra/agent.json excluded) and
// returns its findings in alphabetical file order. It touches no file.
func ScanSiblingFiles(a *compile.Agent) []Finding {
	if a == nil || a.Dir == "" || a.Siblings == nil {
		return nil
	}
	var out []Finding
	for _, f := range a.Siblings.Files {
		if compile.SiblingEnvForbidden(filepath.Base(f.Rel)) {
			out = append(out, Finding{Code: RulePackageEnvFileForbidden.Code, Severity: RulePackageEnvFileForbidden.Severity,
				Message: fmt.Sprintf("%s is an environment file; packages must not ship .env files (use .env.example with placeholders)", f.Rel),
				Source:  compile.SourceDeterministic, File: f.Path, Line: 1, Column: 1})
		}
		switch f.Skipped {
		case compile.SiblingTooLarge:
			out = append(out, Finding{Code: RulePackageFileTooLargeToScan.Code, Severity: RulePackageFileTooLargeToScan.Severity,
				Message: fmt.Sprintf("%s is %d bytes, over the %d-byte limit; it was not scanned for credentials", f.Rel, f.Size, SiblingMaxFileBytes),
				Source:  compile.SourceDeterministic, File: f.Path, Line: 1, Column: 1})
			continue
		case "":
		default:
			continue
		}
		src := f.Data
		if bytes.IndexByte(src[:min(len(src), 8192)], 0) >= 0 {
			continue // binary
		}
		var parsed *compile.Doc
		switch {
		case f.Rel == "package.json" && a.Package != nil && a.Package.Root != nil:
			parsed = a.Package
		case f.Rel == "cinatra.json" && a.CinatraJSON != nil && a.CinatraJSON.Root != nil:
			parsed = a.CinatraJSON
		}
		out = append(out, scanSiblingContent(f.Rel, f.Path, src, parsed, f.Lockfile)...)
	}
	if a.Siblings.Truncated {
		out = append(out, Finding{Code: RulePackageFileTooLargeToScan.Code, Severity: RulePackageFileTooLargeToScan.Severity,
			Message: fmt.Sprintf("the package has more than %d files or %d bytes; the rest were not scanned for credentials", compile.SiblingMaxFiles, compile.SiblingMaxTotalBytes),
			Source:  compile.SourceDeterministic, File: a.Dir, Line: 1, Column: 1})
	}
	return out
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
			w := secretWalker{report: func(ptr string, class present.KeyClass, det present.Detection, secret string) {
				// descriptive fields only report strong detections (the
				// walker filters); a provider token in package.json's
				// description is published with the package, so it is a
				// blocker here as in the reference's line scan
				if len(out) >= siblingMaxPerFile {
					return
				}
				line, col := d.PointerPosition(ptr)
				col += siblingSecretColumn(d, ptr, det)
				endLine, endCol := siblingSecretEnd(d, ptr, det)
				f := Finding{Code: RuleLiteralCredentialInSiblingFile.Code, Severity: RuleLiteralCredentialInSiblingFile.Severity,
					Message:  fmt.Sprintf("literal credential detected in %s:%d: pattern=%s, value %s", rel, line, det.Family, det.Masked),
					Location: ptr, Source: compile.SourceDeterministic, File: path, Line: line, Column: col,
					ValueHash: compile.HashValue(secret)}
				d.SetSpan(&f, d.Offset(line, col), d.Offset(endLine, endCol)) // the secret inside the string
				out = append(out, f)
			}}
			w.classes = classPool.Get().(*keyClasses) // lent, as to scanDocSecrets: a table (12 KiB) a package.json otherwise
			w.walk(d.Root, "", present.KeyNeutral)
			classPool.Put(w.classes)
			return out
		}
	}
	lineNo, next := 0, 0 // next: the offset of the line after this one
	for len(src) > 0 && len(out) < siblingMaxPerFile {
		lineNo++
		lineStart := next
		nl := bytes.IndexByte(src, '\n')
		var line []byte
		if nl < 0 {
			line, src = src, nil
			next += len(line)
		} else {
			line, src = src[:nl], src[nl+1:]
			next += nl + 1
		}
		if len(line) == 0 {
			continue
		}
		s := strings.TrimRight(string(line), "\r")
		if lockfile && (strings.Contains(s, "integrity") || strings.Contains(s, "sha512-") || strings.Contains(s, "sha1-")) {
			continue
		}
		key, off, val := present.SplitAssignment(s)
		det, ok := present.Detect(key, val)
		if !ok {
			continue
		}
		if present.ClassifyKey(key) == present.KeyDescriptive && !det.Strong {
			continue
		}
		col := utf8.RuneCountInString(s[:off+det.Start]) + 1
		end := off + len(val) // the value, when the detection names no span of it (secretOf)
		if det.Start >= 0 && det.Start < det.End && det.End <= len(val) {
			end = off + det.End
		}
		out = append(out, Finding{Code: RuleLiteralCredentialInSiblingFile.Code, Severity: RuleLiteralCredentialInSiblingFile.Severity,
			Message: fmt.Sprintf("literal credential detected in %s:%d: pattern=%s, value %s", rel, lineNo, det.Family, det.Masked),
			Source:  compile.SourceDeterministic, File: path, Line: lineNo, Column: col,
			EndLine: lineNo, EndColumn: utf8.RuneCountInString(s[:min(end, len(s))]) + 1,
			Start: lineStart + off + max(det.Start, 0), End: lineStart + min(end, len(s)),
			ValueHash: compile.HashValue(secretOf(val, det))})
	}
	return out
}

// siblingSecretEnd is where the secret of a JSON sibling file ends: just
// after it when the source spells the string without escapes up to its
// end (then the decoded and the raw text agree), else the end of the
// string value; 0, 0 when the pointer names no string.
func siblingSecretEnd(d *compile.Doc, ptr string, det present.Detection) (line, col int) {
	n := d.Lookup(ptr)
	if n == nil || n.Kind != compile.String || n.Offset < 0 {
		return 0, 0
	}
	end := d.ValueEnd(n)
	if off := n.Offset + 1; det.Start >= 0 && det.Start < det.End && det.End <= len(n.Text) && off+det.End <= len(d.Src) &&
		string(d.Src[off:off+det.End]) == n.Text[:det.End] && !strings.Contains(n.Text[:det.End], "\n") {
		end = off + det.End
	}
	return d.Position(end)
}

// siblingSecretColumn is how many characters after the string's opening
// quote the secret starts, when the source spells the string without
// escapes up to it (then the decoded and the raw text agree); 0 otherwise,
// which leaves the position at the string.
func siblingSecretColumn(d *compile.Doc, ptr string, det present.Detection) int {
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
