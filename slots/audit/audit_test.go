package audit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/oastui/oastui/slots"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testActor is the actor of the audit tests' catalog.
var testActor = slots.Actor{UserID: "u1", OrganizationID: "o1", WorkspaceID: "w1"}

// cands are n refs a, b, … of auditCatalog's artifacts.
func cands(n int) []slots.Ref {
	out := make([]slots.Ref, n)
	for i := range out {
		id := string(rune('a' + i))
		out[i] = slots.Ref{ArtifactID: id, RepresentationRevisionID: "r" + id, SemanticAssertionID: "s" + id, Extension: "@v/x", SourceScope: slots.ScopeUser, OwnerID: "u1"}
	}
	return out
}

// auditCatalog is a catalog whose artifacts a..f each have revision r<id>
// and assertion s<id> of @v/x (what cands() produces).
func auditCatalog() *slots.Catalog {
	c := &slots.Catalog{Actor: testActor}
	for i := 0; i < 6; i++ {
		id := string(rune('a' + i))
		c.Artifacts = append(c.Artifacts, slots.Artifact{ArtifactID: id, OwnerLevel: slots.ScopeUser, OwnerID: "u1",
			Assertions: []slots.Assertion{{SemanticAssertionID: "s" + id, Extension: "@v/x", Eligibility: slots.Eligible}},
			Revisions:  []slots.Revision{{RepresentationRevisionID: "r" + id, CreatedAt: "2026-01-01T00:00:00Z"}}})
	}
	return c
}

func batch(run string, refs []slots.Ref) Batch {
	return Batch{OrgID: "o1", ParentRunID: run, ParentPackageName: "@v/agent", SlotID: "ctx",
		SelectionMode: slots.Interactive, SelectedBy: "user", Refs: refs}
}

func openTemp(t *testing.T) (*Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, path
}

func count(t *testing.T, a *Log) int {
	t.Helper()
	var n int
	if err := a.db.QueryRow(`SELECT count(*) FROM run_context_selections`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAuditAppendOnly(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	if _, err := a.Record(ctx, batch("run1", cands(2)), auditCatalog()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ op, sql string }{
		{"UPDATE", `UPDATE run_context_selections SET artifact_id = 'x'`},
		{"UPDATE", `UPDATE run_context_selections SET selected_at = '1970' WHERE id LIKE '%:0'`},
		{"DELETE", `DELETE FROM run_context_selections`},
		{"DELETE", `DELETE FROM run_context_selections WHERE parent_run_id = 'run1'`},
	} {
		_, err := a.db.Exec(tc.sql)
		if err == nil || !strings.Contains(err.Error(), AppendOnlyMessage(tc.op)) {
			t.Errorf("%s: got %v, want the append-only message", tc.sql, err)
		}
	}
	if n := count(t, a); n != 2 {
		t.Fatalf("rows after refused statements: %d, want 2", n)
	}
	// The CHECK constraints are the database's too.
	for _, col := range []string{"source_scope", "selected_by", "selection_mode"} {
		_, err := a.db.Exec(`INSERT INTO run_context_selections (id, org_id, parent_run_id, parent_package_name, slot_id,
			artifact_id, representation_revision_id, semantic_assertion_id, extension, source_scope, selected_by, selection_mode)
			VALUES ('x-` + col + `', 'o', 'r', 'p', 's', 'a', 'r', 's', 'e',
			` + map[bool]string{true: "'galaxy'", false: "'user'"}[col == "source_scope"] + `,
			` + map[bool]string{true: "'robot'", false: "'user'"}[col == "selected_by"] + `,
			` + map[bool]string{true: "'manual'", false: "'interactive'"}[col == "selection_mode"] + `)`)
		if err == nil || !strings.Contains(err.Error(), "CHECK") {
			t.Errorf("%s CHECK: got %v", col, err)
		}
	}
}

func TestSelectionKey(t *testing.T) {
	b := batch("run1", []slots.Ref{cands(2)[1], cands(2)[0], cands(2)[1]})
	js := `{"parentRunId":"run1","parentPackageName":"@v/agent","slotId":"ctx","selectionMode":"interactive","triples":[["a","ra","sa"],["b","rb","sb"]]}`
	sum := sha256.Sum256([]byte(js))
	if got, want := SelectionKey(b), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("SelectionKey = %s, want sha256 of %s = %s", got, js, want)
	}
	odd := batch("r\"<&>\u2028\x01", nil)
	js = `{"parentRunId":"r\"<&>` + "\u2028" + `\u0001","parentPackageName":"@v/agent","slotId":"ctx","selectionMode":"interactive","triples":[]}`
	sum = sha256.Sum256([]byte(js))
	if got, want := SelectionKey(odd), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("JSON.stringify escaping differs: %s vs %s", got, want)
	}
}

func TestAuditIdempotent(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	cs := cands(3)
	r1, err := a.Record(ctx, batch("run1", cs), auditCatalog())
	if err != nil || !r1.Wrote || r1.Rows != 3 {
		t.Fatalf("first: %+v %v", r1, err)
	}
	for i := 0; i < 3; i++ {
		if !strings.HasPrefix(mustList(t, a, "run1")[i].ID, r1.Key+":"+strconv.Itoa(i)) {
			t.Fatalf("row ids are not <selectionKey>:<i>")
		}
	}
	// Same selection again, refs in another order and one duplicated: nothing written.
	r2, err := a.Record(ctx, batch("run1", []slots.Ref{cs[2], cs[0], cs[1], cs[0]}), auditCatalog())
	if err != nil || r2.Wrote || r2.Key != r1.Key || r2.Rows != 0 {
		t.Fatalf("repeat: %+v %v", r2, err)
	}
	// A correction is a new selection: new rows.
	r3, err := a.Record(ctx, batch("run1", cs[:1]), auditCatalog())
	if err != nil || !r3.Wrote || r3.Key == r1.Key {
		t.Fatalf("correction: %+v %v", r3, err)
	}
	if n := count(t, a); n != 4 {
		t.Fatalf("rows = %d, want 4", n)
	}
	// An empty selection writes nothing.
	if r, err := a.Record(ctx, batch("run1", nil), auditCatalog()); err != nil || r.Wrote || r.Rows != 0 {
		t.Fatalf("empty: %+v %v", r, err)
	}
}

func TestAuditCoherence(t *testing.T) {
	a, _ := openTemp(t)
	cat := auditCatalog()
	cat.Artifacts[1].Deleted = true
	good := cands(4)[3]
	tests := []struct {
		name string
		ref  slots.Ref
		org  string
		want string
	}{
		{"unknown artifact", slots.Ref{ArtifactID: "zz", RepresentationRevisionID: "ra", SemanticAssertionID: "sa", Extension: "@v/x", SourceScope: slots.ScopeUser}, "o1", "does not exist"},
		{"deleted artifact", cands(2)[1], "o1", "is deleted"},
		{"revision of another artifact", slots.Ref{ArtifactID: "a", RepresentationRevisionID: "rc", SemanticAssertionID: "sa", Extension: "@v/x", SourceScope: slots.ScopeUser}, "o1", "representation revision"},
		{"assertion of another artifact", slots.Ref{ArtifactID: "a", RepresentationRevisionID: "ra", SemanticAssertionID: "sc", Extension: "@v/x", SourceScope: slots.ScopeUser}, "o1", "semantic assertion"},
		{"extension mismatch", slots.Ref{ArtifactID: "a", RepresentationRevisionID: "ra", SemanticAssertionID: "sa", Extension: "@v/y", SourceScope: slots.ScopeUser}, "o1", "not \"@v/y\""},
		{"other organization", good, "o2", "organization"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := batch("run1", []slots.Ref{good, tc.ref})
			b.OrgID = tc.org
			_, err := a.Record(context.Background(), b, cat)
			if !errors.Is(err, ErrCoherence) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a coherence error with %q", err, tc.want)
			}
			if n := count(t, a); n != 0 {
				t.Fatalf("%d rows written", n)
			}
		})
	}
}

func TestAuditFailureMidBatchLeavesNothing(t *testing.T) {
	t.Run("database refuses the third row", func(t *testing.T) {
		a, _ := openTemp(t)
		refs := cands(3)
		refs[2].SourceScope = "galaxy" // passes coherence, fails the CHECK on insert
		_, err := a.Record(context.Background(), batch("run1", refs), nil)
		if err == nil || !strings.Contains(err.Error(), "row 2") {
			t.Fatalf("got %v", err)
		}
		if n := count(t, a); n != 0 {
			t.Fatalf("%d rows of a failed batch remain", n)
		}
		// the same selection, fixed, is then written in full
		refs[2].SourceScope = slots.ScopeUser
		if r, err := a.Record(context.Background(), batch("run1", refs), nil); err != nil || !r.Wrote || count(t, a) != 3 {
			t.Fatalf("retry: %+v %v", r, err)
		}
	})
	t.Run("error between rows", func(t *testing.T) {
		a, _ := openTemp(t)
		a.afterRow = func(i int) error {
			if i == 1 {
				return errors.New("injected")
			}
			return nil
		}
		if _, err := a.Record(context.Background(), batch("run1", cands(3)), nil); err == nil {
			t.Fatal("no error")
		}
		if n := count(t, a); n != 0 {
			t.Fatalf("%d rows of a failed batch remain", n)
		}
	})
}

// TestAuditHelperProcess is not a test: the tests below run the test
// binary again with AUDIT_HELPER set, as a second process.
func TestAuditHelperProcess(t *testing.T) {
	mode := os.Getenv("AUDIT_HELPER")
	if mode == "" {
		t.Skip("helper process only")
	}
	a, err := Open(os.Getenv("AUDIT_DB"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	switch mode {
	case "crash":
		a.afterRow = func(i int) error {
			if i == 1 {
				os.Exit(7) // dies holding an open transaction with one row inserted
			}
			return nil
		}
		_, _ = a.Record(ctx, batch("crash-run", cands(3)), nil)
		os.Exit(1) // not reached
	case "writer":
		who := os.Getenv("AUDIT_WHO")
		cs := cands(6)
		for i := 0; i < 10; i++ {
			// a selection only this process makes, and one every process makes
			own := batch(fmt.Sprintf("run-%s-%d", who, i), cs[i%6:i%6+1])
			shared := batch(fmt.Sprintf("shared-%d", i), cs[:3])
			for _, b := range []Batch{own, shared} {
				if _, err := a.Record(ctx, b, nil); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(3)
				}
			}
		}
		a.Close()
		os.Exit(0)
	}
}

func helper(t *testing.T, mode, db, who string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestAuditHelperProcess$")
	cmd.Env = append(os.Environ(), "AUDIT_HELPER="+mode, "AUDIT_DB="+db, "AUDIT_WHO="+who)
	return cmd
}

func TestAuditCrashBetweenRowsLeavesNothing(t *testing.T) {
	a, path := openTemp(t)
	out, err := helper(t, "crash", path, "").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("helper did not crash as planned: %v\n%s", err, out)
	}
	if n := count(t, a); n != 0 {
		t.Fatalf("%d rows of the crashed batch remain", n)
	}
	if err := a.Verify(context.Background()); err != nil {
		t.Fatalf("chain after the crash: %v", err)
	}
	// the database is usable afterwards and the selection can be made again
	if r, err := a.Record(context.Background(), batch("crash-run", cands(3)), nil); err != nil || !r.Wrote {
		t.Fatalf("after crash: %+v %v", r, err)
	}
}

func TestAuditConcurrentProcesses(t *testing.T) {
	a, path := openTemp(t)
	const procs = 3
	cmds := make([]*exec.Cmd, procs)
	outs := make([]strings.Builder, procs)
	for i := range cmds {
		cmds[i] = helper(t, "writer", path, strconv.Itoa(i))
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i, err, outs[i].String())
		}
	}
	// each process: 10 own one-row selections; together: 10 shared three-row selections once
	if n, want := count(t, a), procs*10+10*3; n != want {
		t.Fatalf("rows = %d, want %d (lost or duplicated)", n, want)
	}
	if err := a.Verify(context.Background()); err != nil {
		t.Fatalf("the chain is not linear after concurrent writers: %v", err)
	}
	var dup int
	if err := a.db.QueryRow(`SELECT count(*) FROM (SELECT parent_run_id, artifact_id FROM run_context_selections GROUP BY 1, 2 HAVING count(*) > 1)`).Scan(&dup); err != nil || dup != 0 {
		t.Fatalf("duplicated selections: %d %v", dup, err)
	}
}

func TestAuditConcurrentConnections(t *testing.T) {
	_, path := openTemp(t)
	const workers = 6
	var wg sync.WaitGroup
	wrote := make([]int, workers)
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			a, err := Open(path) // a separate connection pool per worker
			if err != nil {
				errs[w] = err
				return
			}
			defer a.Close()
			for i := 0; i < 5; i++ {
				for _, b := range []Batch{batch(fmt.Sprintf("own-%d-%d", w, i), cands(2)), batch(fmt.Sprintf("same-%d", i), cands(4))} {
					r, err := a.Record(context.Background(), b, auditCatalog())
					if err != nil {
						errs[w] = err
						return
					}
					if r.Wrote && strings.HasPrefix(b.ParentRunID, "same-") {
						wrote[w]++
					}
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for _, n := range wrote {
		total += n
	}
	if total != 5 {
		t.Errorf("shared selections written %d times, want exactly 5", total)
	}
	a, _ := Open(path)
	defer a.Close()
	if n, want := count(t, a), workers*5*2+5*4; n != want {
		t.Fatalf("rows = %d, want %d", n, want)
	}
	if err := a.Verify(context.Background()); err != nil {
		t.Fatalf("the chain is not linear after concurrent writers: %v", err)
	}
}

func mustList(t *testing.T, a *Log, run string) []Row {
	t.Helper()
	rows, err := a.List(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestAuditListOrder(t *testing.T) {
	a, _ := openTemp(t)
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		run string
		at  time.Time
		n   int
	}{{"late", base.Add(time.Hour), 1}, {"early", base, 2}, {"late", base.Add(-time.Hour), 1}} {
		b := batch(tc.run, cands(6)[i:i+tc.n])
		b.At = tc.at
		if _, err := a.Record(context.Background(), b, auditCatalog()); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range mustList(t, a, "") {
		got = append(got, r.SelectedAt+" "+r.ParentRunID+" "+r.ArtifactID)
	}
	want := []string{"2026-03-01T11:00:00.000Z late c", "2026-03-01T12:00:00.000Z early b", "2026-03-01T12:00:00.000Z early c", "2026-03-01T13:00:00.000Z late a"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rows := mustList(t, a, "late"); len(rows) != 2 || rows[0].ArtifactID != "c" {
		t.Errorf("--run filter: %+v", rows)
	}
	r := mustList(t, a, "early")[0]
	if r.OrgID != "o1" || r.ParentPackageName != "@v/agent" || r.SlotID != "ctx" || r.SourceScope != "user" || r.SelectedBy != "user" || r.SelectionMode != "interactive" || r.Extension != "@v/x" || r.RepresentationRevisionID != "rb" || r.SemanticAssertionID != "sb" {
		t.Errorf("row fields: %+v", r)
	}
}

func TestOpenAuditNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "audit.db")
	mkfifo(t, fifo)
	for _, p := range []string{fifo, dir} {
		if a, err := Open(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			if a != nil {
				a.Close()
			}
			t.Errorf("%s: got %v, want a refusal", p, err)
		}
	}
}

func TestOpenAuditOddPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a b#c?d%20e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := Open(filepath.Join(dir, "audit.db"))
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "audit.db" {
		t.Fatalf("the database went elsewhere: %v", ents)
	}
}

// legacySchema is the table as oastui created it before the hash chain.
var legacySchema = []string{
	`CREATE TABLE run_context_selections (
  id text PRIMARY KEY NOT NULL, org_id text NOT NULL, parent_run_id text NOT NULL, parent_package_name text NOT NULL,
  slot_id text NOT NULL, artifact_id text NOT NULL, representation_revision_id text NOT NULL,
  semantic_assertion_id text NOT NULL, extension text NOT NULL, source_scope text NOT NULL, selected_by text NOT NULL,
  selection_mode text NOT NULL, selected_at text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CONSTRAINT rcs_source_scope_check CHECK (source_scope IN ('user','team','organization','workspace','project')),
  CONSTRAINT rcs_selected_by_check CHECK (selected_by IN ('user','agent','autonomous')),
  CONSTRAINT rcs_selection_mode_check CHECK (selection_mode IN ('interactive','autonomous')))`,
	`CREATE INDEX rcs_run_idx ON run_context_selections (org_id, parent_run_id, selected_at)`,
	`CREATE TRIGGER trg_run_context_selections_append_only_update BEFORE UPDATE ON run_context_selections FOR EACH ROW
  BEGIN SELECT RAISE(ABORT, '` + AppendOnlyMessage("UPDATE") + `'); END`,
	`CREATE TRIGGER trg_run_context_selections_append_only_delete BEFORE DELETE ON run_context_selections FOR EACH ROW
  BEGIN SELECT RAISE(ABORT, '` + AppendOnlyMessage("DELETE") + `'); END`,
	`INSERT INTO run_context_selections VALUES ('k2:0','o1','run0','@v/agent','ctx','b','rb','sb','@v/x','user','user','interactive','2026-01-02T00:00:00.000Z')`,
	`INSERT INTO run_context_selections VALUES ('k1:0','o1','run0','@v/agent','ctx','a','ra','sa','@v/x','user','user','interactive','2026-01-01T00:00:00.000Z')`,
}

// TestAuditMigratesLegacyTable: a database written before the chain is
// migrated on open: the rows are kept and chained in insertion order, the
// append-only triggers still hold, and new rows extend the chain.
func TestAuditMigratesLegacyTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range legacySchema {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	if err := a.Verify(ctx); err != nil {
		t.Fatalf("migrated chain: %v", err)
	}
	var got []string
	rows, err := a.db.Query(`SELECT id, chain_seq FROM run_context_selections ORDER BY chain_seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var seq int
		rows.Scan(&id, &seq)
		got = append(got, fmt.Sprintf("%s=%d", id, seq))
	}
	rows.Close()
	if strings.Join(got, " ") != "k2:0=1 k1:0=2" {
		t.Errorf("chain order %v, want insertion order", got)
	}
	if _, err := a.db.Exec(`UPDATE run_context_selections SET artifact_id = 'x'`); err == nil || !strings.Contains(err.Error(), AppendOnlyMessage("UPDATE")) {
		t.Errorf("the UPDATE trigger did not survive the migration: %v", err)
	}
	if _, err := a.Record(ctx, batch("run1", cands(2)), auditCatalog()); err != nil {
		t.Fatal(err)
	}
	if err := a.Verify(ctx); err != nil || count(t, a) != 4 {
		t.Fatalf("after a new record: %d rows, %v", count(t, a), err)
	}
	// opening again is a no-op
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestAuditHeadFile(t *testing.T) {
	a, path := openTemp(t)
	ctx := context.Background()
	if _, err := os.Stat(HeadFile(path)); err == nil {
		t.Fatal("head file written before any row")
	}
	if _, err := a.Record(ctx, batch("run1", cands(2)), nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(HeadFile(path))
	if err != nil || !strings.HasPrefix(string(b), "oastui audit chain head v1\nseq 2\nhead ") {
		t.Fatalf("head file %q %v", b, err)
	}
	// a head file that lags behind the database is fine; one that is garbled
	// or names a different row is a break
	if _, err := a.Record(ctx, batch("run2", cands(1)), nil); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(HeadFile(path), b, 0o644))
	if err := a.Verify(ctx); err != nil {
		t.Fatalf("lagging head file: %v", err)
	}
	must(os.WriteFile(HeadFile(path), []byte(strings.Replace(string(b), "seq 2", "seq 1", 1)), 0o644))
	if err := a.Verify(ctx); !errors.Is(err, ErrChainBroken) || !strings.Contains(err.Error(), "row 1: the row's hash differs from the one in the chain head file") {
		t.Fatalf("head file naming another row: %v", err)
	}
	must(os.WriteFile(HeadFile(path), []byte("junk"), 0o644))
	if err := a.Verify(ctx); !errors.Is(err, ErrChainBroken) || !strings.Contains(err.Error(), "is not one oastui wrote") {
		t.Fatalf("garbled head file: %v", err)
	}
}

func BenchmarkAuditRecord(b *testing.B) {
	a, err := Open(filepath.Join(b.TempDir(), "audit.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	refs := cands(5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.Record(context.Background(), batch(fmt.Sprint("run-", i), refs), nil); err != nil {
			b.Fatal(err)
		}
	}
}
