package compile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePkg writes files (relative path → content) under
// <tmp>/agents/acme/pkg and returns the package directory.
func writePkg(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "agents", "acme", "pkg")
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func codes(fs []Finding, code string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

const okFlow = `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}}}`

// TestPackageJSONInvalid: issue 11 item 7. A package.json that is not an
// object, or whose name/version/license or dependency maps have the wrong
// type, is a positioned blocker; readers then see the field as absent and
// nothing crashes.
func TestPackageJSONInvalid(t *testing.T) {
	for _, tc := range []struct {
		pkg, msg  string
		line, col int
	}{
		{`[{"name":"x"}]`, "package.json must be a JSON object with the package's name, version and license; this one is an array", 1, 1},
		{`"@acme/pkg"`, "this one is a string", 1, 1},
		{"\n  null", "this one is null", 2, 3},
		{"{\n  \"name\": 12,\n  \"version\": \"1.0.0\"\n}", `package.json "name" must be a string, not a number`, 2, 11},
		{`{"name":"@acme/pkg","version":1.5}`, `package.json "version" must be a string, not a number`, 1, 31},
		{`{"name":"@acme/pkg","license":null}`, `package.json "license" must be a string, not null`, 1, 31},
		{`{"name":"@acme/pkg","dependencies":["a"]}`, `package.json "dependencies" must be an object of package names to version ranges, not an array`, 1, 36},
		{`{"name":"@acme/pkg","peerDependencies":"x"}`, `"peerDependencies" must be an object`, 1, 40},
		{`{"name":"@acme/pkg","devDependencies":true}`, `"devDependencies" must be an object of package names to version ranges, not a boolean`, 1, 39},
	} {
		dir := writePkg(t, map[string]string{"package.json": tc.pkg, "cinatra/oas.json": okFlow})
		a, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := codes(a.Findings, "package_json_invalid")
		if len(got) != 1 || !strings.Contains(got[0].Message, tc.msg) || got[0].Severity != Blocker ||
			got[0].Line != tc.line || got[0].Column != tc.col || got[0].File != filepath.Join(dir, "package.json") {
			t.Errorf("%s: package_json_invalid = %+v, want %q at %d:%d", tc.pkg, got, tc.msg, tc.line, tc.col)
		}
		if a.Profile != ProfileCinatra {
			t.Errorf("%s: profile %q", tc.pkg, a.Profile)
		}
		if strings.Contains(tc.pkg, "12") && a.PackageName() != "" {
			t.Errorf("a numeric name is read as %q", a.PackageName())
		}
		_ = a.Dependencies()
		if _, err := Compile(a); err != nil && strings.Contains(err.Error(), "panic") {
			t.Errorf("%s: compile: %v", tc.pkg, err)
		}
	}
	// a well-typed package.json raises nothing
	dir := writePkg(t, map[string]string{"package.json": `{"name":"@acme/pkg","version":"1.0.0","license":"MIT","dependencies":{},"peerDependencies":{},"devDependencies":{}}`, "cinatra/oas.json": okFlow})
	a, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(a.Findings, "package_json_invalid"); len(got) != 0 {
		t.Errorf("valid package.json: %+v", got)
	}
}

// TestDuplicateKeyFindings: issue 11 item 8. A key given twice is reported
// at its second occurrence, blocker in the cinatra profile and warning in
// the agentspec one; the value kept is the last (JSON.parse semantics).
func TestDuplicateKeyFindings(t *testing.T) {
	flow := "{\n  \"id\": \"first\",\n  \"component_type\": \"Flow\",\n  \"id\": \"second\"\n}"
	dir := writePkg(t, map[string]string{"package.json": `{"name":"@acme/pkg","version":"1.0.0","version":"2.0.0"}`, "cinatra/oas.json": flow})
	a, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := codes(a.Findings, "duplicate_key")
	want := []Finding{
		{Code: "duplicate_key", Severity: Blocker, Message: `duplicate key "id" in this object (JSON.parse keeps the last one; the first at 2:3 is ignored)`,
			Location: "/id", Source: SourceDeterministic, File: filepath.Join(dir, "cinatra", "oas.json"), Line: 4, Column: 3,
			EndLine: 4, EndColumn: 7, Start: 49, End: 53}, // the repeated key, quotes included
		{Code: "duplicate_key", Severity: Blocker, Message: `duplicate key "version" in this object (JSON.parse keeps the last one; the first at 1:21 is ignored)`,
			Location: "/version", Source: SourceDeterministic, File: filepath.Join(dir, "package.json"), Line: 1, Column: 39,
			EndLine: 1, EndColumn: 48, Start: 38, End: 47},
	}
	if len(got) != len(want) {
		t.Fatalf("duplicate_key findings = %+v", got)
	}
	for i := range want {
		if !sameFinding(got[i], want[i]) {
			t.Errorf("finding %d = %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if a.Flow.Root.Get("id").Text != "second" {
		t.Error("the last duplicate must win")
	}

	// a bare Agent Spec flow: warning; nested objects and YAML too
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(`{"component_type":"Flow","inputs":[{"title":"a","title":"b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err = Load(p, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(a.Findings, "duplicate_key"); len(got) != 1 || got[0].Severity != Warning || got[0].Location != "/inputs/0/title" || got[0].Column != 49 {
		t.Errorf("agentspec duplicate = %+v", got)
	}
	y := filepath.Join(t.TempDir(), "flow.yaml")
	if err := os.WriteFile(y, []byte("component_type: Flow\nname: a\nmetadata:\n  x: 1\n  x: 2\nname: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err = Load(y, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got = codes(a.Findings, "duplicate_key")
	if len(got) != 2 || got[0].Line != 5 || got[0].Column != 3 || got[1].Line != 6 || got[1].Column != 1 ||
		got[0].Message != `duplicate key "x" in this object (the last one is kept; the first at 4:3 is ignored)` || a.Flow.Root.Get("name").Text != "b" {
		t.Errorf("YAML duplicates = %+v", got)
	}

	// no duplicates, no finding
	if fs := DuplicateKeyFindings(ParseDoc("x.json", []byte(`{"a":{"a":1},"b":[{"a":1},{"a":2}]}`)), ProfileCinatra); len(fs) != 0 {
		t.Errorf("false duplicates: %+v", fs)
	}
}

// FuzzDuplicateKeys: the duplicates recorded by the parser are exactly
// the repeated keys of each object (small ones scanned, large ones
// indexed), each at a key's opening quote, and Get returns the last value.
func FuzzDuplicateKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2},"a":3,"a":4}`, `[{"x":1},{"x":1}]`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k3":"last","k3":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d := ParseDoc("x.json", src)
		if d.Root == nil {
			return
		}
		want := 0
		WalkNodes(d.Root, func(n *Node) bool {
			seen := map[string]bool{}
			for i, m := range n.Members {
				if seen[m.Key] {
					want++
				}
				seen[m.Key] = true
				if last := n.Get(m.Key); last == nil {
					t.Fatalf("Get(%q) = nil", m.Key)
				} else {
					for _, later := range n.Members[i+1:] {
						if later.Key == m.Key && later.Value != last && later.Value == n.Members[len(n.Members)-1].Value {
							t.Fatalf("Get(%q) is not the last", m.Key)
						}
					}
				}
			}
			return true
		})
		if len(d.Duplicates) != want {
			t.Fatalf("%d duplicates recorded, want %d", len(d.Duplicates), want)
		}
		for _, k := range d.Duplicates {
			if k.Offset <= k.First || src[k.Offset] != '"' || src[k.First] != '"' {
				t.Fatalf("bad duplicate %+v", k)
			}
			// (the pointer may not resolve: a duplicate inside a shadowed
			// value has no JSON Pointer of its own)
			if l, c := d.Position(k.Offset); l < 1 || c < 1 || !strings.HasSuffix(k.Pointer(), "/"+EscapePointerToken(k.Key)) {
				t.Fatalf("bad position or pointer of %+v", k)
			}
		}
	})
}
