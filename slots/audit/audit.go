// Package audit is the hash-chained, append-only store of confirmed context
// selections (reference cinatra.md §13.9, run_context_selections), in a
// pure-Go SQLite database: rows are only ever inserted, each carries the
// hash of the one before it, and a head file beside the database detects
// a truncated or rewritten trail.
package audit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/oastui/oastui/slots"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	_ "modernc.org/sqlite" // pure-Go SQLite driver "sqlite"
)

// AppendOnlyMessage is what the database says to an UPDATE or DELETE
// (reference §13.9, with TG_OP filled in).
func AppendOnlyMessage(op string) string {
	return "run_context_selections is append-only: " + op + " forbidden — write a NEW audit row to correct a prior selection"
}

// auditSchema is reference §13.9 in SQLite: the same columns, CHECKs and
// indexes; the BEFORE UPDATE OR DELETE trigger becomes two triggers since
// an SQLite trigger has one event. selected_at is ISO-8601 UTC text with
// milliseconds, so text order is time order.
//
// Beyond the reference, the table is hash-chained (see chain.go): every row
// carries chain_seq (1, 2, …, unique), prev_hash (the row_hash of the row
// before it, GenesisHash for the first) and row_hash. A BEFORE INSERT
// trigger refuses a row whose id, chain_seq or rowid is taken, so INSERT OR
// REPLACE, REPLACE INTO … SELECT and upserts never reach SQLite's conflict
// resolution (which deletes the old row without firing the DELETE trigger).
var auditSchema = []string{
	`CREATE TABLE IF NOT EXISTS run_context_selections (
  id text PRIMARY KEY NOT NULL,
  org_id text NOT NULL,
  parent_run_id text NOT NULL,
  parent_package_name text NOT NULL,
  slot_id text NOT NULL,
  artifact_id text NOT NULL,
  representation_revision_id text NOT NULL,
  semantic_assertion_id text NOT NULL,
  extension text NOT NULL,
  source_scope text NOT NULL,
  selected_by text NOT NULL,
  selection_mode text NOT NULL,
  selected_at text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  chain_seq integer NOT NULL DEFAULT 0,
  prev_hash text NOT NULL DEFAULT '',
  row_hash text NOT NULL DEFAULT '',
  CONSTRAINT rcs_source_scope_check CHECK (source_scope IN ('user','team','organization','workspace','project')),
  CONSTRAINT rcs_selected_by_check CHECK (selected_by IN ('user','agent','autonomous')),
  CONSTRAINT rcs_selection_mode_check CHECK (selection_mode IN ('interactive','autonomous'))
)`,
}

// auditSchemaAfter follows the table (and, for an old database, the
// migration that adds the chain columns).
var auditSchemaAfter = []string{
	`CREATE INDEX IF NOT EXISTS rcs_run_idx ON run_context_selections (org_id, parent_run_id, selected_at)`,
	`CREATE INDEX IF NOT EXISTS rcs_artifact_idx ON run_context_selections (org_id, artifact_id)`,
	`CREATE UNIQUE INDEX IF NOT EXISTS rcs_chain_seq_idx ON run_context_selections (chain_seq)`,
	`CREATE TRIGGER IF NOT EXISTS trg_run_context_selections_append_only_update
  BEFORE UPDATE ON run_context_selections FOR EACH ROW
  BEGIN SELECT RAISE(ABORT, '` + AppendOnlyMessage("UPDATE") + `'); END`,
	`CREATE TRIGGER IF NOT EXISTS trg_run_context_selections_append_only_delete
  BEFORE DELETE ON run_context_selections FOR EACH ROW
  BEGIN SELECT RAISE(ABORT, '` + AppendOnlyMessage("DELETE") + `'); END`,
	`CREATE TRIGGER IF NOT EXISTS trg_run_context_selections_append_only_replace
  BEFORE INSERT ON run_context_selections FOR EACH ROW
  WHEN EXISTS (SELECT 1 FROM run_context_selections WHERE id = NEW.id)
    OR EXISTS (SELECT 1 FROM run_context_selections WHERE chain_seq = NEW.chain_seq)
    OR EXISTS (SELECT 1 FROM run_context_selections WHERE rowid = NEW.rowid)
  BEGIN SELECT RAISE(ABORT, '` + AppendOnlyMessage("REPLACE") + `'); END`,
	// The chain head: one row (id 1), moved forward by Record in the
	// transaction that appends the rows. It can only ever name the last row.
	`CREATE TABLE IF NOT EXISTS run_context_selections_chain (
  id integer PRIMARY KEY CHECK (id = 1),
  seq integer NOT NULL,
  head text NOT NULL
)`,
	`CREATE TRIGGER IF NOT EXISTS trg_run_context_selections_chain_insert
  BEFORE INSERT ON run_context_selections_chain FOR EACH ROW
  WHEN EXISTS (SELECT 1 FROM run_context_selections_chain)
  BEGIN SELECT RAISE(ABORT, 'run_context_selections_chain: the chain head exists; it only moves forward'); END`,
	`CREATE TRIGGER IF NOT EXISTS trg_run_context_selections_chain_delete
  BEFORE DELETE ON run_context_selections_chain FOR EACH ROW
  BEGIN SELECT RAISE(ABORT, 'run_context_selections_chain: the chain head cannot be deleted'); END`,
	`CREATE TRIGGER IF NOT EXISTS trg_run_context_selections_chain_update
  BEFORE UPDATE ON run_context_selections_chain FOR EACH ROW
  WHEN NEW.id IS NOT OLD.id OR NEW.seq < OLD.seq
    OR NEW.seq IS NOT (SELECT max(chain_seq) FROM run_context_selections)
    OR NEW.head IS NOT (SELECT row_hash FROM run_context_selections WHERE chain_seq = NEW.seq)
  BEGIN SELECT RAISE(ABORT, 'run_context_selections_chain: the chain head only moves forward, to the last row'); END`,
}

// Log is the append-only store of confirmed selections.
type Log struct {
	db       *sql.DB
	Path     string
	afterRow func(i int) error // tests: fail or crash between two rows
}

// Open opens (creating if needed) the audit database at path.
// Transactions take the write lock at BEGIN (BEGIN IMMEDIATE) and wait up
// to 10 s for another writer, so concurrent confirmations serialise.
func Open(path string) (*Log, error) {
	// A FIFO or a device in place of the database would block or be
	// clobbered by SQLite: refuse anything but a regular file (or nothing).
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("audit %s: not a regular file", path)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", path, err)
	}
	a := &Log{db: db, Path: path}
	if err := a.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("audit %s: %w", path, err)
	}
	return a, nil
}

func (a *Log) migrate() error {
	tx, err := a.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range auditSchema {
		if _, err := tx.Exec(stmt); err != nil {
			return err
		}
	}
	legacy, err := a.addChainColumns(tx)
	if err != nil {
		return err
	}
	for _, stmt := range auditSchemaAfter {
		if _, err := tx.Exec(stmt); err != nil {
			return err
		}
	}
	if err := startChain(tx, legacy); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the database.
func (a *Log) Close() error { return a.db.Close() }

// Batch is one confirmed selection to record.
type Batch struct {
	OrgID             string
	ParentRunID       string
	ParentPackageName string
	SlotID            string
	SelectionMode     string // interactive | autonomous
	SelectedBy        string // user | agent | autonomous
	Refs              []slots.Ref
	At                time.Time // zero: now
}

// Coherence checks a ref's triple before it is written (*slots.Catalog.CheckTriple).
type Coherence interface {
	CheckTriple(orgID string, r slots.Ref) error
}

// Recorded is the outcome of Record.
type Recorded struct {
	Key   string // selectionKey
	Wrote bool   // false: this exact selection was already recorded; nothing written
	Rows  int    // rows written
}

// dedupe keeps the first ref of each triple, in order.
func dedupe(refs []slots.Ref) []slots.Ref {
	seen := map[string]bool{}
	out := make([]slots.Ref, 0, len(refs))
	for _, r := range refs {
		if k := r.TripleKey(); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// SelectionKey is sha256 (hex) of JSON.stringify({parentRunId,
// parentPackageName, slotId, selectionMode, triples}) where triples are the
// deduplicated [artifactId, representationRevisionId, semanticAssertionId]
// tuples sorted by triple key (reference §13.9).
func SelectionKey(b Batch) string {
	refs := dedupe(b.Refs)
	sort.SliceStable(refs, func(i, j int) bool { return utf16Less(refs[i].TripleKey(), refs[j].TripleKey()) })
	var s strings.Builder
	s.WriteString(`{"parentRunId":`)
	s.WriteString(jsString(b.ParentRunID))
	s.WriteString(`,"parentPackageName":`)
	s.WriteString(jsString(b.ParentPackageName))
	s.WriteString(`,"slotId":`)
	s.WriteString(jsString(b.SlotID))
	s.WriteString(`,"selectionMode":`)
	s.WriteString(jsString(b.SelectionMode))
	s.WriteString(`,"triples":[`)
	for i, r := range refs {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteString("[" + jsString(r.ArtifactID) + "," + jsString(r.RepresentationRevisionID) + "," + jsString(r.SemanticAssertionID) + "]")
	}
	s.WriteString("]}")
	sum := sha256.Sum256([]byte(s.String()))
	return hex.EncodeToString(sum[:])
}

// jsString quotes s as JavaScript's JSON.stringify does (no HTML escaping,
// U+2028/2029 left as they are).
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r) // invalid UTF-8 was decoded as U+FFFD
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// utf16Less compares as JavaScript's default sort does (UTF-16 code units).
func utf16Less(a, b string) bool {
	if utf8.ValidString(a) && utf8.ValidString(b) && isBMP(a) && isBMP(b) {
		return a < b
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

func isBMP(s string) bool {
	for _, r := range s {
		if r > 0xffff {
			return false
		}
	}
	return true
}

// ErrCoherence marks a ref refused by the triple-coherence check.
var ErrCoherence = errors.New("triple coherence")

// Record appends one row per (deduplicated) ref, in one transaction, with
// ids "<selectionKey>:<i>". Every triple is checked with c first (when c is
// not nil). If any row of that selectionKey exists nothing is written and
// Wrote is false. Any failure rolls the whole batch back.
func (a *Log) Record(ctx context.Context, b Batch, c Coherence) (Recorded, error) {
	refs := dedupe(b.Refs)
	key := SelectionKey(b)
	res := Recorded{Key: key}
	for _, f := range []struct{ name, v string }{
		{"org_id", b.OrgID}, {"parent_run_id", b.ParentRunID}, {"parent_package_name", b.ParentPackageName},
		{"slot_id", b.SlotID}, {"selection_mode", b.SelectionMode}, {"selected_by", b.SelectedBy},
	} {
		if f.v == "" {
			return res, fmt.Errorf("audit: %s is empty", f.name)
		}
	}
	if c != nil {
		for _, r := range refs {
			if err := c.CheckTriple(b.OrgID, r); err != nil {
				return res, fmt.Errorf("audit: %w: %v", ErrCoherence, err)
			}
		}
	}
	if len(refs) == 0 {
		return res, nil // one row per ref: an empty selection leaves no row
	}
	at := b.At
	if at.IsZero() {
		at = time.Now()
	}
	stamp := at.UTC().Format("2006-01-02T15:04:05.000Z")

	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("audit: %w", err)
	}
	defer tx.Rollback()
	// Confirming into a store whose history was rewritten, dropped or
	// truncated is refused: the break must be looked at, not buried.
	head, err := a.verifyTx(ctx, tx)
	if err != nil {
		return res, fmt.Errorf("audit: refusing to record: %w", err)
	}
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM run_context_selections WHERE id >= ? AND id < ? LIMIT 1`, key+":", key+";").Scan(&one)
	switch {
	case err == nil:
		return res, nil // already recorded: idempotent no-op
	case !errors.Is(err, sql.ErrNoRows):
		return res, fmt.Errorf("audit: %w", err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO run_context_selections
  (id, org_id, parent_run_id, parent_package_name, slot_id, artifact_id, representation_revision_id,
   semantic_assertion_id, extension, source_scope, selected_by, selection_mode, selected_at,
   chain_seq, prev_hash, row_hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return res, fmt.Errorf("audit: %w", err)
	}
	defer stmt.Close()
	for i, r := range refs {
		row := Row{ID: key + ":" + strconv.Itoa(i), OrgID: b.OrgID, ParentRunID: b.ParentRunID,
			ParentPackageName: b.ParentPackageName, SlotID: b.SlotID, ArtifactID: r.ArtifactID,
			RepresentationRevisionID: r.RepresentationRevisionID, SemanticAssertionID: r.SemanticAssertionID,
			Extension: r.Extension, SourceScope: r.SourceScope, SelectedBy: b.SelectedBy,
			SelectionMode: b.SelectionMode, SelectedAt: stamp}
		seq, prev := head.Seq+1, head.Hash
		head = ChainHead{Seq: seq, Hash: RowHash(row, seq, prev)}
		if _, err := stmt.ExecContext(ctx, row.ID, row.OrgID, row.ParentRunID, row.ParentPackageName, row.SlotID,
			row.ArtifactID, row.RepresentationRevisionID, row.SemanticAssertionID, row.Extension, row.SourceScope,
			row.SelectedBy, row.SelectionMode, row.SelectedAt, seq, prev, head.Hash); err != nil {
			return res, fmt.Errorf("audit: row %d: %w", i, err)
		}
		if a.afterRow != nil {
			if err := a.afterRow(i); err != nil {
				return res, err
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE run_context_selections_chain SET seq = ?, head = ? WHERE id = 1`, head.Seq, head.Hash); err != nil {
		return res, fmt.Errorf("audit: chain head: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("audit: %w", err)
	}
	res.Wrote, res.Rows = true, len(refs)
	if err := a.writeHeadFile(head); err != nil {
		return res, fmt.Errorf("audit: the rows are recorded, but the chain head file: %w", err)
	}
	return res, nil
}

// Row is one audit row.
type Row struct {
	ID                       string `json:"id"`
	OrgID                    string `json:"orgId"`
	ParentRunID              string `json:"parentRunId"`
	ParentPackageName        string `json:"parentPackageName"`
	SlotID                   string `json:"slotId"`
	ArtifactID               string `json:"artifactId"`
	RepresentationRevisionID string `json:"representationRevisionId"`
	SemanticAssertionID      string `json:"semanticAssertionId"`
	Extension                string `json:"extension"`
	SourceScope              string `json:"sourceScope"`
	SelectedBy               string `json:"selectedBy"`
	SelectionMode            string `json:"selectionMode"`
	SelectedAt               string `json:"selectedAt"`
}

// List returns the rows of one parent run (all rows when runID is ""),
// ordered by selected_at, then id.
func (a *Log) List(ctx context.Context, runID string) ([]Row, error) {
	q := `SELECT id, org_id, parent_run_id, parent_package_name, slot_id, artifact_id, representation_revision_id,
  semantic_assertion_id, extension, source_scope, selected_by, selection_mode, selected_at
  FROM run_context_selections`
	var args []any
	if runID != "" {
		q += ` WHERE parent_run_id = ?`
		args = append(args, runID)
	}
	q += ` ORDER BY selected_at ASC, id ASC`
	rows, err := a.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer rows.Close()
	out := []Row{}
	for rows.Next() {
		var r Row
		if err := rows.Scan(&r.ID, &r.OrgID, &r.ParentRunID, &r.ParentPackageName, &r.SlotID, &r.ArtifactID,
			&r.RepresentationRevisionID, &r.SemanticAssertionID, &r.Extension, &r.SourceScope, &r.SelectedBy,
			&r.SelectionMode, &r.SelectedAt); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Confirm revalidates an envelope against the candidates the picker offered
// (as the platform's finalize step does, including minItems, maxItems and
// one for override) and appends its audit rows.
func Confirm(ctx context.Context, l *Log, p *slots.Prepared, env slots.Envelope, runID, packageName string) ([]slots.Ref, Recorded, error) {
	refs, err := slots.Finalize(env.JSON(), p.Slot, p.Offered)
	if err != nil {
		return nil, Recorded{}, err
	}
	b := Batch{OrgID: p.Catalog.Actor.OrganizationID, ParentRunID: runID, ParentPackageName: packageName,
		SlotID: p.Slot.SlotID, SelectionMode: p.Slot.SelectionMode, SelectedBy: "user", Refs: refs}
	rec, err := l.Record(ctx, b, p.Catalog)
	return refs, rec, err
}
