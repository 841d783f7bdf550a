package lint

import (
	"fmt"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Inline suppressions. JSON has no comments, so an object of the flow file
// (a component, or any object) may carry a member
//
//	"x-oastui-ignore": [{"rule": "untrusted_external_url", "reason": "partner API, reviewed"}]
//
// that silences that rule for the object and everything below it. Each
// entry needs a reason; an entry of a secret rule (Rule.Secret) also needs
// "value_hash" (the finding's valueHash), so that it accepts that one
// secret only. A bad entry is an inline_ignore_invalid finding and silences
// nothing; an entry that silenced nothing is unused_ignore. The member
// itself is invisible to the other rules (the Agent Spec schema check
// removes it before validating; Cinatra's validator accepts unknown keys).

// InlineIgnoreKey is the member name of an inline suppression.
const InlineIgnoreKey = compile.IgnoreKey

var RuleInlineIgnoreInvalid = &Rule{Code: "inline_ignore_invalid", Severity: compile.Warning, Group: groupReview,
	Doc: "an \"x-oastui-ignore\" member is not a list of {rule, reason} objects, names an unknown rule, has no reason, or ignores a secret rule without value_hash; it silences nothing",
	Fix: "write \"x-oastui-ignore\": [{\"rule\": \"<code>\", \"reason\": \"<why it is accepted>\"}] (plus \"value_hash\" for a secret rule)"}

type inlineIgnore struct {
	scope     string // pointer of the object holding the member
	ptr       string // pointer of the entry
	rule      string
	reason    string
	valueHash string
	used      bool
	unused    Finding // what is reported when it silenced nothing
}

type inlineIgnores struct {
	doc     *compile.Doc
	path    string // doc.Path: the file whose findings the entries may silence
	entries []*inlineIgnore
	invalid []Finding
	found   bool    // the file has an x-oastui-ignore member
	cfg     *Config // the review's: an inline ignore may name one of its team policies
}

// inlineIgnoresIn collects the x-oastui-ignore members of a's flow file,
// once per review: Run hands the result to each settling of the findings
// (apply) and keeps those of workspace rules (Review.Inline). The objects
// that hold one are read off dm, the agent's flow model when the pass
// built it (its walk finds them: compile.Model.Ignoring), rather than found
// in a walk of the document of their own; with dm nil it walks.
func inlineIgnoresIn(a *compile.Agent, dm *compile.Model, cfg *Config) *inlineIgnores {
	ii := &inlineIgnores{cfg: cfg}
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return ii
	}
	ii.doc, ii.path = a.Flow, a.Flow.Path
	holder := func(n *compile.Node) {
		for _, m := range n.Members {
			if m.Key == InlineIgnoreKey {
				ii.found = true
				ii.parse(compile.PointerOf(n), m.Value)
			}
		}
	}
	if dm != nil {
		for _, n := range dm.Ignoring() {
			holder(n)
		}
		return ii
	}
	compile.WalkNodes(a.Flow.Root, func(n *compile.Node) bool {
		if n.Kind == compile.Object {
			holder(n)
		}
		return true
	})
	return ii
}

// unsettled is ii with entries that have matched nothing yet: each
// settling of findings (the review's, the gate's) marks its own.
func (ii *inlineIgnores) unsettled() *inlineIgnores {
	c := *ii
	c.entries = make([]*inlineIgnore, len(ii.entries))
	for i, e := range ii.entries {
		cp := *e
		c.entries[i] = &cp
	}
	return &c
}

// dropInside drops the findings other rules raise at or below an
// x-oastui-ignore member (the member is oastui's, not the format's).
func (ii *inlineIgnores) dropInside(fs []Finding) []Finding {
	if !ii.found {
		return fs
	}
	out := fs[:0:0]
	for _, f := range fs {
		if f.File == ii.path && ii.insideMember(f.Location) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// insideMember: ptr names an x-oastui-ignore member or something in it.
func (ii *inlineIgnores) insideMember(ptr string) bool {
	for _, t := range compile.SplitPointer(ptr) {
		if t == InlineIgnoreKey {
			return true
		}
	}
	return false
}

func (ii *inlineIgnores) bad(ptr, msg string) {
	ii.invalid = append(ii.invalid, ii.doc.At(ptr, RuleInlineIgnoreInvalid.Code, RuleInlineIgnoreInvalid.Severity, msg))
}

func (ii *inlineIgnores) parse(scope string, v *compile.Node) {
	member := compile.Append(scope, InlineIgnoreKey)
	if v == nil || v.Kind != compile.Array {
		ii.bad(member, `"x-oastui-ignore" must be a list of {"rule": …, "reason": …} objects`)
		return
	}
	for i, e := range v.Items {
		ptr := compile.AppendIndex(member, i)
		if e.Kind != compile.Object {
			ii.bad(ptr, `an "x-oastui-ignore" entry must be an object {"rule": …, "reason": …}`)
			continue
		}
		ig := &inlineIgnore{scope: scope, ptr: ptr}
		ok := true
		for _, m := range e.Members {
			s, isStr := m.Value.Str()
			switch m.Key {
			case "rule", "reason", "value_hash":
				if !isStr {
					ii.bad(compile.Append(ptr, m.Key), fmt.Sprintf("%q of an inline ignore must be a string", m.Key))
					ok = false
				}
			default:
				ii.bad(compile.Append(ptr, m.Key), fmt.Sprintf("unknown key %q in an inline ignore (known: rule, reason, value_hash)", m.Key))
				ok = false
			}
			switch m.Key {
			case "rule":
				ig.rule = s
			case "reason":
				ig.reason = strings.TrimSpace(s)
			case "value_hash":
				ig.valueHash = strings.ToLower(strings.TrimSpace(s))
			}
		}
		if !ok {
			continue
		}
		r := LookupRule(ig.rule)
		switch {
		case ig.rule == "":
			ii.bad(ptr, `an inline ignore needs "rule" (the finding code to ignore)`)
		case r == nil && ii.cfg.Policy(ig.rule) != nil: // a team policy: no secret rule
			if ig.reason == "" {
				ii.bad(ptr, fmt.Sprintf(`inline ignore of %s has no "reason": say why this finding is accepted`, ig.rule))
				break
			}
			ig.unused = ii.doc.At(ig.ptr, RuleUnusedIgnore.Code, RuleUnusedIgnore.Severity,
				fmt.Sprintf("unused inline ignore: no %s finding in this object (reason given: %q); remove the entry", ig.rule, ig.reason))
			ii.entries = append(ii.entries, ig)
		case r == nil:
			ii.bad(compile.Append(ptr, "rule"), fmt.Sprintf("inline ignore of unknown rule %q%s", ig.rule, suggestRule(ig.rule)))
		case ig.reason == "":
			ii.bad(ptr, fmt.Sprintf(`inline ignore of %s has no "reason": say why this finding is accepted`, ig.rule))
		case r.Secret && !valueHashRe.MatchString(ig.valueHash):
			ii.bad(ptr, fmt.Sprintf(`inline ignore of the secret rule %s needs "value_hash" (the finding's valueHash in oastui lint --format json), so that a different secret is reported again`, ig.rule))
		default:
			ig.unused = ii.doc.At(ig.ptr, RuleUnusedIgnore.Code, RuleUnusedIgnore.Severity,
				fmt.Sprintf("unused inline ignore: no %s finding in this object (reason given: %q); remove the entry", ig.rule, ig.reason))
			ii.entries = append(ii.entries, ig)
		}
	}
}

// match returns the inline ignore that silences f, or nil.
func (ii *inlineIgnores) match(f Finding) *inlineIgnore {
	if ii == nil || ii.path == "" || f.File != ii.path {
		return nil
	}
	for _, ig := range ii.entries {
		if ig.rule != f.Code || (ig.valueHash != "" && ig.valueHash != f.ValueHash) {
			continue
		}
		if ig.scope == "" || f.Location == ig.scope || strings.HasPrefix(f.Location, ig.scope+"/") {
			ig.used = true
			return ig
		}
	}
	return nil
}

// findings are the invalid entries and the unused ones; an entry of a
// workspace rule is judged where those findings are raised (Outside), not
// by the review.
func (ii *inlineIgnores) findings() []Finding {
	out := ii.invalid
	for _, ig := range ii.entries {
		if ig.used || outsideRule(ig.rule) {
			continue
		}
		out = append(out, ig.unused)
	}
	return out
}

// stripInlineIgnores removes every x-oastui-ignore member from a decoded
// JSON value, so that schema validation does not see it.
func stripInlineIgnores(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, InlineIgnoreKey)
		for _, x := range v {
			stripInlineIgnores(x)
		}
	case []any:
		for _, x := range v {
			stripInlineIgnores(x)
		}
	}
}
