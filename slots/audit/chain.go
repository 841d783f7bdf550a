package audit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/oastui/oastui/edit"
)

// The audit table is a hash chain, as append-only logs are: row n carries
// chain_seq n, prev_hash (row n-1's row_hash; GenesisHash for row 1) and
// row_hash = RowHash(row, n, prev_hash). The head of the chain (last seq
// and hash) is kept twice, so that losing rows is noticed and not only
// rewriting them:
//
//   - in the one-row table run_context_selections_chain, moved forward in
//     the transaction that appends the rows (exact; its triggers refuse a
//     delete, a second row and any move but forward to the last row). It
//     catches DROP TABLE run_context_selections (the next open recreates an
//     empty table, the head still says n rows) and deleted tails.
//   - in the file <db>.chain beside the database (HeadFile), written after
//     the commit. SQL cannot reach it: it catches what a statement can do to
//     both tables at once (DROP TABLE of the table and its head, a head
//     rolled back after the triggers were dropped) and a database file
//     deleted or replaced by an empty one. It may lag behind the database
//     (a crash between commit and file write, two writers finishing out of
//     order), never run ahead, so it is checked as a prefix: the database
//     must hold its row with its hash.
//
// Anyone who can rewrite the file and the database together can recompute
// the chain (there is no secret); the chain makes silent loss and naive
// rewriting visible, which is what issue 11 asks.

// GenesisHash is the prev_hash of the first row.
var GenesisHash = func() string {
	s := sha256.Sum256([]byte("oastui run_context_selections genesis v1"))
	return hex.EncodeToString(s[:])
}()

// ErrChainBroken marks a store whose history fails verification.
var ErrChainBroken = errors.New("audit chain broken")

// ChainError says where the chain first breaks.
type ChainError struct {
	Seq    int64  // the first bad (or missing) row's chain_seq; 0 when not a row
	ID     string // its id, when the row is there
	Reason string
}

func (e *ChainError) Error() string {
	where := "the chain head"
	if e.Seq > 0 {
		where = "row " + strconv.FormatInt(e.Seq, 10)
		if e.ID != "" {
			where += " (id " + e.ID + ")"
		}
	}
	return "audit chain broken at " + where + ": " + e.Reason
}

func (e *ChainError) Unwrap() error { return ErrChainBroken }

// ChainHead is the last row's chain_seq and row_hash (0 and GenesisHash
// for an empty table).
type ChainHead struct {
	Seq  int64
	Hash string
}

// RowHash is hex SHA-256 over a canonical encoding of the row's thirteen
// columns, its chain_seq and prev: a domain tag, then each field as its
// byte length (8 bytes, big-endian) and its bytes, in table order.
func RowHash(r Row, seq int64, prev string) string {
	h := sha256.New()
	h.Write([]byte("oastui run_context_selections row v1\x00"))
	var n [8]byte
	for _, f := range []string{r.ID, r.OrgID, r.ParentRunID, r.ParentPackageName, r.SlotID, r.ArtifactID,
		r.RepresentationRevisionID, r.SemanticAssertionID, r.Extension, r.SourceScope, r.SelectedBy,
		r.SelectionMode, r.SelectedAt, strconv.FormatInt(seq, 10), prev} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

const rowColumns = `id, org_id, parent_run_id, parent_package_name, slot_id, artifact_id, representation_revision_id,
  semantic_assertion_id, extension, source_scope, selected_by, selection_mode, selected_at`

func scanRow(sc interface{ Scan(...any) error }, r *Row, extra ...any) error {
	return sc.Scan(append([]any{&r.ID, &r.OrgID, &r.ParentRunID, &r.ParentPackageName, &r.SlotID, &r.ArtifactID,
		&r.RepresentationRevisionID, &r.SemanticAssertionID, &r.Extension, &r.SourceScope, &r.SelectedBy,
		&r.SelectionMode, &r.SelectedAt}, extra...)...)
}

// addChainColumns migrates a database written before the chain: it adds
// the three columns and chains the existing rows in insertion (rowid)
// order, in the migration's transaction. The chain vouches for those rows
// as they were found at the migration; it cannot say what happened to them
// before. It returns the head when it migrated, nil when nothing was to do.
func (a *Log) addChainColumns(tx *sql.Tx) (*ChainHead, error) {
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM pragma_table_info('run_context_selections') WHERE name = 'chain_seq'`).Scan(&n); err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, nil
	}
	for _, stmt := range []string{
		`ALTER TABLE run_context_selections ADD COLUMN chain_seq integer NOT NULL DEFAULT 0`,
		`ALTER TABLE run_context_selections ADD COLUMN prev_hash text NOT NULL DEFAULT ''`,
		`ALTER TABLE run_context_selections ADD COLUMN row_hash text NOT NULL DEFAULT ''`,
		// the UPDATE trigger is recreated by auditSchemaAfter right after
		`DROP TRIGGER IF EXISTS trg_run_context_selections_append_only_update`,
	} {
		if _, err := tx.Exec(stmt); err != nil {
			return nil, fmt.Errorf("adding the hash chain to an old audit table: %w", err)
		}
	}
	rows, err := tx.Query(`SELECT rowid, ` + rowColumns + ` FROM run_context_selections ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	type upd struct {
		rowid      int64
		prev, hash string
	}
	var ups []upd
	head := ChainHead{Hash: GenesisHash}
	for rows.Next() {
		var r Row
		var rowid int64
		if err := rows.Scan(append([]any{&rowid}, &r.ID, &r.OrgID, &r.ParentRunID, &r.ParentPackageName, &r.SlotID,
			&r.ArtifactID, &r.RepresentationRevisionID, &r.SemanticAssertionID, &r.Extension, &r.SourceScope,
			&r.SelectedBy, &r.SelectionMode, &r.SelectedAt)...); err != nil {
			rows.Close()
			return nil, err
		}
		seq := head.Seq + 1
		h := RowHash(r, seq, head.Hash)
		ups = append(ups, upd{rowid, head.Hash, h})
		head = ChainHead{Seq: seq, Hash: h}
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for i, u := range ups {
		if _, err := tx.Exec(`UPDATE run_context_selections SET chain_seq = ?, prev_hash = ?, row_hash = ? WHERE rowid = ?`,
			i+1, u.prev, u.hash, u.rowid); err != nil {
			return nil, fmt.Errorf("adding the hash chain to an old audit table: %w", err)
		}
	}
	return &head, nil
}

// startChain writes the chain head row when there is none: for a new
// (empty) table, or the head of a just-migrated one. A table with rows and
// no head lost its head table: it is left without one, and Verify says so.
func startChain(tx *sql.Tx, migrated *ChainHead) error {
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM run_context_selections_chain`).Scan(&n); err != nil || n > 0 {
		return err
	}
	head := migrated
	if head == nil {
		var rows int
		if err := tx.QueryRow(`SELECT count(*) FROM run_context_selections`).Scan(&rows); err != nil || rows > 0 {
			return err
		}
		head = &ChainHead{Hash: GenesisHash}
	}
	_, err := tx.Exec(`INSERT INTO run_context_selections_chain (id, seq, head) VALUES (1, ?, ?)`, head.Seq, head.Hash)
	return err
}

// Verify checks the whole chain: every row's sequence number, link and
// hash, the head table, and the head file beside the database. A break is
// a *ChainError (errors.Is ErrChainBroken) naming the first bad row.
func (a *Log) Verify(ctx context.Context) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer tx.Rollback()
	_, err = a.verifyTx(ctx, tx)
	return err
}

func (a *Log) verifyTx(ctx context.Context, tx *sql.Tx) (ChainHead, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+rowColumns+`, chain_seq, prev_hash, row_hash
  FROM run_context_selections ORDER BY chain_seq, rowid`)
	if err != nil {
		return ChainHead{}, fmt.Errorf("audit: %w", err)
	}
	head := ChainHead{Hash: GenesisHash}
	var hashes []string // hashes[i] is row i+1's
	var brk *ChainError
	for rows.Next() {
		var r Row
		var seq int64
		var prev, hash string
		if err := scanRow(rows, &r, &seq, &prev, &hash); err != nil {
			rows.Close()
			return head, &ChainError{Seq: head.Seq + 1, Reason: "unreadable row: " + err.Error()}
		}
		want := head.Seq + 1
		switch {
		case seq < want:
			brk = &ChainError{Seq: seq, ID: r.ID, Reason: fmt.Sprintf("a second row with chain_seq %d (or no chain_seq): a row was inserted outside oastui", seq)}
		case seq > want:
			brk = &ChainError{Seq: want, Reason: fmt.Sprintf("row %d is missing (the next row, id %s, has chain_seq %d): rows were deleted", want, r.ID, seq)}
		case prev != head.Hash:
			brk = &ChainError{Seq: seq, ID: r.ID, Reason: "prev_hash does not match the row before it: a row was deleted, inserted or reordered"}
		case RowHash(r, seq, prev) != hash:
			brk = &ChainError{Seq: seq, ID: r.ID, Reason: "the row's content does not match its row_hash: the row was rewritten or forged"}
		}
		if brk != nil {
			rows.Close()
			return head, brk
		}
		head = ChainHead{Seq: seq, Hash: hash}
		hashes = append(hashes, hash)
	}
	if err := rows.Close(); err != nil {
		return head, fmt.Errorf("audit: %w", err)
	}
	var recorded ChainHead
	err = tx.QueryRowContext(ctx, `SELECT seq, head FROM run_context_selections_chain WHERE id = 1`).Scan(&recorded.Seq, &recorded.Hash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return head, &ChainError{Reason: fmt.Sprintf("the chain head (table run_context_selections_chain) is missing while the table holds %d row(s): it was dropped or emptied", head.Seq)}
	case err != nil:
		return head, fmt.Errorf("audit: chain head: %w", err)
	case recorded.Seq > head.Seq:
		return head, &ChainError{Seq: head.Seq + 1, Reason: fmt.Sprintf("the table holds %d row(s) but the chain head records %d: rows %d to %d were dropped or truncated", head.Seq, recorded.Seq, head.Seq+1, recorded.Seq)}
	case recorded.Seq < head.Seq:
		return head, &ChainError{Seq: recorded.Seq + 1, ID: "", Reason: fmt.Sprintf("the chain head records %d row(s) but the table holds %d: rows were added outside oastui", recorded.Seq, head.Seq)}
	case recorded.Hash != head.Hash:
		return head, &ChainError{Seq: head.Seq, Reason: "the last row's hash differs from the chain head's"}
	}
	file, ok, err := readHeadFile(HeadFile(a.Path))
	switch {
	case err != nil:
		return head, &ChainError{Reason: err.Error()}
	case !ok:
	case file.Seq > head.Seq:
		return head, &ChainError{Seq: head.Seq + 1, Reason: fmt.Sprintf("the chain head file %s records %d row(s) but the database holds %d: rows %d to %d were dropped or truncated (or the database was replaced)",
			HeadFile(a.Path), file.Seq, head.Seq, head.Seq+1, file.Seq)}
	case file.Seq > 0 && hashes[file.Seq-1] != file.Hash:
		return head, &ChainError{Seq: file.Seq, Reason: fmt.Sprintf("the row's hash differs from the one in the chain head file %s: the history up to it was rewritten", HeadFile(a.Path))}
	}
	return head, nil
}

// HeadFile is the chain head file kept beside the audit database at db.
func HeadFile(db string) string { return db + ".chain" }

const headFileMagic = "oastui audit chain head v1"

// readHeadFile reads the head file; ok is false when there is none.
func readHeadFile(path string) (h ChainHead, ok bool, err error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, false, nil
	}
	if err != nil {
		return h, false, fmt.Errorf("the chain head file: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() > 4096 {
		return h, false, fmt.Errorf("the chain head file %s is not a small regular file", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return h, false, fmt.Errorf("the chain head file: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 9 || strings.Join(f[:5], " ") != headFileMagic || f[5] != "seq" || f[7] != "head" {
		return h, false, fmt.Errorf("the chain head file %s is not one oastui wrote", path)
	}
	h.Seq, err = strconv.ParseInt(f[6], 10, 64)
	if err != nil || h.Seq < 0 || len(f[8]) != 64 {
		return h, false, fmt.Errorf("the chain head file %s is not one oastui wrote", path)
	}
	h.Hash = f[8]
	return h, true, nil
}

// writeHeadFile records head in the head file unless it already records
// a later one (another writer finished after us).
func (a *Log) writeHeadFile(head ChainHead) error {
	path := HeadFile(a.Path)
	if old, ok, err := readHeadFile(path); err == nil && ok && old.Seq >= head.Seq {
		return nil
	}
	return edit.WriteFileAtomic(path, []byte(fmt.Sprintf("%s\nseq %d\nhead %s\n", headFileMagic, head.Seq, head.Hash)))
}
