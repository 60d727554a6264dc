package db_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

// TestABatchIsOneTransactionAcrossRoundTrips sends a transaction in two
// batches, as a write does: BEGIN and the reads in the first, the writes and
// COMMIT in the second. Each queued query gets its own results, in order.
func TestABatchIsOneTransactionAcrossRoundTrips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "BATCH1")
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	b := db.NewBatch(ctx)
	b.Begin()
	var locked db.Table
	var players []db.Player
	var l db.Loaded
	b.TableLock(tbl.ID, &locked)
	b.PlayerList(tbl.ID, &players)
	b.TableLoad(tbl.ID, db.KeyRef{}, &l)
	// BEGIN, the lock, the players, and TableLoad's players, accounts,
	// latest round and its actions.
	if b.Len() != 7 {
		t.Fatalf("%d statements queued, want 7", b.Len())
	}
	if err := b.Send(conn); err != nil {
		t.Fatal(err)
	}
	if locked.ID != tbl.ID || len(players) != 0 || l.Latest.Number != 0 || len(l.Accounts) != 2 || b.Len() != 0 {
		t.Fatalf("read %+v, %+v, %+v; %d left queued", locked, players, l, b.Len())
	}
	if conn.Conn().PgConn().TxStatus() != 'T' {
		t.Fatalf("after the first batch the transaction status is %c, want T", conn.Conn().PgConn().TxStatus())
	}
	head := chain.Start()
	e, err := head.Append(tbl.ID, "test", map[string]int{"n": 1}, locked.CreatedAt)
	e.Seal = testSeal
	if err != nil {
		t.Fatal(err)
	}
	b.TableAppend(tbl.ID, db.Append{Events: []chain.Event{e}, Head: head}, nil)
	b.Commit()
	if err := b.Send(conn); err != nil {
		t.Fatal(err)
	}
	if conn.Conn().PgConn().TxStatus() != 'I' {
		t.Fatalf("after COMMIT the transaction status is %c, want I", conn.Conn().PgConn().TxStatus())
	}
	var events []chain.Event
	var after db.Table
	b.EventList(tbl.ID, &events)
	b.TableGet(tbl.ID, &after)
	if err := b.Send(conn); err != nil {
		t.Fatal(err)
	}
	if r := chain.Verify(events); !r.OK || r.Events != 1 || after.Head.Seq != 1 || string(after.Head.Hash) != string(r.Head) {
		t.Fatalf("events %+v (%+v), table head %+v", events, r, after.Head)
	}
	// The audit log is append-only: the runtime role may not touch it,
	// and its owner's changes are refused by its triggers.
	owner, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, conn.Conn().Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	for _, sql := range []string{`UPDATE events SET kind = 'x'`, `DELETE FROM events`, `TRUNCATE events`} {
		if _, err := conn.Exec(ctx, sql); db.SentinelFor(err) != db.ErrForbidden {
			t.Errorf("%s as the runtime role: err = %v, want ErrForbidden", sql, err)
		}
		if _, err := owner.Exec(ctx, sql); db.SentinelFor(err) != db.ErrAppendOnly {
			t.Errorf("%s as the owner: err = %v, want ErrAppendOnly", sql, err)
		}
	}
}
