package db

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Event is one entry of a table's audit log. Hash chains the entries: each
// hash covers the previous one (see package ledger for what is hashed).
type Event struct {
	TableID   int64
	Seq       int64
	Kind      string
	Payload   json.RawMessage
	CreatedAt time.Time
	PrevHash  []byte
	Hash      []byte
}

const eventColumns = `table_id, seq, kind, payload, created_at, prev_hash, hash`

// scanEvent reads one row selected with eventColumns.
func scanEvent(row pgx.Row) (Event, error) {
	var e Event
	err := row.Scan(&e.TableID, &e.Seq, &e.Kind, &e.Payload, &e.CreatedAt, &e.PrevHash, &e.Hash)
	return e, interpretError(err)
}

// EventLast reads a table's latest event; ErrNotFound when the log is empty.
func EventLast(ctx context.Context, q DBTX, tableID int64) (Event, error) {
	e, err := scanEvent(q.QueryRow(ctx, `
		SELECT `+eventColumns+` FROM events WHERE table_id = $1 ORDER BY seq DESC LIMIT 1`, tableID))
	if err != nil {
		return Event{}, fmt.Errorf("last event of table %d: %w", tableID, err)
	}
	return e, nil
}

// EventInsert appends an event exactly as given. A taken sequence number is
// ErrConflict.
func EventInsert(ctx context.Context, q DBTX, e Event) error {
	_, err := q.Exec(ctx, `INSERT INTO events (`+eventColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		e.TableID, e.Seq, e.Kind, e.Payload, e.CreatedAt, e.PrevHash, e.Hash)
	if err != nil {
		return fmt.Errorf("append event %d to table %d: %w", e.Seq, e.TableID, interpretError(err))
	}
	return nil
}

// EventList returns a table's audit log in sequence order, starting after
// seq afterSeq (0 for all of it).
func EventList(ctx context.Context, q DBTX, tableID, afterSeq int64) ([]Event, error) {
	return EventListPage(ctx, q, tableID, afterSeq, 0)
}

// EventListPage returns at most limit of a table's events after seq
// afterSeq, in order: one page of the log, however long it is. A limit of
// 0 means no limit (PostgreSQL reads LIMIT NULL as none).
func EventListPage(ctx context.Context, q DBTX, tableID, afterSeq int64, limit int) ([]Event, error) {
	var max *int
	if limit > 0 {
		max = &limit
	}
	rows, err := q.Query(ctx, `
		SELECT `+eventColumns+` FROM events WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, tableID, afterSeq, max)
	if err != nil {
		return nil, fmt.Errorf("events of table %d: %w", tableID, interpretError(err))
	}
	events, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Event, error) { return scanEvent(row) })
	if err != nil {
		return nil, fmt.Errorf("events of table %d: %w", tableID, err)
	}
	return events, nil
}
