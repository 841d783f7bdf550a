package audit

import (
	"context"
	"database/sql"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// auditAttacks are the statements of issue 11 item 3 (and their close
// relatives) that try to rewrite or lose the audit history. Each gets the
// table's column list (cols), the same list with artifact_id forged (forged),
// the literal values of the first row with artifact_id forged (values), and
// the ids of the first and the last row.
var auditAttacks = []struct {
	name string
	sql  func(cols, forged, values, first, last string) string
}{
	{"INSERT OR REPLACE VALUES over an existing id", func(cols, forged, values, first, last string) string {
		return `INSERT OR REPLACE INTO run_context_selections (` + cols + `) VALUES (` + values + `)`
	}},
	{"REPLACE INTO ... SELECT over every row", func(cols, forged, values, first, last string) string {
		return `REPLACE INTO run_context_selections (` + cols + `) SELECT ` + forged + ` FROM run_context_selections`
	}},
	{"INSERT OR REPLACE over an existing rowid", func(cols, forged, values, first, last string) string {
		return `INSERT OR REPLACE INTO run_context_selections (rowid, ` + cols + `) SELECT rowid, ` +
			strings.Replace(forged, "id,", "'forged-id',", 1) + ` FROM run_context_selections WHERE id = '` + first + `'`
	}},
	{"INSERT OR REPLACE over an existing rowid only (fresh id and chain_seq)", func(cols, forged, values, first, last string) string {
		return `INSERT OR REPLACE INTO run_context_selections (rowid, ` + cols + `) SELECT rowid, ` +
			strings.Replace(strings.Replace(forged, "id,", "'forged-id',", 1), "chain_seq,", "99,", 1) + ` FROM run_context_selections WHERE id = '` + first + `'`
	}},
	{"drop the REPLACE trigger, REPLACE INTO ... SELECT", func(cols, forged, values, first, last string) string {
		return `DROP TRIGGER IF EXISTS trg_run_context_selections_append_only_replace;
REPLACE INTO run_context_selections (` + cols + `) SELECT ` + forged + ` FROM run_context_selections`
	}},
	{"append a forged row at the end of the chain", func(cols, forged, values, first, last string) string {
		return `INSERT INTO run_context_selections (` + cols + `) SELECT ` +
			override(forged, map[string]string{"id": "'forged-id'", "chain_seq": "chain_seq + 1", "prev_hash": "row_hash", "row_hash": "'0000'"}) +
			` FROM run_context_selections WHERE id = '` + last + `'`
	}},
	{"upsert ON CONFLICT DO UPDATE", func(cols, forged, values, first, last string) string {
		return `INSERT INTO run_context_selections (` + cols + `) SELECT ` + cols + ` FROM run_context_selections WHERE true
  ON CONFLICT(id) DO UPDATE SET artifact_id = 'forged'`
	}},
	{"DROP TABLE", func(cols, forged, values, first, last string) string {
		return `DROP TABLE run_context_selections`
	}},
	{"DROP TABLE of the table and its chain head", func(cols, forged, values, first, last string) string {
		return `DROP TABLE run_context_selections; DROP TABLE IF EXISTS run_context_selections_chain`
	}},
	{"drop the DELETE trigger, delete the last row", func(cols, forged, values, first, last string) string {
		return `DROP TRIGGER trg_run_context_selections_append_only_delete; DELETE FROM run_context_selections WHERE id = '` + last + `'`
	}},
	{"drop the DELETE trigger, delete the first row", func(cols, forged, values, first, last string) string {
		return `DROP TRIGGER trg_run_context_selections_append_only_delete; DELETE FROM run_context_selections WHERE id = '` + first + `'`
	}},
	{"drop the UPDATE trigger, rewrite a row", func(cols, forged, values, first, last string) string {
		return `DROP TRIGGER trg_run_context_selections_append_only_update; UPDATE run_context_selections SET artifact_id = 'forged' WHERE id = '` + first + `'`
	}},
	{"drop every trigger, delete the last row and roll the head back", func(cols, forged, values, first, last string) string {
		return `DROP TRIGGER trg_run_context_selections_append_only_delete;
DROP TRIGGER IF EXISTS trg_run_context_selections_chain_update;
DELETE FROM run_context_selections WHERE id = '` + last + `';
UPDATE run_context_selections_chain SET seq = seq - 1, head = (SELECT row_hash FROM run_context_selections WHERE chain_seq = (SELECT seq - 1 FROM run_context_selections_chain))`
	}},
	{"DELETE everything", func(cols, forged, values, first, last string) string {
		return `DELETE FROM run_context_selections`
	}},
}

// attackInputs reads what the attack statements need from the database.
func attackInputs(t *testing.T, db *sql.DB) (cols, forged, values, first, last string) {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM pragma_table_info('run_context_selections') ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	var quoted, fake []string
	for _, n := range names {
		quoted = append(quoted, "quote("+n+")")
		if n == "artifact_id" {
			fake = append(fake, "'forged'")
		} else {
			fake = append(fake, n)
		}
	}
	if err := db.QueryRow(`SELECT id FROM run_context_selections ORDER BY rowid LIMIT 1`).Scan(&first); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT id FROM run_context_selections ORDER BY rowid DESC LIMIT 1`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT `+strings.Join(quoted, "||','||")+` FROM run_context_selections WHERE id = ?`, first).Scan(&values); err != nil {
		t.Fatal(err)
	}
	i := indexOf(names, "artifact_id")
	vs := strings.Split(values, ",") // the test's values hold no comma
	vs[i] = "'forged'"
	return strings.Join(names, ", "), strings.Join(fake, ", "), strings.Join(vs, ","), first, last
}

// override replaces whole items of a comma-separated select list.
func override(list string, with map[string]string) string {
	items := strings.Split(list, ", ")
	for i, it := range items {
		if v, ok := with[it]; ok {
			items[i] = v
		}
	}
	return strings.Join(items, ", ")
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// seedAudit records two selections (three rows) and closes the store.
func seedAudit(t *testing.T) string {
	t.Helper()
	a, path := openTemp(t)
	ctx := context.Background()
	for _, b := range []Batch{batch("run1", cands(2)), batch("run2", cands(3)[2:])} {
		if _, err := a.Record(ctx, b, auditCatalog()); err != nil {
			t.Fatal(err)
		}
	}
	a.Close()
	return path
}

// TestAuditAttacks runs every attack statement through the driver and,
// when the sqlite3 CLI is on PATH, through the CLI: each must be refused by
// the database (and change nothing), or be detected by Verify afterwards
// (and then Record must refuse to write).
func TestAuditAttacks(t *testing.T) {
	type runner struct {
		name string
		exec func(t *testing.T, path, stmt string) error
	}
	runners := []runner{{"driver", func(t *testing.T, path, stmt string) error {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		_, err = db.Exec(stmt)
		return err
	}}}
	if _, err := exec.LookPath("sqlite3"); err == nil {
		runners = append(runners, runner{"sqlite3 CLI", func(t *testing.T, path, stmt string) error {
			out, err := exec.Command("sqlite3", "-bail", path, stmt).CombinedOutput()
			if err != nil {
				return errors.New(strings.TrimSpace(string(out)))
			}
			return nil
		}})
	} else {
		t.Log("sqlite3 CLI not on PATH: the CLI half of the attacks is not run")
	}
	for ri, r := range runners {
		for ai, at := range auditAttacks {
			// Under -race a third of the attacks per runner (each runner a
			// different third): an attack is one goroutine's SQL in the
			// instrumented SQLite, which can reveal no race another does not;
			// CI's pass without -race runs them all (.ci/run).
			if (ri+ai)%race.Stride(3) != 0 {
				continue
			}
			t.Run(r.name+"/"+at.name, func(t *testing.T) {
				path := seedAudit(t)
				a, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				before := mustList(t, a, "")
				stmt := at.sql(attackInputs(t, a.db))
				a.Close()

				execErr := r.exec(t, path, stmt)

				a, err = Open(path)
				if err != nil {
					t.Fatalf("reopen after the attack: %v", err)
				}
				defer a.Close()
				after := mustList(t, a, "")
				verr := a.Verify(context.Background())
				switch {
				case verr != nil:
					t.Logf("DETECTED (statement error: %v): %v", execErr, verr)
					if _, err := a.Record(context.Background(), batch("run3", cands(1)), auditCatalog()); err == nil {
						t.Errorf("Record wrote into a store whose chain is broken")
					}
				case execErr != nil && strings.Contains(execErr.Error(), "append-only") && reflect.DeepEqual(before, after):
					t.Logf("REFUSED: %v", execErr)
				case execErr != nil && reflect.DeepEqual(before, after):
					t.Errorf("the statement failed for another reason, so the attack was not tried: %v\n%s", execErr, stmt)
				default:
					t.Errorf("UNDETECTED: %s\nstatement error: %v\nrows before %d, after %d; changed: %v",
						stmt, execErr, len(before), len(after), !reflect.DeepEqual(before, after))
				}
			})
		}
	}
}
