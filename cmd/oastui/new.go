package main

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/fix"
)

// The scaffold is a small, valid agent written so that a new agent lints
// clean and compiles from its first save. Three kinds (scaffold/kinds):
//   - leaf: StartNode → AgentNode (the shared LLM config and MCP toolbox
//     from the registry, a review gate) → EndNode;
//   - gate: StartNode → AgentNode → InputMessageNode approval gate → EndNode;
//   - orchestrator: StartNode → FlowNode → EndNode, the FlowNode running a
//     child agent (--child: metadata.cinatra.packageName, as the corpus
//     orchestrators do, declared in package.json) or a local subflow.
//
// --slot declares context slots and wires each with lint.WireContextSlot,
// the generator behind the context_slot_not_wired fix.
// Placeholders: __PACKAGE__, __SLUG__, __TITLE__, and __CHILD_*__ for the
// orchestrator.
//
//go:embed scaffold
var scaffoldFS embed.FS

// slugPattern is what npm accepts for the unscoped part of a package name.
var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// scaffoldKinds are the values of --kind.
var scaffoldKinds = []string{"leaf", "orchestrator", "gate"}

// newOptions are the flags of `oastui new`.
type newOptions struct {
	pkg, title, kind, child string
	slots                   []string
}

func init() {
	subcommands = append(subcommands, func() *cobra.Command {
		var o newOptions
		cmd := &cobra.Command{
			Use:   "new DIR",
			Short: "Scaffold a valid agent package in DIR",
			Long: "new writes DIR/package.json and DIR/cinatra/oas.json: an agent that lints clean and compiles.\n" +
				"--kind leaf (one LLM step with a review gate), gate (an LLM step then a human approval\n" +
				"gate) or orchestrator (a FlowNode running a child agent, --child @vendor/slug, or a local\n" +
				"subflow). --slot ID:EXTENSION[,EXTENSION...] declares a context slot and wires it exactly\n" +
				"as the context_slot_not_wired fix does (repeat the flag, or ID:EXT,ID2:EXT, for more).\n" +
				"DIR must not exist or be empty; new never overwrites a file. The package name defaults\n" +
				"to @<vendor>/<slug> when DIR is agents/<vendor>/<slug> or extensions/<vendor>/<slug>, else @local/<slug>.",
			Example: "  oastui new agents/acme/summary-agent\n" +
				"  oastui new extensions/acme/summary-agent\n" +
				"  oastui new my-agent --package @acme/my-agent --title \"My Agent\"\n" +
				"  oastui new agents/acme/writer --slot draftContext:@cinatra-ai/brand-voice-artifact\n" +
				"  oastui new agents/acme/pipeline --kind orchestrator --child @acme/summary-agent",
			Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runNew(cmd, args[0], o)
			},
		}
		cmd.Flags().StringVar(&o.pkg, "package", "", "npm package name (@vendor/slug)")
		cmd.Flags().StringVar(&o.title, "title", "", "display name of the agent (default: from the slug)")
		cmd.Flags().StringVar(&o.kind, "kind", "leaf", "what to scaffold: leaf, orchestrator or gate")
		cmd.Flags().StringArrayVar(&o.slots, "slot", nil, "a context slot ID:EXTENSION[,EXTENSION...], wired before the agent's step (repeatable)")
		cmd.Flags().StringVar(&o.child, "child", "", "orchestrator only: the child agent's package (@vendor/slug) its FlowNode runs")
		mustRegister(cmd, "kind", completeValues(scaffoldKinds...))
		return cmd
	})
}

// slotSpec is one --slot.
type slotSpec struct {
	ID   string
	Exts []string
}

// parseSlots reads the --slot values: "ID:EXT[,EXT...]"; an item with a
// colon starts a new slot, one without adds an extension to the last.
func parseSlots(vals []string) ([]slotSpec, error) {
	var out []slotSpec
	seen := map[string]bool{}
	slotID := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	for _, v := range vals {
		var cur *slotSpec
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if id, ext, ok := strings.Cut(item, ":"); ok && !strings.HasPrefix(item, "@") {
				if !slotID.MatchString(id) {
					return nil, fmt.Errorf("slot id %q is not identifier-safe (letters, digits, '_'; not starting with a digit)", id)
				}
				if seen[id] {
					return nil, fmt.Errorf("slot %q given twice", id)
				}
				seen[id] = true
				out = append(out, slotSpec{ID: id})
				cur = &out[len(out)-1]
				item = ext
			}
			if cur == nil {
				return nil, fmt.Errorf("--slot %q: want ID:EXTENSION[,EXTENSION...]", v)
			}
			if item == "" {
				return nil, fmt.Errorf("--slot %q: slot %s needs an accepted artifact extension", v, cur.ID)
			}
			cur.Exts = append(cur.Exts, item)
		}
	}
	return out, nil
}

func runNew(cmd *cobra.Command, dir string, o newOptions) error {
	dir = filepath.Clean(dir)
	slug := filepath.Base(dir)
	pkg, title := o.pkg, o.title
	if pkg == "" {
		vendor := filepath.Base(filepath.Dir(dir))
		if !compile.IsTreeDir(filepath.Base(filepath.Dir(filepath.Dir(dir)))) || !slugPattern.MatchString(vendor) {
			vendor = "local"
		}
		pkg = "@" + vendor + "/" + slug
	}
	pkgSlug, ok := packageSlug(pkg)
	if !ok {
		return usageErrorf("package name %q is not of the form @vendor/slug (lower-case letters, digits, '-', '.', '_')", pkg)
	}
	if title == "" {
		title = titleFromSlug(pkgSlug)
	}
	known := false
	for _, k := range scaffoldKinds {
		known = known || k == o.kind
	}
	if !known {
		return usageErrorf("unknown --kind %q (%s)", o.kind, strings.Join(scaffoldKinds, ", "))
	}
	if o.child != "" && o.kind != "orchestrator" {
		return usageErrorf("--child is for --kind orchestrator (a %s runs no child agent)", o.kind)
	}
	childSlug := ""
	if o.child != "" {
		if childSlug, ok = packageSlug(o.child); !ok {
			return usageErrorf("child package %q is not of the form @vendor/slug", o.child)
		}
		if o.child == pkg {
			return usageErrorf("the agent cannot run itself as its child (%s)", pkg)
		}
	}
	slots, err := parseSlots(o.slots)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
		return usageErrorf("%s exists and is not a directory; new never overwrites files", dir)
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return usageErrorf("%s exists and is not empty; new never overwrites files", dir)
	}

	files, err := renderScaffold(o.kind, pkg, pkgSlug, title, o.child, childSlug)
	if err != nil {
		return usageErrorf("cannot build the scaffold: %v", err)
	}
	if len(slots) > 0 {
		if err := addSlots(files, filepath.Join(dir, "cinatra", "oas.json"), pkg, slots); err != nil {
			return usageErrorf("cannot wire the slots: %v", err)
		}
	}
	var written []string
	for _, rel := range []string{"package.json", "cinatra/oas.json"} {
		out := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return usageErrorf("cannot write the scaffold: %v", err)
		}
		if err := writeNew(out, files[rel]); err != nil {
			return usageErrorf("cannot write the scaffold: %v", err)
		}
		written = append(written, out)
	}
	for _, w := range written {
		fmt.Fprintln(cmd.OutOrStdout(), "created", w)
	}
	if o.child != "" {
		// Inside an agents/ tree that has no package of the child's name,
		// the child is scaffolded too (a leaf, at agents/<vendor>/<slug>):
		// else the new orchestrator would start with workspace_child_missing.
		if msg, err := newChild(dir, o.child); err != nil {
			fmt.Fprintf(cmd.OutOrStdout(), "note: the tree has no %s, and it could not be created (%v): create it before the orchestrator runs\n", o.child, err)
		} else if msg != "" {
			fmt.Fprintln(cmd.OutOrStdout(), msg)
		}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "next: oastui %s\n", dir)
	return nil
}

// newChild scaffolds the child agent child as a leaf at
// agents/<vendor>/<slug> of the tree holding dir, when the tree has no
// package of that name; it says what it created ("" when nothing: no
// tree, or the child is there).
func newChild(dir, child string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	tree := compile.TreeRoot(abs)
	if tree == "" {
		return "", nil
	}
	if _, ok := compile.ScanPackages(tree).ByName[child]; ok {
		return "", nil
	}
	vendor, slug, _ := strings.Cut(strings.TrimPrefix(child, "@"), "/")
	at := filepath.Join(tree, vendor, slug)
	if ents, err := os.ReadDir(at); err == nil && len(ents) > 0 {
		return "", fmt.Errorf("%s exists and is not empty", at)
	}
	files, err := renderScaffold("leaf", child, slug, titleFromSlug(slug), "", "")
	if err != nil {
		return "", err
	}
	for _, rel := range []string{"package.json", "cinatra/oas.json"} {
		out := filepath.Join(at, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", err
		}
		if err := writeNew(out, files[rel]); err != nil {
			return "", err
		}
	}
	if r, err := filepath.Rel(filepath.Dir(abs), at); err == nil {
		at = filepath.Join(filepath.Dir(dir), r)
	}
	return fmt.Sprintf("created %s (the child %s, a leaf: the tree had no package of that name)", at, child), nil
}

// writeNew creates path with data; it fails when path exists (O_EXCL:
// never overwrites, even a file created since the check).
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists; new never overwrites files", path)
		}
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func packageSlug(pkg string) (string, bool) {
	vendor, s, ok := strings.Cut(strings.TrimPrefix(pkg, "@"), "/")
	if !strings.HasPrefix(pkg, "@") || !ok || !slugPattern.MatchString(vendor) || !slugPattern.MatchString(s) {
		return "", false
	}
	return s, true
}

// renderScaffold fills the templates of kind: "package.json" and
// "cinatra/oas.json".
func renderScaffold(kind, pkg, slug, title, child, childSlug string) (map[string][]byte, error) {
	str := func(s string) string {
		b, _ := json.Marshal(s)
		return strings.Trim(string(b), `"`)
	}
	childID, childName, childDesc := "step_flow", title+" step", "a local subflow"
	if child != "" {
		childID, childName, childDesc = strings.NewReplacer("-", "_", ".", "_").Replace(childSlug)+"_flow", titleFromSlug(childSlug), child
	} else {
		childSlug = slug + "-step"
	}
	r := strings.NewReplacer("__PACKAGE__", pkg, "__SLUG__", slug, "__TITLE__", str(title),
		"__CHILD_PKG__", child, "__CHILD_SLUG__", childSlug, "__CHILD_ID__", childID,
		"__CHILD_NAME__", str(childName), "__CHILD_DESC__", str(childDesc))
	out := map[string][]byte{}
	for rel, tmpl := range map[string]string{"package.json": "scaffold/package.json.tmpl", "cinatra/oas.json": "scaffold/kinds/" + kind + ".oas.json.tmpl"} {
		src, err := scaffoldFS.ReadFile(tmpl)
		if err != nil {
			return nil, err
		}
		text := string(src)
		if child == "" { // no child package: the FlowNode runs its local subflow
			var keep []string
			for _, l := range strings.SplitAfter(text, "\n") {
				if !strings.Contains(l, "__CHILD_PKG__") {
					keep = append(keep, l)
				}
			}
			text = strings.Join(keep, "")
		}
		out[rel] = []byte(r.Replace(text))
	}
	if child != "" { // the child is a runtime dependency, in the corpus's form
		d := compile.ParseDoc("package.json", out["package.json"])
		e, err := fix.Insert(d, "/cinatra", "dependencies", fix.Raw(`[{"packageName":`+jsonQuote(child)+
			`,"edgeType":"runtime","versionConstraint":{"kind":"semver-range","range":"^0.1.0"},"requirement":"required","kind":"agent"}]`))
		if err != nil {
			return nil, err
		}
		if out["package.json"], err = edit.Apply(d.Src, []edit.Edit{e}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// addSlots declares the slots in the flow, wires each with
// lint.WireContextSlot (re-parsing between: each wiring is placed before
// the agent's step, after the previous one) and declares the
// context-selection agent in package.json.
func addSlots(files map[string][]byte, flowPath, pkg string, slots []slotSpec) error {
	var decl []any
	for _, s := range slots {
		exts, _ := json.Marshal(s.Exts)
		decl = append(decl, fix.Raw(`{"slotId":`+jsonQuote(s.ID)+`,"acceptedArtifactExtensions":`+string(exts)+
			`,"selectionMode":"interactive","resolutionMode":"accumulate","minItems":0,"maxItems":5}`))
	}
	apply := func(rel string, build func(d *compile.Doc) ([]edit.Edit, error)) error {
		path := rel
		if rel == "cinatra/oas.json" {
			path = flowPath
		}
		d := compile.ParseDoc(path, files[rel])
		if d.Err != nil {
			return d.Err
		}
		es, err := build(d)
		if err != nil {
			return err
		}
		out, err := edit.Apply(d.Src, es)
		if err == nil {
			files[rel] = out
		}
		return err
	}
	err := apply("cinatra/oas.json", func(d *compile.Doc) ([]edit.Edit, error) {
		e, err := fix.Insert(d, "/metadata/cinatra", "contextSlots", fix.Raw("["+joinRaw(decl)+"]"))
		return []edit.Edit{e}, err
	})
	if err != nil {
		return err
	}
	for _, s := range slots {
		err := apply("cinatra/oas.json", func(d *compile.Doc) ([]edit.Edit, error) {
			x, err := lint.WireContextSlot(d, pkg, s.ID)
			return x.Edits, err
		})
		if err != nil {
			return err
		}
	}
	return apply("package.json", func(d *compile.Doc) ([]edit.Edit, error) {
		// In the form the file already uses (a child makes it dependencies[]).
		if deps := d.Root.Path("cinatra", "dependencies"); deps.Is(compile.Array) {
			e, err := fix.Append(d, compile.PointerOf(deps), fix.Raw(`{"packageName":`+jsonQuote(lint.ContextSelectionAgent)+
				`,"edgeType":"runtime","versionConstraint":{"kind":"semver-range","range":"^0.1.1"},"requirement":"required","kind":"agent"}`))
			return []edit.Edit{e}, err
		}
		e, err := fix.Insert(d, "/cinatra", "agentDependencies", map[string]string{lint.ContextSelectionAgent: "^0.1.1"})
		return []edit.Edit{e}, err
	})
}

func joinRaw(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = string(v.(fix.Raw))
	}
	return strings.Join(parts, ",")
}

// titleFromSlug turns "release-notes-agent" into "Release Notes Agent".
func titleFromSlug(slug string) string {
	words := strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}
