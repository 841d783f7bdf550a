package diff

import (
	"bytes"
	"strings"
	"testing"
)

// TestMarkdownNeutral (issue 35, point 9): the markdown comment lets no
// @mention, bare URL, www. or e-mail autolink, or ~~strike~~ through: not
// in the table, the header, the reason, the callers, nor a word diff.
func TestMarkdownNeutral(t *testing.T) {
	const hostile = "ping @octocat see https://evil.example/x www.evil.example mail a@b.example ~~struck~~"
	r := &Result{Agent: "A " + hostile, Changes: []Change{{
		Check: "diff_prompt_changed", Level: Info, Message: hostile, Reason: hostile,
		Callers: []Caller{{Package: "@scope/" + hostile}},
		Words:   []Word{{Op: "=", Text: hostile}, {Op: "-", Text: hostile}, {Op: "+", Text: hostile}},
	}}}
	r.Summary.Info = 1
	var b bytes.Buffer
	if err := Markdown(&b, r, ""); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"@octocat", "@scope", "https://", "www.evil", "a@b", "~~"} {
		if strings.Contains(out, bad) {
			t.Errorf("markdown carries %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "octocat") || !strings.Contains(out, "evil.example") {
		t.Errorf("the text itself is gone:\n%s", out)
	}
}
