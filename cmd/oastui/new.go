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
// --slot declares context slots in the slim form (addSlots): the WayFlow
// loader injects each slot's context step at mount.
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
				"subflow). --slot ID:EXTENSION[,EXTENSION...] declares a context slot in the slim form the\n" +
				"platform recommends: the declaration and the step's bindings input; the WayFlow loader\n" +
				"injects the context step at mount (repeat the flag, or ID:EXT,ID2:EXT, for more).\n" +
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
		cmd.Flags().StringArrayVar(&o.slots, "slot", nil, "a context slot ID:EXTENSION[,EXTENSION...] in the slim form, fed to the agent's step (repeatable)")
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

// addSlots writes the slots in the slim form, the one the platform now
// recommends (cinatra-ai/cinatra docker/wayflow/context_subflow_injection.py
// @b76ddc22, cinatra#1194: "Agent authors declare only
// metadata.cinatra.contextSlots; the loader injects the canonical ...
// subflow at mount"): the declaration; on the agent's step (the node the
// StartNode leads to) the input the loader wires, contextSlotBindings for
// one slot, <slot>ContextSlotBindings for each of several; the
// context-selector screen in hitlScreens; and the context-selection agent
// as a runtime, required entry of package.json's canonical
// cinatra.dependencies[] list. metadata.cinatra.packageName, the loader's
// owner package, is in every scaffold.
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
		if err != nil {
			return nil, err
		}
		es := []edit.Edit{e}
		const screen = lint.ContextSelectionAgent + ":context-selector"
		if hs := d.Root.Path("metadata", "cinatra", "hitlScreens"); hs.Is(compile.Array) {
			has := false
			for _, it := range hs.Items {
				has = has || it.StringOr("") == screen
			}
			if !has {
				e, err := fix.Append(d, compile.PointerOf(hs), screen)
				if err != nil {
					return nil, err
				}
				es = append(es, e)
			}
		}
		return es, nil
	})
	if err != nil {
		return err
	}
	for _, s := range slots { // one input per pass: two appends to one list would overlap
		title := "contextSlotBindings"
		if len(slots) > 1 {
			title = s.ID + "ContextSlotBindings"
		}
		input := `{"title":` + jsonQuote(title) + `,"type":"array","items":{"type":"object"}}`
		err := apply("cinatra/oas.json", func(d *compile.Doc) ([]edit.Edit, error) {
			step, err := slotConsumerStep(d)
			if err != nil {
				return nil, err
			}
			if in := step.Get("inputs"); in != nil {
				e, err := fix.Append(d, compile.PointerOf(in), fix.Raw(input))
				return []edit.Edit{e}, err
			}
			// A FlowNode that declares no inputs takes its subflow's: the
			// loader reads the node's own, so they are declared, then the
			// bindings input.
			list := []string{}
			if id, ok := compile.RefID(step.Get("subflow")); ok {
				if in := d.Root.Get("$referenced_components").Get(id).Get("inputs"); in.Is(compile.Array) {
					for _, it := range in.Items {
						b, err := json.Marshal(it.Interface())
						if err != nil {
							return nil, err
						}
						list = append(list, string(b))
					}
				}
			}
			e, err := fix.Insert(d, compile.PointerOf(step), "inputs", fix.Raw("["+strings.Join(append(list, input), ",")+"]"))
			return []edit.Edit{e}, err
		})
		if err != nil {
			return err
		}
	}
	return apply("package.json", func(d *compile.Doc) ([]edit.Edit, error) {
		entry := `{"packageName":` + jsonQuote(lint.ContextSelectionAgent) +
			`,"edgeType":"runtime","versionConstraint":{"kind":"semver-range","range":"^0.1.1"},"requirement":"required","kind":"agent"}`
		if deps := d.Root.Path("cinatra", "dependencies"); deps.Is(compile.Array) {
			e, err := fix.Append(d, compile.PointerOf(deps), fix.Raw(entry))
			return []edit.Edit{e}, err
		}
		e, err := fix.Insert(d, "/cinatra", "dependencies", fix.Raw("["+entry+"]"))
		return []edit.Edit{e}, err
	})
}

// slotConsumerStep is the scaffold's step the slots feed: the component
// the StartNode's control edge leads to.
func slotConsumerStep(d *compile.Doc) (*compile.Node, error) {
	refs := d.Root.Get("$referenced_components")
	start, _ := compile.RefID(d.Root.Get("start_node"))
	if edges := d.Root.Get("control_flow_connections"); edges.Is(compile.Array) {
		for _, e := range edges.Items {
			if from, _ := compile.RefID(e.Get("from_node")); from != start {
				continue
			}
			to, _ := compile.RefID(e.Get("to_node"))
			if c := refs.Get(to); c.Is(compile.Object) {
				if in := c.Get("inputs"); in == nil || in.Is(compile.Array) {
					return c, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("the scaffold's start leads to no step that takes inputs")
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
