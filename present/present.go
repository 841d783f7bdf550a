// Package present is the presentation leaf (stdlib only; every room may
// import it): the one terminal sanitiser (Clean, CleanLine), the one
// literal-credential detector and masker (Detect, Mask, Redact) and the one
// function that applies both, Text (with Line for a source line that keeps
// its tabs and Lines for multi-line text). Every string taken from an agent
// file that leaves the engine for a face — finding messages, JSON
// Pointers, source excerpts, graph labels, prompt text, fix diffs — goes
// through Text, Line or Lines.
//
// The order is fixed: sanitise, then mask. The masker must judge the text
// the reader will see. Masking first would let a control character, a
// zero-width or bidi character or an escape sequence split a token so the
// masker does not recognise it ("ghp_\u200b…", "ghp_ESC[0m…"), and the
// sanitiser would then remove the splitter and print the whole raw token.
// Sanitising first joins the token before the masker looks; the masker
// only replaces text by its masked form (the token's first characters,
// "…" and a length, all printable), so it cannot bring back what the
// sanitiser removed.
package present

import "strings"

// Text is the one presentation function: s sanitised (Clean) and then
// every literal credential in it masked (Redact). Line breaks become
// spaces; use Lines for text whose lines matter.
func Text(s string) string {
	c := Clean(s)
	if plainProse(c) {
		return c // nothing Redact could mask (most names and labels)
	}
	return Redact(c)
}

// plainProse reports whether Redact would leave s as it is for want of a
// place where a secret could be: no word (a run of bytes between spaces,
// tabs and line breaks, which the detector's tokens never cross) of 8
// bytes or more, where every detection needs one (a provider key, a
// credential-shaped literal, the literal of "Bearer x", an entropy
// candidate, a JWT, PEM armour's "-----BEGIN"); and no ':' or '=' (a
// "key: value" or "key=value" pair, whose value is judged under its key,
// "pwd = aB3dE6"; a URL's scheme). A graph's node names ("Draft the
// reply") are nearly all such text: the 33,000-node diff presented each
// through the whole detector. TestPlainProseRedactsNothing holds it to
// Redact.
func plainProse(s string) bool {
	word := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			word = 0
			continue
		case ':', '=':
			return false
		}
		if word++; word == 8 {
			return false
		}
	}
	return true
}

// Line is Text for a source line shown as an excerpt or a diff line: tabs
// are kept (a caret line can be aligned under them).
func Line(s string) string { return Redact(CleanLine(s)) }

// Lines is Line applied to each line of s: multi-line text (templates,
// previews, diffs) keeps its line breaks ("\r\n" becomes "\n"), and each
// line is sanitised and then masked on its own, so that a "key: value"
// line is judged under its key.
func Lines(s string) string {
	if !strings.ContainsAny(s, "\n") {
		return Line(s)
	}
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = Line(strings.TrimSuffix(p, "\r"))
	}
	return strings.Join(parts, "\n")
}

// Value is Lines for a value that sits under key (a JSON member's string):
// each line is sanitised and then masked judging it under key, as Redact
// judges the value of a "key: value" line. A key that names no secret is
// Lines.
func Value(key, s string) string {
	class := ClassifyKey(key)
	if class <= KeyNeutral {
		return Lines(s)
	}
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		c := CleanLine(strings.TrimSuffix(p, "\r"))
		var b strings.Builder
		budget := min(32+len(c)/16, 256)
		redactInto(&b, class, c, &budget)
		parts[i] = b.String()
	}
	return strings.Join(parts, "\n")
}
