package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/slots/audit"
)

func init() { subcommands = append(subcommands, newAuditCmd) }

// auditPathFor is the audit database for an explicit --audit, or the
// default .oastui/audit.db at the workspace root of PATH (or of the
// current directory).
func auditPathFor(flag, path string) string {
	if flag != "" {
		return flag
	}
	root := ""
	if path != "" {
		if a, err := compile.Load(path, compile.LoadOptions{}); err == nil {
			root = slots.WorkspaceRoot(a)
		} else {
			root = slots.FindWorkspaceRoot(path)
		}
	} else {
		root = slots.FindWorkspaceRoot(".")
	}
	return filepath.Join(root, slots.AuditFile)
}

func newAuditCmd() *cobra.Command {
	var auditFlag, run, format string
	cmd := &cobra.Command{
		Use:   "audit [PATH] [--run ID] [--audit FILE]",
		Short: "List the recorded context selections (run_context_selections)",
		Long: "audit lists the rows of the append-only audit table, ordered by selected_at then id. The\n" +
			"database is --audit, else .oastui/audit.db at the workspace root of PATH (default: the current\n" +
			"directory). --run keeps one parent run.\n\n" +
			"Every run verifies the trail's hash chain (each row carries the hash of the row before it; the\n" +
			"chain head is kept in the database and in FILE.chain beside it). A rewritten, truncated or\n" +
			"dropped history is reported on stderr, naming the first bad row, with exit status 1.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("audit: unknown --format %q (text or json)", format)
			}
			path := ""
			if len(args) == 1 {
				path = args[0]
			}
			db := auditPathFor(auditFlag, path)
			_, headErr := os.Lstat(audit.HeadFile(db))
			if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) && errors.Is(headErr, fs.ErrNotExist) {
				fmt.Fprintf(cmd.ErrOrStderr(), "oastui: audit: no audit database at %s: nothing recorded yet\n", db)
				if format == "json" {
					fmt.Fprintln(cmd.OutOrStdout(), "[]")
				}
				return nil
			}
			store, err := audit.Open(db)
			if err != nil {
				return usageErrorf("audit: %v", err)
			}
			defer store.Close()
			rows, err := store.List(cmd.Context(), run)
			if err != nil {
				return internalErrorf("audit: %v", err)
			}
			verr := store.Verify(cmd.Context())
			if verr != nil && !errors.Is(verr, audit.ErrChainBroken) {
				return internalErrorf("audit: %v", verr)
			}
			var b bytes.Buffer
			if format == "json" {
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rows); err != nil {
					return internalErrorf("audit: %v", err)
				}
			} else {
				writeAuditText(&b, rows)
			}
			if _, err := cmd.OutOrStdout().Write(b.Bytes()); err != nil {
				return internalErrorf("audit: %v", err)
			}
			if len(rows) == 0 {
				what := "no selections recorded"
				if run != "" {
					what += " for run " + cleanText(run)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "oastui: audit: %s in %s\n", what, db)
			}
			if verr != nil {
				return &exitError{code: exitFindings, msg: fmt.Sprintf("audit: HISTORY BROKEN in %s: %s\n"+
					"  The audit trail was rewritten, truncated or dropped outside oastui; the rows listed are what is left.\n"+
					"  Nothing more will be recorded into this database (pick refuses to confirm) until it is investigated;\n"+
					"  to start a new trail, move %s and %s aside.", db, cleanText(verr.Error()), db, audit.HeadFile(db))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&auditFlag, "audit", "", "audit database file (default .oastui/audit.db at the workspace root)")
	cmd.Flags().StringVar(&run, "run", "", "only the rows of this parent run id")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	mustRegister(cmd, "format", completeValues("text", "json"))
	return cmd
}

// writeAuditText prints one row per line in aligned columns; the id is
// shortened to the first 12 hex digits of its selectionKey and the index.
func writeAuditText(b *bytes.Buffer, rows []audit.Row) {
	if len(rows) == 0 {
		return
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SELECTED_AT\tID\tRUN\tPACKAGE\tSLOT\tSCOPE\tARTIFACT\tREVISION\tASSERTION\tEXTENSION\tBY\tMODE")
	for _, r := range rows {
		id := r.ID
		if i := len(id) - len(lastColonPart(id)); len(id) > 12 && i > 12 {
			id = id[:12] + "…" + id[i-1:]
		}
		c := cleanText
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c(r.SelectedAt), c(id), c(r.ParentRunID),
			c(r.ParentPackageName), c(r.SlotID), c(r.SourceScope), c(r.ArtifactID), c(r.RepresentationRevisionID),
			c(r.SemanticAssertionID), c(r.Extension), c(r.SelectedBy), c(r.SelectionMode))
	}
	tw.Flush()
}

// lastColonPart is the text after the last ':' of s ("" when none).
func lastColonPart(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return s[i+1:]
		}
	}
	return ""
}
