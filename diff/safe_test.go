package diff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testgit"
)

// secretPair writes an agent pair (old, new) in which secrets are rotated:
// a labelled one inside the system prompt and a gate description, an
// input named password's default, package.json's cinatra.secretToken and
// a top-level apiKey.
func secretPair(t *testing.T) (old, new string) {
	t.Helper()
	base := t.TempDir()
	src := filepath.Join("testdata", "checks", "diff_input_default_changed", "old")
	for side, secret := range map[string]string{"old": "Zq8x!mP2#vL9wR4t", "new": "Rt5v@kW9$hB2xN7q"} {
		dir := filepath.Join(base, side)
		testgit.CopyTree(t, src, dir)
		flow := filepath.Join(dir, "cinatra", "oas.json")
		b, err := os.ReadFile(flow)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.NewReplacer(
			`"title": "audience"`, `"title": "password"`,
			`"default": "everyone"`, `"default": "`+secret+`"`,
			"Cite the sources you used.", "The admin password: "+secret+" is needed to log in.",
			"Review the generated summary before it is returned.", "Review it. The admin password: "+secret,
		).Replace(string(b))
		if err := os.WriteFile(flow, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		pkg := filepath.Join(dir, "package.json")
		b, err = os.ReadFile(pkg)
		if err != nil {
			t.Fatal(err)
		}
		tok := strings.NewReplacer("!", "", "#", "", "@", "", "$", "").Replace(secret)
		s = strings.Replace(string(b), `"displayName": "Topic Summariser"`, `"displayName": "Topic Summariser", "secretToken": "tok_`+tok+`"`, 1)
		s = strings.Replace(s, `"cinatra": {`, `"apiKey": "key_`+tok+`", "cinatra": {`, 1)
		if err := os.WriteFile(pkg, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(base, "old"), filepath.Join(base, "new")
}

// TestDiffMasksSecrets (issue 35, points 6 and 7): a rotated secret that
// its label makes one, inside a prompt or a description, is masked as a
// whole statement in the word diff; the values of secret-named keys are
// masked as lint masks them; on every format.
func TestDiffMasksSecrets(t *testing.T) {
	old, new := secretPair(t)
	r := diffDirs(t, old, new)
	checks := map[string]bool{}
	for _, c := range r.Changes {
		checks[c.Check] = true
	}
	for _, want := range []string{"diff_prompt_changed", "diff_description_changed", "diff_input_default_changed", "diff_manifest_changed"} {
		if !checks[want] {
			t.Errorf("no %s: the fixture does not rotate what it should (%v)", want, checks)
		}
	}
	var outs [4]bytes.Buffer
	if err := json.NewEncoder(&outs[0]).Encode(r); err != nil {
		t.Fatal(err)
	}
	_ = Text(&outs[1], r, "", false)
	_ = Markdown(&outs[2], r, "")
	_ = GitHub(&outs[3], r, "")
	for i, b := range outs {
		for _, piece := range []string{"mP2#vL9wR4t", "kW9$hB2xN7q", "mP2vL9wR4t", "kW9hB2xN7q", "vL9wR4t", "hB2xN7q"} {
			if strings.Contains(b.String(), piece) {
				t.Errorf("format %d shows %q:\n%s", i, piece, b.String())
				break
			}
		}
	}
}
