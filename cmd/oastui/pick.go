package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/present"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/slots/audit"
	"github.com/oastui/oastui/tui"
)

func init() { subcommands = append(subcommands, newPickCmd) }

// pickFlags are pick's flags beyond the slot ones.
type pickFlags struct {
	slotFlags
	audit, run, out string
}

func newPickCmd() *cobra.Command {
	var f pickFlags
	cmd := &cobra.Command{
		Use:   "pick PATH --slot ID [--project P] [--catalog FILE] [--audit FILE] [--run ID] [--out FILE]",
		Short: "Pick context for a slot by hand and record it, like the ContextSelector",
		Long: "pick opens the context picker for --slot over the candidates resolved from the catalog.\n" +
			"Confirming writes the userResponse envelope {\"slotId\",\"resolutionMode\",\"selectedRefs\"} to\n" +
			"stdout (or --out) and appends one audit row per selected ref, in one transaction, to --audit\n" +
			"(default .oastui/audit.db at the workspace root). The parent run id is --run (default: a fresh\n" +
			"id, printed on stderr); the parent package is package.json's name. Repeating the same\n" +
			"confirmation writes no new row and says so. Exit 1 when cancelled.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, p, err := prepareSlot("pick", args[0], f.slotFlags)
			if err != nil {
				return err
			}
			pkg, err := slots.PackageName(a)
			if err != nil {
				return usageErrorf("pick: %v", err)
			}
			stderr := cmd.ErrOrStderr()
			run := f.run
			if run == "" {
				run = freshRunID()
				fmt.Fprintf(stderr, "oastui: pick: parent run id %s (fresh; pass --run ID to reuse one)\n", run)
			}
			dbPath := f.audit
			if dbPath == "" {
				dbPath = filepath.Join(slots.WorkspaceRoot(a), slots.AuditFile)
			}

			cfg := tui.PickerConfig{Slot: p.Slot, Candidates: p.Offered, Titles: p.Catalog.Titles(),
				Empty: p.Empty, ProjectID: f.project}
			res, err := tui.Pick(cfg, cmd.OutOrStdout())
			if errors.Is(err, tui.ErrNoTerminal) {
				return usageErrorf("pick: %v", err)
			}
			if err != nil {
				return internalErrorf("pick: %v", err)
			}
			if res == nil || res.Canceled {
				fmt.Fprintln(stderr, "oastui: pick: cancelled; nothing written")
				return &exitError{code: exitFindings}
			}
			return confirmPick(cmd, p, res.Envelope, dbPath, run, pkg, f.out)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&f.audit, "audit", "", "audit database file (default .oastui/audit.db at the workspace root)")
	cmd.Flags().StringVar(&f.run, "run", "", "parent run id recorded in the audit rows (default: a fresh id)")
	cmd.Flags().StringVarP(&f.out, "out", "o", "", "write the userResponse envelope to FILE instead of stdout")
	return cmd
}

// confirmPick revalidates the envelope, appends the audit rows (one
// transaction), then writes the envelope.
func confirmPick(cmd *cobra.Command, p *slots.Prepared, env slots.Envelope, dbPath, run, pkg, out string) error {
	stderr := cmd.ErrOrStderr()
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return usageErrorf("pick: --audit: %v", err)
	}
	store, err := audit.Open(dbPath)
	if err != nil {
		return usageErrorf("pick: %v", err)
	}
	defer store.Close()
	refs, rec, err := audit.Confirm(cmd.Context(), store, p, env, run, pkg)
	if err != nil {
		return internalErrorf("pick: %v", err)
	}
	short := rec.Key
	if len(short) > 12 {
		short = short[:12]
	}
	switch {
	case len(refs) == 0:
		fmt.Fprintf(stderr, "oastui: pick: no ref selected; no audit row written\n")
	case rec.Wrote:
		fmt.Fprintf(stderr, "oastui: pick: audit: wrote %d row(s) for run %s (selection %s) to %s\n", rec.Rows, present.Text(run), short, dbPath)
	default:
		fmt.Fprintf(stderr, "oastui: pick: audit: this selection is already recorded for run %s (selection %s); nothing written\n", present.Text(run), short)
	}
	doc := append(env.JSON(), '\n')
	if out == "" {
		if _, err := cmd.OutOrStdout().Write(doc); err != nil {
			return internalErrorf("pick: %v", err)
		}
		return nil
	}
	if err := edit.WriteFileAtomic(out, doc); err != nil {
		return usageErrorf("pick: --out: %v", err)
	}
	fmt.Fprintf(stderr, "oastui: pick: envelope written to %s\n", out)
	return nil
}

// freshRunID is a random run id ("dev-" and 16 hex digits).
func freshRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "dev-" + hex.EncodeToString(b[:])
}
