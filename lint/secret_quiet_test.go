package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// secretReports walks d's strings with or without the table of quiet
// strings and returns every report, in order.
func secretReports(d *compile.Doc, quiet bool) []string {
	var out []string
	w := secretWalker{report: func(ptr string, class present.KeyClass, det present.Detection, secret string) {
		out = append(out, fmt.Sprintf("%s %d %+v %q", ptr, class, det, secret))
	}}
	if quiet {
		w.quiet = new(quietStrings)
	}
	w.walk(d.Root, "", present.KeyNeutral)
	return out
}

// A string quiet under one key class is still judged under another; a
// detection is reported at every pointer it repeats at.
func TestQuietStringsClasses(t *testing.T) {
	const lit = "Zq8xPw3rTk7" // a password under "password", nothing under "note"
	src := `{"note": "` + lit + `", "password": "` + lit + `", "list": ["` + lit + `", "` + lit + `"],
		"p2": {"password": "` + lit + `"}, "a": "` + fakeGH + `", "b": {"c": "` + fakeGH + `"}, "description": "` + lit + `"}`
	d := compile.ParseDoc("x.json", []byte(src))
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	got := secretReports(d, true)
	if want := secretReports(d, false); !reflect.DeepEqual(got, want) {
		t.Fatalf("with the table %q\nwithout %q", got, want)
	}
	if len(got) != 4 {
		t.Fatalf("%d reports, want 4 (two passwords, the token twice): %q", len(got), got)
	}
}

// Every corpus flow, and a document holding each value of the labelled
// sample set several times under keys of every class, report exactly
// what they report without the table.
func TestQuietStringsSameReports(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	hits := 0
	for _, slug := range slugs {
		src, err := os.ReadFile(filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
		if err != nil {
			t.Fatal(err)
		}
		d := compile.ParseDoc("oas.json", src)
		if got, want := secretReports(d, true), secretReports(d, false); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with the table %q\nwithout %q", slug, got, want)
		}
		hits++
	}
	var items []any
	for i, r := range secLoadGitleaks(t) {
		if i%race.Stride(8) != 0 {
			continue
		}
		v := r.Value
		items = append(items, map[string]any{"note": v, "api_key": v, "password": v, "description": v, "node_id": v,
			"list": []string{v, v}, "header": map[string]string{"name": "Authorization", "value": v},
			"again": map[string]any{"note": v, "api_key": v, "name": v}})
	}
	src, err := json.Marshal(map[string]any{"samples": items, "repeat": items})
	if err != nil {
		t.Fatal(err)
	}
	d := compile.ParseDoc("samples.json", src)
	got, want := secretReports(d, true), secretReports(d, false)
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("report %d: with the table %s\nwithout %s", i, got[i], want[i])
			}
		}
		t.Fatalf("%d reports with the table, %d without", len(got), len(want))
	}
	if len(items) < 500/race.Stride(8) || len(want) < 1000/race.Stride(8) || hits != testshared.CorpusAgentCount {
		t.Errorf("%d samples, %d reports, %d flows: the test does not exercise the scan", len(items), len(want), hits)
	}
}
