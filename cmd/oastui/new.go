package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// The scaffold is a small, valid leaf agent (StartNode → AgentNode → EndNode,
// with the shared LLM config and MCP toolbox from the registry), written so
// that a new agent lints clean and compiles from its first save.
// Placeholders: __PACKAGE__, __SLUG__, __TITLE__.
//
//go:embed scaffold
var scaffoldFS embed.FS

// slugPattern is what npm accepts for the unscoped part of a package name.
var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

func init() {
	subcommands = append(subcommands, func() *cobra.Command {
		var pkg, title string
		cmd := &cobra.Command{
			Use:   "new DIR",
			Short: "Scaffold a valid agent package in DIR",
			Long: "new writes DIR/package.json and DIR/cinatra/oas.json: a leaf agent with one LLM step\n" +
				"that lints clean and compiles. DIR must not exist or be empty. The package name defaults\n" +
				"to @<vendor>/<slug> when DIR is agents/<vendor>/<slug>, else @local/<slug>.",
			Example: "  oastui new agents/acme/summary-agent\n  oastui new my-agent --package @acme/my-agent --title \"My Agent\"",
			Args:    cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runNew(cmd, args[0], pkg, title)
			},
		}
		cmd.Flags().StringVar(&pkg, "package", "", "npm package name (@vendor/slug)")
		cmd.Flags().StringVar(&title, "title", "", "display name of the agent (default: from the slug)")
		return cmd
	})
}

func runNew(cmd *cobra.Command, dir, pkg, title string) error {
	dir = filepath.Clean(dir)
	slug := filepath.Base(dir)
	if pkg == "" {
		vendor := filepath.Base(filepath.Dir(dir))
		if filepath.Base(filepath.Dir(filepath.Dir(dir))) != "agents" || !slugPattern.MatchString(vendor) {
			vendor = "local"
		}
		pkg = "@" + vendor + "/" + slug
	}
	vendor, pkgSlug, ok := strings.Cut(strings.TrimPrefix(pkg, "@"), "/")
	if !strings.HasPrefix(pkg, "@") || !ok || !slugPattern.MatchString(vendor) || !slugPattern.MatchString(pkgSlug) {
		return usageErrorf("package name %q is not of the form @vendor/slug (lower-case letters, digits, '-', '.', '_')", pkg)
	}
	if title == "" {
		title = titleFromSlug(pkgSlug)
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return usageErrorf("%s exists and is not empty; new never overwrites files", dir)
	}
	titleJSON, _ := json.Marshal(title)
	r := strings.NewReplacer("__PACKAGE__", pkg, "__SLUG__", pkgSlug,
		"__TITLE__", strings.Trim(string(titleJSON), `"`))
	var written []string
	err := fs.WalkDir(scaffoldFS, "scaffold", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := scaffoldFS.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, "scaffold/"), ".tmpl")
		out := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, []byte(r.Replace(string(src))), 0o644); err != nil {
			return err
		}
		written = append(written, out)
		return nil
	})
	if err != nil {
		return usageErrorf("cannot write the scaffold: %v", err)
	}
	for _, w := range written {
		fmt.Fprintln(cmd.OutOrStdout(), "created", w)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "next: oastui %s\n", dir)
	return nil
}

// titleFromSlug turns "release-notes-agent" into "Release Notes Agent".
func titleFromSlug(slug string) string {
	words := strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}
