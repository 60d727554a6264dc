package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
)

// TestTheKeptCheck: TableLockKept passes on a table exactly as the last
// TableAppend left it, with the round in play described by ActionsDigest
// in Go as the statement describes the stored one, and fails (committing
// nothing after it) when the row moved on, when the round in play is not
// the one described, or when an action was changed by hand.
func TestTheKeptCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "K1")
	ann := newPlayer(t, pool, tbl.ID, "Ann", 1)
	bob := newPlayer(t, pool, tbl.ID, "Bob", 2)
	check := func(rowVersion, actionsDigest string) error {
		b := db.NewBatch(ctx)
		b.Begin()
		b.TableLockKept(tbl.ID, rowVersion, tbl.HostTokenHash, actionsDigest)
		b.Commit()
		return send(t, pool, b)
	}

	// Before any round: the row as TableAppend left it, and no round.
	head := chain.Start()
	var version string
	b := db.NewBatch(ctx)
	b.TableAppend(tbl.ID, db.Append{Events: events(t, &head, tbl.ID, 1), Head: head}, &version)
	must(t, pool, b)
	if version == "" {
		t.Fatal("TableAppend gave no row version")
	}
	if err := check(version, db.ActionsDigest(0, nil)); err != nil {
		t.Fatalf("the table as left, before its first round: %v", err)
	}

	// A round with every kind of column an action has.
	yes, no := true, false
	actions := []db.Action{
		{Seq: 1, EventSeq: 3, Action: game.Action{Player: bob.ID, Kind: game.ActionRoll, Roll: &game.Roll{Dice: []int{6, 5, 4, 3, 2}}}, ByHost: &yes},
		{Seq: 2, EventSeq: 4, Action: game.Action{Player: bob.ID, Kind: game.ActionRoll, Roll: &game.Roll{Dice: []int{6, 1}, Rethrow: []int{3, 2}, Path: "6-5-4"}}, ByHost: &no},
		{Seq: 3, EventSeq: 5, Voids: 2, Reason: "misread: it was a 2 — désolé", Action: game.Action{Player: bob.ID, Kind: "void"}, ByHost: &yes},
		{Seq: 4, EventSeq: 6, Action: game.Action{Player: ann.ID, Kind: game.ActionStand}, ByHost: &no},
	}
	b.RoundInsert(tbl.ID, db.Round{Number: 1, Setup: game.RoundSetup{Players: []game.PlayerID{bob.ID, ann.ID}},
		Game: game.GameState{Seats: []game.PlayerID{ann.ID, bob.ID}, First: 1, Totals: []int64{0, 0}}})
	old := version
	b.TableAppend(tbl.ID, db.Append{Round: 1, Actions: actions, Events: events(t, &head, tbl.ID, 5), Head: head, Rounds: 1,
		At: time.Now()}, &version)
	must(t, pool, b)
	var l db.Loaded
	b.TableLoad(tbl.ID, db.KeyRef{}, &l)
	must(t, pool, b)
	if db.ActionsDigest(1, l.Actions) != db.ActionsDigest(1, actions) {
		t.Fatalf("the actions as read describe otherwise than as written: %+v", l.Actions)
	}
	if err := check(version, db.ActionsDigest(1, actions)); err != nil {
		t.Fatalf("the table as left, round 1 in play: %v", err)
	}
	for _, c := range []struct {
		what            string
		row, actionsNow string
	}{
		{"the row before the last write", old, db.ActionsDigest(1, actions)},
		{"no round in play", version, db.ActionsDigest(0, nil)},
		{"round 2 in play", version, db.ActionsDigest(2, actions)},
		{"one action fewer", version, db.ActionsDigest(1, actions[:3])},
		{"another reason", version, db.ActionsDigest(1, with(actions, 2, func(a *db.Action) { a.Reason = "misread" }))},
		{"another path", version, db.ActionsDigest(1, with(actions, 1, func(a *db.Action) {
			a.Action.Roll = &game.Roll{Dice: []int{6, 1}, Rethrow: []int{3, 2}, Path: "6-5"}
		}))},
		{"recorded by another phone", version, db.ActionsDigest(1, with(actions, 3, func(a *db.Action) { a.ByHost = &yes }))},
	} {
		if err := check(c.row, c.actionsNow); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", c.what, err)
		}
	}
	b.Begin()
	b.TableLockKept(tbl.ID, version, hash32("a token the table does not know"), db.ActionsDigest(1, actions))
	b.Commit()
	if err := send(t, pool, b); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("a token the table does not know: err = %v, want ErrNotFound", err)
	}
	b.Begin()
	b.TableLockKept(tbl.ID, version, bob.TokenHash, db.ActionsDigest(1, actions))
	b.Commit()
	if err := send(t, pool, b); err != nil {
		t.Errorf("a player's token: %v", err)
	}

	// An action changed by hand, behind the service's back: the check
	// fails, and the transaction it began commits nothing after it.
	owner, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, pool.Config().ConnConfig.ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	if tag, err := owner.Exec(ctx, `UPDATE round_actions SET dice = '{6,6,6,6,6}' WHERE table_id = $1 AND seq = 1`, tbl.ID); err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("changing an action by hand: %v, %v", tag, err)
	}
	b.Begin()
	b.TableLockKept(tbl.ID, version, tbl.HostTokenHash, db.ActionsDigest(1, actions))
	b.TableClose(tbl.ID, time.Now())
	b.Commit()
	if err := send(t, pool, b); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("an action changed by hand: err = %v, want ErrNotFound", err)
	}
	var row db.Table
	b.TableGet(tbl.ID, &row)
	must(t, pool, b)
	if row.Status != "open" {
		t.Fatalf("the failed check's transaction closed the table: %+v", row)
	}

	// The row changed by hand (the action put back): a new version.
	for _, sql := range []string{`UPDATE round_actions SET dice = '{6,5,4,3,2}' WHERE table_id = $1 AND seq = 1`,
		`UPDATE tables SET no_overdraft = true WHERE id = $1`} {
		if _, err := owner.Exec(ctx, sql, tbl.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := check(version, db.ActionsDigest(1, actions)); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("the table row changed by hand: err = %v, want ErrNotFound", err)
	}
}

// events appends n test events to head.
func events(t *testing.T, head *chain.Head, table int64, n int) []chain.Event {
	t.Helper()
	out := make([]chain.Event, n)
	for i := range out {
		e, err := head.Append(table, "test", map[string]int{"i": i}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		e.Seal = testSeal
		out[i] = e
	}
	return out
}

// with is actions with action i changed by change.
func with(actions []db.Action, i int, change func(*db.Action)) []db.Action {
	out := append([]db.Action(nil), actions...)
	change(&out[i])
	return out
}
