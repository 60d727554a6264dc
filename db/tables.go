package db

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Table statuses.
const (
	TableOpen   = "open"
	TableClosed = "closed"
)

// Table is a game table: its rules, its currency and the hashes of the
// tokens that let the host act and auditors read.
type Table struct {
	ID             int64
	Name           string
	Ruleset        json.RawMessage
	Currency       string
	JoinCode       string
	HostTokenHash  []byte
	AuditTokenHash []byte
	NoOverdraft    bool
	Status         string
	CreatedAt      time.Time
	ClosedAt       *time.Time
}

// TableInsertParams are the caller-chosen columns of a new table.
type TableInsertParams struct {
	Name           string
	Ruleset        json.RawMessage
	Currency       string
	JoinCode       string
	HostTokenHash  []byte
	AuditTokenHash []byte
	NoOverdraft    bool
}

const tableColumns = `id, name, ruleset, currency, join_code, host_token_hash, audit_token_hash,
	no_overdraft, status, created_at, closed_at`

// scanTable reads one row selected with tableColumns.
func scanTable(row interface{ Scan(...any) error }) (Table, error) {
	var t Table
	err := row.Scan(&t.ID, &t.Name, &t.Ruleset, &t.Currency, &t.JoinCode, &t.HostTokenHash,
		&t.AuditTokenHash, &t.NoOverdraft, &t.Status, &t.CreatedAt, &t.ClosedAt)
	return t, interpretError(err)
}

// TableInsert creates an open table. A taken join code is ErrConflict.
func TableInsert(ctx context.Context, q DBTX, p TableInsertParams) (Table, error) {
	currency := p.Currency
	if currency == "" {
		currency = "units"
	}
	t, err := scanTable(q.QueryRow(ctx, `
		INSERT INTO tables (name, ruleset, currency, join_code, host_token_hash, audit_token_hash, no_overdraft)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		RETURNING `+tableColumns,
		p.Name, p.Ruleset, currency, p.JoinCode, p.HostTokenHash, p.AuditTokenHash, p.NoOverdraft))
	if err != nil {
		return Table{}, fmt.Errorf("insert table %q: %w", p.Name, err)
	}
	return t, nil
}

// TableGet reads a table by id.
func TableGet(ctx context.Context, q DBTX, id int64) (Table, error) {
	t, err := scanTable(q.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = $1`, id))
	if err != nil {
		return Table{}, fmt.Errorf("table %d: %w", id, err)
	}
	return t, nil
}

// TableGetByJoinCode reads the table a join code belongs to.
func TableGetByJoinCode(ctx context.Context, q DBTX, code string) (Table, error) {
	t, err := scanTable(q.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE join_code = $1`, code))
	if err != nil {
		return Table{}, fmt.Errorf("table with join code %q: %w", code, err)
	}
	return t, nil
}

// TableLock reads a table and locks its row FOR UPDATE until the end of the
// transaction. Every writer of a table's money, rounds and audit log takes
// this lock first: it serializes them per table (so event sequence numbers
// are gap-free) and, taken before any other lock, rules out lock-order
// deadlocks between them.
func TableLock(ctx context.Context, q DBTX, id int64) (Table, error) {
	t, err := scanTable(q.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = $1 FOR UPDATE`, id))
	if err != nil {
		return Table{}, fmt.Errorf("lock table %d: %w", id, err)
	}
	return t, nil
}

// TableClose marks an open table closed. Closing a closed (or missing) table
// is ErrNotFound.
func TableClose(ctx context.Context, q DBTX, id int64) (Table, error) {
	t, err := scanTable(q.QueryRow(ctx, `
		UPDATE tables SET status = 'closed', closed_at = now()
		WHERE id = $1 AND status = 'open'
		RETURNING `+tableColumns, id))
	if err != nil {
		return Table{}, fmt.Errorf("close table %d: %w", id, err)
	}
	return t, nil
}
