package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/slots"
)

func init() { subcommands = append(subcommands, newResolveCmd) }

// slotFlags are the flags resolve and pick share.
type slotFlags struct {
	slot, project, catalog string
}

func (f *slotFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.slot, "slot", "", "slotId of the context slot (required)")
	cmd.Flags().StringVar(&f.project, "project", "", "resolve inside this project (must be one of the actor's projectIds)")
	cmd.Flags().StringVar(&f.catalog, "catalog", "", "artifact catalog file (default .oastui/catalog.json at the workspace root, the directory holding agents/)")
}

// prepareSlot loads the agent at path and resolves the slot's candidates
// (analysis.PrepareSlot). Every failure is a usage/input error (exit 2).
func prepareSlot(name, path string, f slotFlags) (*compile.Agent, *slots.Prepared, error) {
	if f.slot == "" {
		return nil, nil, usageErrorf("%s: --slot ID is required", name)
	}
	snap, p, err := analysis.PrepareSlot(path, analysis.Options{},
		analysis.SlotQuery{Slot: f.slot, Project: f.project, Catalog: f.catalog})
	if err != nil {
		var se *slots.SlotError
		if errors.As(err, &se) {
			if se.Code == "slot_missing" { // the reference's exact message, then the slots there are
				return nil, nil, usageErrorf("%v\n%s", err, snap.SlotIDsHint())
			}
			return nil, nil, usageErrorf("%v", err) // the reference's exact message
		}
		return nil, nil, usageErrorf("%s: %v", name, err)
	}
	return snap.Agent, p, nil
}

func newResolveCmd() *cobra.Command {
	var f slotFlags
	cmd := &cobra.Command{
		Use:   "resolve PATH --slot ID [--project P] [--catalog FILE]",
		Short: "Resolve a context slot against the dev catalog, like the context_resolve primitive",
		Long: "resolve reads the agent at PATH, finds the context slot --slot in metadata.cinatra.contextSlots\n" +
			"and prints {slotId, resolutionMode, refs} resolved against the catalog (SPEC §5): single-hop\n" +
			"satisfies expansion, eligible assertions only, latest revision pinned, project fail-closed,\n" +
			"scope order project < user < team < organization < workspace, override keeps the narrowest tier,\n" +
			"truncated to maxItems. An unknown or duplicated slotId exits 2 with the reference's message.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, p, err := prepareSlot("resolve", args[0], f)
			if err != nil {
				return err
			}
			out := analysis.ResolutionOf(p)
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(out); err != nil {
				return internalErrorf("resolve: %v", err)
			}
			if _, err := cmd.OutOrStdout().Write(b.Bytes()); err != nil {
				return internalErrorf("resolve: %v", err)
			}
			if p.Empty.Code != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "oastui: resolve: no candidates: %s\n", p.Empty.Message)
			}
			return nil
		},
	}
	f.register(cmd)
	return cmd
}
