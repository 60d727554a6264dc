package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
)

// Event is an entry of a table's audit log.
type Event = db.Event

// AppendEvent appends an event to a table's audit log inside the caller's
// transaction. It locks the table row first (a no-op if the caller already
// did), which makes sequence numbers gap-free. The payload is encoded as
// JSON and must hold integers only, no fractions (ErrNonInteger).
func AppendEvent(ctx context.Context, tx pgx.Tx, tableID int64, kind string, payload any) (Event, error) {
	if _, err := db.TableLock(ctx, tx, tableID); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return Event{}, fmt.Errorf("%w: %d", ErrTableNotFound, tableID)
		}
		return Event{}, err
	}
	return appendEvent(ctx, tx, tableID, kind, payload)
}

// appendEvent appends an event; the caller holds the table row lock.
func appendEvent(ctx context.Context, tx pgx.Tx, tableID int64, kind string, payload any) (Event, error) {
	last, err := db.EventLast(ctx, tx, tableID)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return appendAfter(ctx, tx, tableID, nil, kind, payload)
	case err != nil:
		return Event{}, err
	}
	return appendAfter(ctx, tx, tableID, &last, kind, payload)
}

// appendAfter appends an event after last (nil for the first event); the
// caller holds the table row lock, so last is still the head of the log.
// The payload is encoded canonically once, from its typed value.
func appendAfter(ctx context.Context, tx pgx.Tx, tableID int64, last *Event, kind string, payload any) (Event, error) {
	head := chain.Start()
	if last != nil {
		head = chain.Head{Seq: last.Seq, Hash: last.Hash}
	}
	ce, err := head.Append(tableID, kind, payload, time.Now())
	if errors.Is(err, chain.ErrNonInteger) {
		return Event{}, fmt.Errorf("%w: %w", ErrNonInteger, err)
	}
	if err != nil {
		return Event{}, err
	}
	e := Event{TableID: ce.TableID, Seq: ce.Seq, Kind: ce.Kind, Payload: ce.Payload, CreatedAt: ce.CreatedAt,
		PrevHash: ce.PrevHash, Hash: ce.Hash}
	if err := db.EventInsert(ctx, tx, e); err != nil {
		return Event{}, err
	}
	if err := db.EventNotify(ctx, tx, e); err != nil {
		return Event{}, err
	}
	return e, nil
}

// VerifyReport is the outcome of walking a table's audit chain.
type VerifyReport struct {
	TableID int64  `json:"tableId"`
	Events  int    `json:"events"`
	OK      bool   `json:"ok"`
	Head    []byte `json:"head,omitempty"` // the last good hash
	// BrokenAt is the seq of the first event that does not verify; Problem
	// says what differs.
	BrokenAt int64  `json:"brokenAt,omitempty"`
	Problem  string `json:"problem,omitempty"`
}

// Verify walks a table's audit log from the first event and reports the
// first break in the chain (see package chain).
func Verify(ctx context.Context, q db.DBTX, tableID int64) (VerifyReport, error) {
	events, err := db.EventList(ctx, q, tableID, 0)
	if err != nil {
		return VerifyReport{}, err
	}
	links := make([]chain.Event, len(events))
	for i, e := range events {
		links[i] = chain.Event{TableID: e.TableID, Seq: e.Seq, Kind: e.Kind, Payload: e.Payload, CreatedAt: e.CreatedAt,
			PrevHash: e.PrevHash, Hash: e.Hash}
	}
	r := chain.Verify(links)
	return VerifyReport{TableID: tableID, Events: r.Events, OK: r.OK, Head: r.Head, BrokenAt: r.BrokenAt, Problem: r.Problem}, nil
}
