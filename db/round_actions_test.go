package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
)

// TestActionsStoredBeforeTheHostSeat: migration 12 keeps what the events
// say of who recorded the round actions stored before it. A round.action
// event that says byHost (one throw, one record wrote it, when the host
// had no seat of its own) fills in by_host; an older round.action, and
// every take-back (round.voided said nothing then), stay NULL, read as
// not known.
func TestActionsStoredBeforeTheHostSeat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.DSNAt(t, 11)
	owner := dbtest.OwnerDSN(t, dsn)
	if dbtest.Citus() {
		// A database upgraded on Citus is distributed already.
		if _, err := db.Distribute(ctx, owner); err != nil {
			t.Fatalf("distribute at version 11: %v", err)
		}
	}
	old, err := pgxpool.New(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	// The query code is the newest schema's: the table is made as
	// migration 11's schema has it.
	var tbl db.Table
	rs, err := json.Marshal(game.Ruleset{})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.QueryRow(ctx, `INSERT INTO tables (name, ruleset, currency, join_code, host_token_hash, audit_token_hash)
		VALUES ('Table BYHOST', $1, 'units', 'BYHOST', $2, $3) RETURNING id`, rs, hash32("hostBYHOST"), hash32("auditBYHOST")).Scan(&tbl.ID); err != nil {
		t.Fatal(err)
	}
	var ann int64
	if err := old.QueryRow(ctx, `INSERT INTO players (table_id, name, seat, token_hash) VALUES ($1, 'Ann', 1, $2) RETURNING id`,
		tbl.ID, hash32("Ann")).Scan(&ann); err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch(ctx)
	b.RoundInsert(tbl.ID, db.Round{Number: 1, Setup: game.RoundSetup{Players: []game.PlayerID{game.PlayerID(ann)}},
		Game: game.GameState{Seats: []game.PlayerID{game.PlayerID(ann)}, Totals: []int64{0}}})
	must(t, old, b)
	stored := []struct {
		kind, event, payload string
		voids                any
	}{
		{"roll", "round.action", `{"round": 1, "seq": 1, "action": {"player": %d, "kind": "roll"}, "byHost": true}`, nil},
		{"stand", "round.action", `{"round": 1, "seq": 2, "action": {"player": %d, "kind": "stand"}, "byHost": false}`, nil},
		{"void", "round.voided", `{"round": 1, "seq": 3, "player": %d, "voids": 2}`, 2},
		{"stand", "round.action", `{"round": 1, "seq": 4, "action": {"player": %d, "kind": "stand"}}`, nil},
	}
	hash := make([]byte, 32)
	for i, a := range stored {
		seq := i + 1
		if _, err := old.Exec(ctx, `INSERT INTO events (table_id, seq, kind, payload, created_at, prev_hash, hash, seal)
			VALUES ($1, $2, $3, $4::jsonb, now(), $5, $5, $5)`, tbl.ID, seq, a.event, fmt.Sprintf(a.payload, ann), hash); err != nil {
			t.Fatalf("event %d: %v", seq, err)
		}
		if _, err := old.Exec(ctx, `INSERT INTO round_actions (table_id, round_id, seq, player_id, kind, event_seq, voids)
			SELECT r.table_id, r.id, $2::int, $3, $4, $2::bigint, $5 FROM rounds r WHERE r.table_id = $1 AND r.number = 1`,
			tbl.ID, seq, ann, a.kind, a.voids); err != nil {
			t.Fatalf("action %d: %v", seq, err)
		}
	}
	// A pool of its own on each side of the migration: a connection's
	// prepared statements would not survive the change of columns.
	old.Close()
	if v, want := dbtest.Upgrade(t, dsn), latestMigration(t); v != want {
		t.Fatalf("upgraded to version %d, want %d", v, want)
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var actions []db.Action
	b = db.NewBatch(ctx)
	b.ActionListByTable(tbl.ID, &actions)
	must(t, pool, b)
	want := []string{"true", "false", "not known", "not known"}
	if len(actions) != len(want) {
		t.Fatalf("%d actions read back, want %d", len(actions), len(want))
	}
	for i, a := range actions {
		got := "not known"
		if a.ByHost != nil {
			got = fmt.Sprint(*a.ByHost)
		}
		if got != want[i] {
			t.Errorf("action %d (%s): by the host %s, want %s", a.Seq, a.Action.Kind, got, want[i])
		}
	}
}

// TestANewActionSaysWhoRecordedIt: TableAppend takes no round action that
// does not say whether the host's phone recorded it; only actions stored
// before migration 12 may not.
func TestANewActionSaysWhoRecordedIt(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("an action that does not say who recorded it was queued")
		}
	}()
	db.NewBatch(context.Background()).TableAppend(1, db.Append{Round: 1,
		Actions: []db.Action{{Seq: 1, EventSeq: 1, Action: game.Action{Player: 1, Kind: game.ActionStand}}}})
}
