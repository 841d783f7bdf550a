package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/slots/audit"
)

// slotsPickCmd is a command with buffers, for calling confirmPick directly
// (the interactive part is covered by views tests and .ci/e2e/picker.sh).
func slotsPickCmd() (*cobra.Command, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	c := &cobra.Command{}
	c.SetOut(&out)
	c.SetErr(&errb)
	c.SetContext(context.Background())
	return c, &out, &errb
}

func TestPickConfirm(t *testing.T) {
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

	// to stdout
	cmd, out, errb := slotsPickCmd()
	if err := confirmPick(cmd, p, env, db, "run-1", "@v/a", ""); err != nil {
		t.Fatal(err)
	}
	var got slots.Envelope
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.SlotID != "ctx" || len(got.SelectedRefs) != 1 || got.SelectedRefs[0].ArtifactID != "b" {
		t.Fatalf("envelope %q %v", out.String(), err)
	}
	if !strings.Contains(errb.String(), "wrote 1 row(s) for run run-1") {
		t.Errorf("stderr %q", errb.String())
	}

	// the same confirmation again, to --out: nothing written to the audit, and it says so
	cmd, out, errb = slotsPickCmd()
	envFile := filepath.Join(root, "env.json")
	if err := confirmPick(cmd, p, env, db, "run-1", "@v/a", envFile); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || !strings.Contains(errb.String(), "already recorded for run run-1") || !strings.Contains(errb.String(), "nothing written") {
		t.Errorf("repeat: stdout %q stderr %q", out.String(), errb.String())
	}
	if b, err := os.ReadFile(envFile); err != nil || string(b) != string(env.JSON())+"\n" {
		t.Errorf("--out file %q %v", b, err)
	}
	// the audit lists one row
	code, text, _ := runSlotsCmd(t, "audit", "--audit", db)
	if code != 0 || strings.Count(text, "\n") != 2 || !strings.Contains(text, "@v/a") || !strings.Contains(text, "workspace") {
		t.Errorf("audit: exit %d\n%s", code, text)
	}

	// a selection the finalize rules refuse writes nothing
	cmd, out, _ = slotsPickCmd()
	err = confirmPick(cmd, p, slots.Envelope{SlotID: "ctx", ResolutionMode: "accumulate"}, db, "run-2", "@v/a", "")
	if err == nil || !strings.Contains(err.Error(), "below_min_items") || out.Len() != 0 {
		t.Errorf("below min: %v, stdout %q", err, out.String())
	}
	forged := env
	forged.SelectedRefs = []slots.Ref{{ArtifactID: "b", RepresentationRevisionID: "old", SemanticAssertionID: "sb"}}
	err = confirmPick(cmd, p, forged, db, "run-2", "@v/a", "")
	if err == nil || !strings.Contains(err.Error(), "ref_not_in_candidates") {
		t.Errorf("forged ref: %v", err)
	}
	_, text, _ = runSlotsCmd(t, "audit", "--audit", db, "--run", "run-2")
	if text != "" {
		t.Errorf("refused confirmations wrote rows:\n%s", text)
	}
	// --out over a FIFO is refused (exit 2) and the FIFO stays a FIFO (last:
	// mkfifo skips the rest of the test where there are no FIFOs)
	fifo := filepath.Join(root, "env.fifo")
	mkfifo(t, fifo)
	cmd, _, _ = slotsPickCmd()
	err = confirmPick(cmd, p, env, db, "run-1", "@v/a", fifo)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitUsage || !strings.Contains(err.Error(), "pick: --out: "+fifo+": not a regular file (a FIFO)") {
		t.Errorf("--out FIFO: %v", err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("the FIFO is now %v (%v)", st.Mode(), err)
	}
}

func TestPickUsageErrors(t *testing.T) {
	_, noName := slotsTempWorkspace(t, slotsOneSlot, "", slotsSmallCatalog)
	code, _, errs := runSlotsCmd(t, "pick", noName, "--slot", "ctx")
	if code != exitUsage || !strings.Contains(errs, "parent package name") {
		t.Errorf("no package name: exit %d %q", code, errs)
	}
	code, _, errs = runSlotsCmd(t, "pick", slotsExampleAgent, "--slot", "nope")
	if code != exitUsage || !strings.Contains(errs, "[context_resolve] no contextSlot with slotId='nope'") {
		t.Errorf("unknown slot: exit %d %q", code, errs)
	}
	code, _, _ = runSlotsCmd(t, "pick", slotsExampleAgent)
	if code != exitUsage {
		t.Errorf("no --slot: exit %d", code)
	}
}

func TestAuditCmd(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	code, out, errs := runSlotsCmd(t, "audit", "--audit", db)
	if code != 0 || out != "" || !strings.Contains(errs, "nothing recorded yet") {
		t.Fatalf("missing db: exit %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("audit created the database")
	}
	store, err := audit.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ref := func(id string) slots.Ref {
		return slots.Ref{ArtifactID: id, RepresentationRevisionID: "r" + id, SemanticAssertionID: "s" + id, Extension: "@v/x", SourceScope: "team"}
	}
	for _, b := range []audit.Batch{
		{OrgID: "o1", ParentRunID: "run-b", ParentPackageName: "@v/a", SlotID: "ctx", SelectionMode: "interactive", SelectedBy: "user", Refs: []slots.Ref{ref("x"), ref("y")}, At: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		{OrgID: "o1", ParentRunID: "run-a", ParentPackageName: "@v/a", SlotID: "ctx", SelectionMode: "interactive", SelectedBy: "user", Refs: []slots.Ref{ref("z\x1b[31m")}, At: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
	} {
		if _, err := store.Record(context.Background(), b, nil); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	code, out, _ = runSlotsCmd(t, "audit", "--audit", db)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "SELECTED_AT") || !strings.Contains(lines[1], "run-b") || !strings.Contains(lines[3], "run-a") {
		t.Fatalf("text: exit %d\n%s", code, out)
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Error("escape sequence from the database printed")
	}
	code, out, _ = runSlotsCmd(t, "audit", "--audit", db, "--run", "run-a", "--format", "json")
	var rows []audit.Row
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 1 || rows[0].ParentRunID != "run-a" {
		t.Fatalf("json: exit %d %v\n%s", code, err, out)
	}
	if code, _, _ := runSlotsCmd(t, "audit", "--audit", db, "--format", "xml"); code != exitUsage {
		t.Errorf("bad format: exit %d", code)
	}
}
