package db_test

import (
	"context"
	"testing"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
)

// TestTheRoundStatusGuardReadsOneEvent: the round status guard finds the
// event that settles a round by the primary key, however short the
// table's history was when the connection first ran it (migration 17). A
// connection settles eight rounds while the table has a few events, which
// is when PL/pgSQL would make and keep a generic plan; then the history
// grows by 20,000 events; then the ninth round is settled on the same
// connection and its guard, run at once (SET CONSTRAINTS ALL IMMEDIATE),
// may read only a few of events' pages. The guard of migration 16, with
// its kept plan, read every page of the table's history (466 of them here).
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

	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	round(9)
	b.TableAppend(tbl.ID, db.Append{Settles: 9, Events: settled(t, &head, tbl.ID, 9), Head: head, Rounds: 9}, nil)
	if err := b.Send(tx); err != nil {
		t.Fatal(err)
	}
	var before int64
	if err := tx.QueryRow(ctx, `SELECT pg_stat_get_xact_blocks_fetched('events'::regclass)`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SET CONSTRAINTS ALL IMMEDIATE`); err != nil {
		t.Fatalf("the guard refused round 9's settlement: %v", err)
	}
	var after int64
	if err := tx.QueryRow(ctx, `SELECT pg_stat_get_xact_blocks_fetched('events'::regclass)`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	read := after - before
	t.Logf("the guard read %d pages of events", read)
	if dbtest.Citus() {
		// The guard runs on the worker that holds the table's shard, whose
		// reads the coordinator's counters do not see.
		t.Logf("on Citus the guard's reads are the worker's (%d here): checked that it passes, not what it reads", read)
		return
	}
	if read > 8 {
		t.Errorf("the guard read %d pages of events to find one event in a history of %d", read, len(history)+9)
	}
}
