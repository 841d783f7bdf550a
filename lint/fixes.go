package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// fixer builds one named fix from lint/fix edits; the first failing step
// voids it (a fix is offered whole or not at all).
type fixer struct {
	title string
	tier  edit.Tier
	edits []edit.Edit
	bad   bool
}

// Every fix declares its tier (edit.Tier, docs/fixes.md): what it changes
// decides who may apply it.
func newFix(tier edit.Tier, title string) *fixer { return &fixer{title: title, tier: tier} }

func (f *fixer) add(e edit.Edit, err error) *fixer {
	if err != nil {
		f.bad = true
	} else {
		f.edits = append(f.edits, e)
	}
	return f
}

// fix is the built fix, with no edits when a step failed.
func (f *fixer) fix() edit.Fix {
	if f.bad {
		return edit.Fix{Title: f.title, Tier: f.tier}
	}
	return edit.Fix{Title: f.title, Tier: f.tier, Edits: f.edits}
}

// ptrOf is the JSON Pointer of a node of a parsed document.
func ptrOf(n *compile.Node) string { return compile.PointerOf(n) }

// setPath sets the strings list at keys below obj (creating the objects on
// the way, in the file's style) or appends vals to the array already
// there. ok is false when something on the path is not of the right kind.
func setPath(d *compile.Doc, obj *compile.Node, keys []string, vals []string) (edit.Edit, error) {
	n := obj
	for i, k := range keys {
		next := n.Get(k)
		if next == nil {
			var v any = uniq(vals)
			for j := len(keys) - 1; j > i; j-- {
				v = map[string]any{keys[j]: v}
			}
			return fix.Insert(d, ptrOf(n), k, v)
		}
		want := compile.Object
		if i == len(keys)-1 {
			want = compile.Array
		}
		if next.Kind != want {
			return edit.Edit{}, errNotFixable
		}
		n = next
	}
	var items []any
	for _, v := range uniq(vals) {
		items = append(items, v)
	}
	return fix.Append(d, ptrOf(n), items...)
}

type fixError string

func (e fixError) Error() string { return string(e) }

const errNotFixable = fixError("no safe fix here")

// packageSlug is the agent_id of a package name: the part after the
// scope ("@cinatra-ai/planner-agent" → "planner-agent"); the SKILL.md of
// the bridge is looked up at <installDir>/cinatra-ai/<agent_id>/.
func packageSlug(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// uniq keeps the first occurrence of each string.
func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
