package prompts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// Fuzz targets of the prompt report (issue 26): template parsing (Split)
// and the report with its provenance (Build). The seed corpus is the real
// agents' flows (/work/shared/corpus, when present) and the bundled
// fixture: `go test` runs the seeds; `go test -fuzz FuzzSplit` (or
// FuzzBuild) runs for as long as asked.

// seedFlows are the flow files of the bundled fixture and of the real
// agents of the shared corpus.
func seedFlows(f *testing.F) [][]byte {
	paths := []string{filepath.Join(fixture, "cinatra", "oas.json")}
	if dir, ok := testshared.Seeds("corpus", "cinatra", "agents"); ok {
		m, _ := filepath.Glob(filepath.Join(dir, "*", "*", "cinatra", "oas.json"))
		paths = append(paths, m...)
	}
	var out [][]byte
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		f.Fatal("no seed flow")
	}
	return out
}

// templatesOf lists the strings of a flow file that hold "{{" or "{%".
func templatesOf(src []byte) []string {
	var v any
	if json.Unmarshal(src, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, "{{") || strings.Contains(x, "{%") {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

func FuzzSplit(f *testing.F) {
	for _, src := range seedFlows(f) {
		for _, t := range templatesOf(src) {
			f.Add(t)
		}
	}
	for _, s := range []string{"{{", "{{ a }}", "{{a.b\n\n}}", "{%", "{% x %}{{ y }}", "{{ A_B }}", "{{{{ a }}}}", "}}{{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, work := split(s)
		if work > 8*len(s)+64 {
			t.Errorf("%d bytes read for a %d-byte template", work, len(s))
		}
		var b strings.Builder
		for _, sg := range segs {
			b.WriteString(sg.Text)
			switch sg.Kind {
			case SegPlaceholder, SegEnv:
				if name, end, ok := compile.MatchPlaceholder(sg.Text, 0, compile.TemplateSpace); !ok || end != len(sg.Text) || name != sg.Name {
					t.Errorf("placeholder segment %q is not one placeholder named %q", sg.Text, sg.Name)
				}
				if (sg.Kind == SegEnv) != isEnvName(sg.Name) {
					t.Errorf("%q: kind %s", sg.Text, sg.Kind)
				}
			case SegExpression:
				if len(sg.Text) < 4 || !strings.HasSuffix(sg.Text, "}}") && !strings.HasSuffix(sg.Text, "%}") {
					t.Errorf("expression segment %q", sg.Text)
				}
			}
		}
		if b.String() != s {
			t.Fatalf("the segments do not add up to the template %q", s)
		}
		if len(s) <= 4096 {
			if want := splitReference(s); !slices.Equal(segs, want) {
				t.Errorf("Split(%q) = %v, the reference gives %v", s, segs, want)
			}
		}
		names := Names(segs)
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				t.Errorf("Names repeats %q", n)
			}
			seen[n] = true
		}
		Static(segs)
	})
}

// splitReference is Split as it was written before it was made linear
// (each "{{" searched the rest for its closer): the meaning Split keeps.
func splitReference(s string) []Segment {
	var out []Segment
	lit := strings.Builder{}
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, Segment{Kind: SegText, Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		if i+1 < len(s) && s[i] == '{' && (s[i+1] == '{' || s[i+1] == '%') {
			if name, end, ok := compile.MatchPlaceholder(s, i, compile.TemplateSpace); ok {
				flush()
				kind := SegPlaceholder
				if isEnvName(name) {
					kind = SegEnv
				}
				out = append(out, Segment{Kind: kind, Text: s[i:end], Name: name})
				i = end
				continue
			}
			closer := "}}"
			if s[i+1] == '%' {
				closer = "%}"
			}
			if k := strings.Index(s[i+2:], closer); k >= 0 && !strings.Contains(s[i+2:i+2+k], "\n\n") {
				end := i + 2 + k + 2
				flush()
				out = append(out, Segment{Kind: SegExpression, Text: s[i:end]})
				i = end
				continue
			}
		}
		lit.WriteByte(s[i])
		i++
	}
	flush()
	return out
}

// FuzzBuild builds the report of a fuzzed flow file (in place of the
// fixture's, through the loader's overlay) without counting tokens (a
// budget no text exceeds): it must not panic, every placeholder's
// provenance has its one wording, every placeholder is one of its node's
// templates', and the report passes the one presentation function.
func FuzzBuild(f *testing.F) {
	for _, src := range seedFlows(f) {
		f.Add(src)
	}
	flow, err := filepath.Abs(filepath.Join(fixture, "cinatra", "oas.json"))
	if err != nil {
		f.Fatal(err)
	}
	huge := Budget{Buckets: map[Bucket]int{}, Total: 1 << 40, ArtifactTokens: 1}
	for _, b := range Buckets {
		huge.Buckets[b] = 1 << 40
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		a, err := compile.Load(filepath.Dir(filepath.Dir(flow)), compile.LoadOptions{Overlay: map[string][]byte{flow: src}, NoSiblings: true})
		if err != nil {
			return
		}
		r := Build(Input{Agent: a, Budget: huge, BudgetOnly: true})
		for _, n := range r.Nodes {
			names := map[string]bool{}
			for _, tp := range n.Templates {
				for _, nm := range Names(tp.Segments) {
					names[nm] = true
				}
			}
			for _, p := range n.Placeholders {
				if p.Provenance.Text() == "" {
					t.Errorf("%s: {{ %s }} has no provenance wording", n.ID, p.Name)
				}
				if !names[p.Name] {
					t.Errorf("%s: {{ %s }} is in no template of the node", n.ID, p.Name)
				}
			}
		}
		r.Presented(present.Text)
	})
}
