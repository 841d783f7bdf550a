package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/slots"
)

// TestAuditCmdChainBroken: history lost outside oastui (a trigger dropped
// and the last row deleted with the sqlite3 statements of issue 11; then
// the database file itself deleted) makes `oastui audit` exit 1 naming the
// first bad row, and pick refuses to confirm into that store.
func TestAuditCmdChainBroken(t *testing.T) {
	root, agent := slotsTempWorkspace(t, slotsOneSlot, "@v/a", slotsSmallCatalog)
	a, err := compile.Load(agent, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := slots.Prepare(a, "ctx", "", "")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(root, slots.AuditFile)
	sel, _ := slots.NewSelection(p.Slot, p.Offered).Toggle(1)
	env := sel.Envelope()
	for _, run := range []string{"run-1", "run-2"} {
		cmd, _, _ := slotsPickCmd()
		if err := confirmPick(cmd, p, env, db, run, "@v/a", ""); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errs := runSlotsCmd(t, "audit", "--audit", db); code != 0 || errs != "" {
		t.Fatalf("intact trail: exit %d, stderr %q", code, errs)
	}

	raw, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DROP TRIGGER trg_run_context_selections_append_only_delete;
DELETE FROM run_context_selections WHERE parent_run_id = 'run-2'`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	code, out, errs := runSlotsCmd(t, "audit", "--audit", db)
	if code != exitFindings || !strings.Contains(out, "run-1") ||
		!strings.Contains(errs, "HISTORY BROKEN in "+db+": audit chain broken at row 2: the table holds 1 row(s) but the chain head records 2") {
		t.Errorf("truncated trail: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	cmd, out2, _ := slotsPickCmd()
	err = confirmPick(cmd, p, env, db, "run-3", "@v/a", "")
	if err == nil || !strings.Contains(err.Error(), "refusing to record: audit chain broken at row 2") || out2.Len() != 0 {
		t.Errorf("confirm into a broken store: %v, stdout %q", err, out2.String())
	}

	// the database deleted: its head file still says two rows were recorded
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runSlotsCmd(t, "audit", "--audit", db)
	if code != exitFindings || !strings.Contains(errs, "records 2 row(s) but the database holds 0") {
		t.Errorf("deleted database: exit %d, stderr %s", code, errs)
	}
}
