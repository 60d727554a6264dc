package db_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
)

// TestTheRoundStatusGuardReadsOneEvent: the round status guard finds the
// event that changes a round's status by the primary key, however short
// the table's history was when the connection first ran it (migration 17):
// at the head, and scanning back from it when the event is not the last.
// A connection settles eight rounds while the table has a few events,
// which is when PL/pgSQL makes and keeps a generic plan; then the history
// grows by 20,000 events; then, on the same connection, round 9 is
// settled, and reversed by a write whose last event is another. Each
// guard, run at once (SET CONSTRAINTS ALL IMMEDIATE), may read only a few
// of events' pages. Migration 16's guard read every page of the table's
// history at the head (466 here) and so did its scan back. (Were
// autovacuum to analyze events between the two phases, the kept plan would
// be made again and 16 would pass too; 17 cannot fail this way.)
func TestTheRoundStatusGuardReadsOneEvent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "GUARDPLAN")
	ann := newPlayer(t, pool, tbl.ID, "Ann", 1)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	b := db.NewBatch(ctx)
	head := chain.Start()
	round := func(n int) {
		b.RoundInsert(tbl.ID, db.Round{Number: n, Setup: game.RoundSetup{Players: []game.PlayerID{ann.ID}},
			Game: game.GameState{Seats: []game.PlayerID{ann.ID}, Totals: []int64{0}}})
	}
	for n := 1; n <= 8; n++ {
		round(n)
		b.TableAppend(tbl.ID, db.Append{Settles: n, Events: settled(t, &head, tbl.ID, n), Head: head, Rounds: n}, nil)
		if err := b.Send(conn); err != nil {
			t.Fatalf("settling round %d: %v", n, err)
		}
	}
	history := make([]chain.Event, 20000)
	for i := range history {
		e, err := head.Append(tbl.ID, "test", map[string]int{"i": i}, tbl.CreatedAt)
		if err != nil {
			t.Fatal(err)
		}
		e.Seal = testSeal
		history[i] = e
	}
	b.TableAppend(tbl.ID, db.Append{Events: history, Head: head, Rounds: 8}, nil)
	if err := b.Send(conn); err != nil {
		t.Fatal(err)
	}

	// Round 9 is settled (its event is the head); then reversed by a write
	// whose last event is another, so the guard scans back for it.
	round(9)
	if err := b.Send(conn); err != nil {
		t.Fatal(err)
	}
	reversed := func() []chain.Event {
		var out []chain.Event
		for _, k := range []string{"round.reversed", "test"} {
			e, err := head.Append(tbl.ID, k, map[string]any{"round": 9, "reason": "started by accident"}, tbl.CreatedAt)
			if err != nil {
				t.Fatal(err)
			}
			e.Seal = testSeal
			out = append(out, e)
		}
		return out
	}
	for _, w := range []struct {
		what   string
		append func() db.Append
	}{
		{"settling round 9 (its event the head)", func() db.Append {
			return db.Append{Settles: 9, Events: settled(t, &head, tbl.ID, 9), Head: head, Rounds: 9}
		}},
		{"reversing round 9 (its event before the head)", func() db.Append {
			events := reversed()
			return db.Append{Voids: 9, Events: events, Head: head, Rounds: 9}
		}},
	} {
		read := guardReads(t, conn, b, tbl.ID, w.append())
		t.Logf("%s: the guard read %d page(s) of events", w.what, read)
		if dbtest.Citus() {
			// The guard runs on the worker that holds the table's shard,
			// whose reads the coordinator's counters do not see.
			t.Logf("on Citus the guard's reads are the worker's: checked that it passes, not what it reads")
			continue
		}
		if read > 8 {
			t.Errorf("%s: the guard read %d pages of events to find one event in a history of %d", w.what, read, len(history)+9)
		}
	}
}

// guardReads writes a in a transaction on conn, runs the deferred round
// status guard at once and reports how many pages of events it read; the
// write is committed.
func guardReads(t *testing.T, conn *pgxpool.Conn, b *db.Batch, table int64, a db.Append) int64 {
	t.Helper()
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	b.TableAppend(table, a, nil)
	if err := b.Send(tx); err != nil {
		t.Fatal(err)
	}
	var before, after int64
	if err := tx.QueryRow(ctx, `SELECT pg_stat_get_xact_blocks_fetched('events'::regclass)`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SET CONSTRAINTS ALL IMMEDIATE`); err != nil {
		t.Fatalf("the guard refused the write: %v", err)
	}
	if err := tx.QueryRow(ctx, `SELECT pg_stat_get_xact_blocks_fetched('events'::regclass)`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return after - before
}
