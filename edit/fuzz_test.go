package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// FuzzFixes: any set of fixes of one file (each a list of edits, as the
// rules' fixes are) planned and applied as `oastui lint --fix` does:
// Plan never chooses two fixes touching the same bytes, so the chosen
// edits apply (unless one is out of range); a skipped fix does touch a
// chosen one's bytes; the result is Batch.Result's, the diff of the edits
// is the diff of the result, and Invert's edits give the source back. The
// seed corpus (testdata/fuzz/FuzzFixes) is real agents' flow files with
// the fixes the review offers on them.
func FuzzFixes(f *testing.F) {
	f.Add("{\r\n\t\"a\": 1,\r\n\t\"b\": 2\r\n}\r\n", `[[[9,10,"10"]],[[9,10,"11"]],[[19,20,"3"],[0,0,"// x\n"]],[[10,10,"y"]]]`)
	f.Add("abc", `[[[1,1,"x"]],[[1,1,"y"]],[[0,3,""]],[[3,3,"!"]]]`)
	f.Fuzz(func(t *testing.T, src, spec string) {
		var fixes [][][]json.RawMessage
		if json.Unmarshal([]byte(spec), &fixes) != nil || len(fixes) > 64 {
			return
		}
		var cands []Candidate
		for i, fx := range fixes {
			var es []Edit
			for _, e := range fx {
				if len(e) != 3 {
					return
				}
				var ed Edit
				if json.Unmarshal(e[0], &ed.Start) != nil || json.Unmarshal(e[1], &ed.End) != nil || json.Unmarshal(e[2], &ed.New) != nil {
					return
				}
				ed.Path = "f"
				es = append(es, ed)
			}
			cands = append(cands, Candidate{ID: "fix " + strconv.Itoa(i), Fixes: []Fix{{Title: "t", Edits: es}}})
		}
		b := Plan(cands)
		edits := b.Edits()
		out, err := Apply([]byte(src), edits)
		if err != nil {
			if errors.Is(err, ErrOverlap) {
				t.Fatalf("Plan chose edits that overlap: %v", err)
			}
			return // an edit out of range: refused, never applied
		}
		for _, s := range b.Skipped {
			if len(s.Fix.Edits) == 0 {
				continue // skipped for having no edits (a fix of moves only here)
			}
			if _, err := Apply([]byte(src), append(append([]Edit(nil), edits...), s.Fix.Edits...)); err == nil {
				t.Fatalf("%s was skipped (%s) but touches no chosen bytes", s.ID, s.Reason)
			}
		}
		res, err := b.Result(map[string][]byte{"f": []byte(src)})
		if err != nil {
			t.Fatalf("Result: %v", err)
		}
		if len(edits) > 0 && !bytes.Equal(res["f"], out) {
			t.Fatalf("Result %q, Apply %q", res["f"], out)
		}
		if back, err := Apply(out, Invert([]byte(src), edits)); err != nil || !bytes.Equal(back, []byte(src)) {
			t.Fatalf("Invert: %q, %v; want %q", back, err, src)
		}
		d, err := DiffEdits("f", []byte(src), edits)
		if err != nil {
			t.Fatalf("DiffEdits: %v", err)
		}
		// the diff is a patch that makes the result
		if got, err := patch(src, d); err != nil || got != string(out) {
			t.Fatalf("the diff of the edits does not make the result (%v):\n%s\ngot  %q\nwant %q", err, d, got, out)
		}
	})
}

// patch applies a unified diff of one file (as UnifiedDiff writes it) to
// src.
func patch(src, diff string) (string, error) {
	if diff == "" {
		return src, nil
	}
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	next := 0 // the next line of src not yet copied
	dl := strings.SplitAfter(diff, "\n")
	for i := 0; i < len(dl); i++ {
		l := dl[i]
		if !strings.HasPrefix(l, "@@ -") {
			continue
		}
		var a, b int
		fields := strings.Fields(l) // @@ -a[,b] +c[,d] @@
		if len(fields) < 4 || !strings.HasPrefix(fields[1], "-") {
			return "", fmt.Errorf("hunk header %q", l)
		}
		old, count, found := strings.Cut(fields[1][1:], ",")
		a, err := strconv.Atoi(old)
		if err != nil {
			return "", fmt.Errorf("hunk header %q", l)
		}
		b = 1
		if found {
			if b, err = strconv.Atoi(count); err != nil {
				return "", fmt.Errorf("hunk header %q", l)
			}
		}
		start := a - 1
		if b == 0 {
			start = a // "-a,0": after line a
		}
		if start < next || start > len(lines) {
			return "", fmt.Errorf("hunk %q out of order", l)
		}
		out = append(out, lines[next:start]...)
		next = start
		for i+1 < len(dl) && len(dl[i+1]) > 0 && strings.ContainsRune(" -+\\", rune(dl[i+1][0])) {
			i++
			h := dl[i]
			switch h[0] {
			case ' ', '-':
				if next >= len(lines) || lines[next] != h[1:] && lines[next] != strings.TrimSuffix(h[1:], "\n") {
					return "", fmt.Errorf("hunk line %q is not line %d of the source", h, next+1)
				}
				if h[0] == ' ' {
					out = append(out, lines[next])
				}
				next++
			case '+':
				out = append(out, h[1:])
			case '\\': // "\ No newline at end of file": the line before has none
				if k := len(out) - 1; k >= 0 && dl[i-1][0] != '-' {
					out[k] = strings.TrimSuffix(out[k], "\n")
				}
			}
		}
	}
	out = append(out, lines[next:]...)
	return strings.Join(out, ""), nil
}
