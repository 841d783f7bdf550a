package locate

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// Renaming a component: its key in a $referenced_components, every
// $component_ref resolving to it (References: scope-aware) and its own
// "id" when that equals the key. Refused when the new name is not a valid
// id or would collide: the SDKs keep one table of keys for the whole
// document (component_ref_key_repeated), ids are unique
// (component_id_duplicate), and a key equal to a registry component's id
// would shadow it.

// ErrNothingToRename: no component key, reference or component id at
// the offset.
var ErrNothingToRename = errors.New("nothing to rename here")

// RenameError is a rename refused for a reason the author can act on
// (an invalid or colliding name, a component defined in the registry).
type RenameError struct{ Msg string }

func (e *RenameError) Error() string { return e.Msg }

func refuse(format string, args ...any) error { return &RenameError{Msg: fmt.Sprintf(format, args...)} }

// Renamable is the component a rename at an offset renames.
type Renamable struct {
	ID   string // its key (what refs name)
	Span Span   // the text under the cursor that names it, without quotes

	comp *compile.Node
	ptr  string // the component's pointer ($referenced_components/<key>)
}

// validID: what a renamed component may be called. Letters, digits, "_"
// and "-" (the corpus's ids: snake_case, kebab-case, UUIDs), not starting
// with "-": no "." (a ref "<id>.<field>" names a sensitive field), no
// braces (placeholders), nothing JSON or YAML would quote or escape.
// Compiled on first use: its {0,127} is a long program, 3 ms of every
// start under -race (1,700 allocations) of every process importing locate.
var validID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$`) })

// ValidID reports whether name may be given to a component by a rename.
func ValidID(name string) bool { return validID().MatchString(name) }

// PrepareRename returns what a rename at off of file would rename:
// ErrNothingToRename when there is no component name there, a
// *RenameError when there is one that cannot be renamed (a component of
// the registry, an unresolved reference, an id that differs from its key).
func (x *Index) PrepareRename(file string, off int) (Renamable, error) {
	d := x.doc(file)
	if d == nil || d.Root == nil || x.a == nil || d != x.a.Flow {
		return Renamable{}, ErrNothingToRename
	}
	n, onKey := d.NodeAt(off)
	if n == nil {
		return Renamable{}, ErrNothingToRename
	}
	// the "id" of a component of a $referenced_components
	if !onKey && n.Kind == compile.String && n.Key() == "id" {
		if c := n.Parent(); c != nil && c.Parent() != nil && c.Parent().Kind == compile.Object && c.Parent().Key() == "$referenced_components" {
			if n.Text != c.Key() {
				return Renamable{}, refuse("this id (%q) differs from the component's key %q, which is what references name: rename the key", clean(n.Text), clean(c.Key()))
			}
			sp, ok := inner(d, Span{File: d.Path, Start: n.Offset, End: d.ValueEnd(n)}, n.Text)
			if !ok {
				return Renamable{}, ErrNothingToRename
			}
			return Renamable{ID: c.Key(), Span: sp, comp: c, ptr: compile.PointerOf(c)}, nil
		}
	}
	s, ok := x.At(file, off)
	if !ok {
		return Renamable{}, ErrNothingToRename
	}
	var r Renamable
	switch s.Kind {
	case KindKey:
		r = Renamable{ID: s.ID, comp: s.Target.Node, ptr: s.Pointer}
	case KindRef:
		switch s.Target.Scope {
		case compile.RefLocal, compile.RefOuter:
			r = Renamable{ID: s.ID, comp: s.Target.Node, ptr: s.Target.Pointer}
		case compile.RefRegistry:
			return Renamable{}, refuse("%q is a component of the registry, not of this document: rename it in the registry (other agents may refer to it)", clean(s.ID))
		default:
			// no enclosing Flow defines it (a sibling subtree's block, or
			// a root that is no Flow, such as a plugin's ExtendedFlow): the
			// SDKs' one table of keys has it when one block defines it
			comp, ptr, ok := x.definedOnce(s.ID)
			if !ok {
				return Renamable{}, refuse("no component %q is defined in this document: there is nothing to rename", clean(s.ID))
			}
			r = Renamable{ID: s.ID, comp: comp, ptr: ptr}
		}
	default:
		return Renamable{}, ErrNothingToRename
	}
	sp, ok := inner(d, s.Span, s.ID)
	if !ok || r.comp == nil {
		return Renamable{}, ErrNothingToRename
	}
	r.Span = sp
	return r, nil
}

// Rename renames the component at off of file to newName: its key, every
// reference resolving to it, its "id" when that equals the key. The edits
// are in source order; none when newName is the current name.
func (x *Index) Rename(file string, off int, newName string) (edit.Fix, error) {
	r, err := x.PrepareRename(file, off)
	if err != nil {
		return edit.Fix{}, err
	}
	fx := edit.Fix{Title: fmt.Sprintf("rename %s to %s", r.ID, newName)}
	if newName == r.ID {
		return fx, nil
	}
	if !ValidID(newName) {
		return edit.Fix{}, refuse("%q is not a valid component id: use letters, digits, \"_\" and \"-\" (at most 128, not starting with \"-\")", clean(newName))
	}
	d := x.a.Flow
	if err := x.collides(d, r, newName); err != nil {
		return edit.Fix{}, err
	}
	key := Symbol{Kind: KindKey, ID: r.ID, Pointer: r.ptr, Target: compile.Resolved{Node: r.comp, Pointer: r.ptr, Scope: compile.RefLocal}}
	spans := x.References(key, true)
	// a ref that resolves through no enclosing scope but names this key:
	// the SDKs resolve it through their one table of keys (a sibling
	// subtree's block, component_ref_sibling_scope); the key is unique in
	// the document (checked above), so it can only mean this component
	spans = append(spans, x.unresolvedRefs(r.ID)...)
	if id := r.comp.Get("id"); id.Is(compile.String) && id.Text == r.ID {
		spans = append(spans, Span{File: d.Path, Start: id.Offset, End: d.ValueEnd(id)})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	last := -1
	for _, sp := range spans {
		if sp.Start == last {
			continue
		}
		last = sp.Start
		in, ok := inner(d, sp, r.ID)
		if !ok {
			return edit.Fix{}, refuse("cannot rewrite the name at offset %d: it is not written as a plain string", sp.Start)
		}
		if !yamlSafe(d, in, newName) {
			return edit.Fix{}, refuse("%q would read as a number or a boolean in this YAML document: choose a name that starts with a letter", clean(newName))
		}
		fx.Edits = append(fx.Edits, edit.Edit{Path: d.Path, Start: in.Start, End: in.End, New: newName})
	}
	return fx, nil
}

// collides refuses a new name that another key of the document, the
// registry, or (when the id is renamed too) another component's id holds.
func (x *Index) collides(d *compile.Doc, r Renamable, name string) error {
	var err error
	renamesID := r.comp.Get("id").StringOr("") == r.ID
	owner := r.comp.Parent()
	compile.WalkNodes(d.Root, func(n *compile.Node) bool {
		if err != nil || n.Kind != compile.Object {
			return err == nil
		}
		if n.Key() == "$referenced_components" && n.Get(name) != nil {
			where := "in another scope (" + clean(compile.PointerOf(n.Get(name))) + "): the SDKs keep one table of keys for the whole document"
			if n == owner {
				where = "in this scope"
			}
			err = refuse("%q is already a component key %s", clean(name), where)
			return false
		}
		if renamesID && n != r.comp && n.Get("id").StringOr("") == name && n.Get("component_type") != nil {
			err = refuse("%q is already the id of another component (%s): ids must be unique", clean(name), clean(compile.PointerOf(n)))
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if reg := x.a.RegistryComponents(); reg.Get(name) != nil {
		return refuse("%q is a component of the registry: a key of that name would shadow it", clean(name))
	}
	return nil
}

// definedOnce is the component of the one $referenced_components of the
// flow file that defines key id (false when none or several do).
func (x *Index) definedOnce(id string) (*compile.Node, string, bool) {
	var found []*compile.Node
	compile.WalkNodes(x.a.Flow.Root, func(n *compile.Node) bool {
		if n.Kind == compile.Object && n.Key() == "$referenced_components" {
			if c := n.Get(id); c != nil {
				found = append(found, c)
			}
		}
		return len(found) < 2
	})
	if len(found) != 1 {
		return nil, "", false
	}
	return found[0], compile.PointerOf(found[0]), true
}

// unresolvedRefs are the refs naming id that resolve through no
// enclosing Flow's scope (nor the registry).
func (x *Index) unresolvedRefs(id string) []Span {
	var out []Span
	d := x.a.Flow
	reg := x.a.RegistryComponents()
	compile.WalkNodes(d.Root, func(n *compile.Node) bool {
		rid, ok := compile.RefID(n)
		if !ok || rid != id {
			return true
		}
		ptr := compile.PointerOf(n)
		f := x.flowOf(ptr)
		if f == nil && reg.Get(id) == nil || f != nil && f.Resolve(n, ptr, reg).Scope == compile.RefUnresolved {
			str := n.Get("$component_ref")
			out = append(out, Span{File: d.Path, Start: str.Offset, End: d.ValueEnd(str)})
		}
		return true
	})
	return out
}

// inner is the part of a span that spells name: inside the quotes of a
// quoted string or key (whatever escapes it uses), or the plain YAML
// scalar's first len(name) bytes. False when it spells something else.
func inner(d *compile.Doc, sp Span, name string) (Span, bool) {
	if sp.Start < 0 || sp.End > len(d.Src) || sp.End <= sp.Start {
		return Span{}, false
	}
	raw := d.Src[sp.Start:sp.End]
	if q := raw[0]; (q == '"' || q == '\'') && len(raw) >= 2 && raw[len(raw)-1] == q {
		return Span{File: sp.File, Start: sp.Start + 1, End: sp.End - 1}, true
	}
	if name != "" && strings.HasPrefix(string(raw), name) {
		return Span{File: sp.File, Start: sp.Start, End: sp.Start + len(name)}, true
	}
	return Span{}, false
}

// yamlSafe: name written unquoted where sp is stays a string (a quoted
// span always does).
func yamlSafe(d *compile.Doc, sp Span, name string) bool {
	if sp.Start > 0 && (d.Src[sp.Start-1] == '"' || d.Src[sp.Start-1] == '\'') {
		return true
	}
	if _, err := strconv.ParseFloat(name, 64); err == nil {
		return false
	}
	switch strings.ToLower(name) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		return false
	}
	return name[0] < '0' || name[0] > '9' // 0x1F, 1e3, 1_000: YAML 1.1 numbers
}
