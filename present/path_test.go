package present

import (
	"strings"
	"testing"
)

// pathWraps put a token where a path, a JSON Pointer or a URL holds it.
var pathWraps = []string{"/x/%s/y", "/x/%s", "a/%s/b", "https://example.com/a/%s/b", "/$referenced_components/%s/id", "see /home/u/%s/oas.json here"}

// TestPathSegments: a secret used as a path segment, a pointer's reference
// token or a URL path segment is masked like the same secret alone (the
// path's separators are token boundaries). Cases the masker missed: a
// high-entropy token (a path is no entropy candidate as a whole) and a
// provider key with a hex body (no key inside a word).
func TestPathSegments(t *testing.T) {
	for _, secret := range []string{
		"3Kof2VffNQ0QgYIhXUPJosVlCaQKm2hfpWE6F1fT9YGY74blQBIPsrkCcf1TwKE5", // high entropy
		"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",                           // provider prefix, hex body
		tok,
	} {
		if Text(secret) == secret {
			t.Fatalf("%s is not masked alone", Mask(secret))
		}
		for _, w := range pathWraps {
			in := strings.Replace(w, "%s", secret, 1)
			if got := Text(in); strings.Contains(got, secret) || !strings.Contains(got, "…") {
				t.Errorf("Text(%q) = %q: the secret is shown", in, got)
			}
		}
	}
	// ordinary paths and URLs stay as they are
	for _, in := range []string{
		"/$referenced_components/llm_node_summarise/outputs/0",
		"https://github.com/cinatra-ai/agents/blob/main/README.md",
		"/work/shared/corpus/cinatra/agents/cinatra-ai/auditor-agent/cinatra/oas.json",
		"https://github.com/x/y/commit/4b825dc642cb6eb9a060e54bf8d69288fbee4904",
	} {
		if got := Text(in); got != in {
			t.Errorf("Text(%q) = %q: an ordinary path is masked", in, got)
		}
	}
}

// TestPathSegmentsSamples: every labelled secret sample the detector finds
// alone is masked in each path wrapping too.
func TestPathSegmentsSamples(t *testing.T) {
	n, shown := 0, 0
	for _, r := range secLoadGitleaks(t) {
		if r.Label != "secret" || r.Value == "" || strings.ContainsAny(r.Value, " \t\n") {
			continue
		}
		if _, ok := Detect("", r.Value); !ok {
			continue
		}
		for _, w := range pathWraps {
			n++
			in := strings.Replace(w, "%s", r.Value, 1)
			if got := Text(in); strings.Contains(got, r.Value) {
				if shown++; shown <= 10 {
					t.Errorf("%s: %q around %s: the secret is shown", r.Rule, w, Mask(r.Value))
				}
			}
		}
	}
	if shown > 0 {
		t.Errorf("%d of %d wrapped samples shown", shown, n)
	}
}

// TestFieldSuffix: a provider key used as a node id followed by one of its
// outputs ("node.output", the dry run's producer) is masked like the key
// alone; a key followed by other text stays judged as before.
func TestFieldSuffix(t *testing.T) {
	const key = "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"
	for _, in := range []string{key + ".changes", "← " + key + ".release_size", "parent: " + key + ".x1"} {
		if got := Text(in); strings.Contains(got, key) {
			t.Errorf("Text(%q) = %q: the key is shown", in, got)
		}
	}
}

// TestPathSegmentsOfWords: a directory named of words and a number (Go's
// t.TempDir, a package slug with a build number) is not masked: the faces
// relativise paths, and a masked directory breaks that.
func TestPathSegmentsOfWords(t *testing.T) {
	for _, in := range []string{
		"/tmp/TestHistoryblog-linkedin-publish-agent3921187465/001/agents/cinatra-ai/blog-linkedin-publish-agent/cinatra/oas.json",
		"/home/ci/builds/release-notes-agent-build-20261127-104455/cinatra/oas.json",
	} {
		if got := Text(in); got != in {
			t.Errorf("Text(%q) = %q", in, got)
		}
	}
}
