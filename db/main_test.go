package db_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// hash32 makes a distinct 32-byte token hash for fixtures.
func hash32(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// send sends a batch on a connection of the pool.
func send(t *testing.T, pool *pgxpool.Pool, b *db.Batch) error {
	t.Helper()
	conn, err := pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	return b.Send(conn)
}

// must sends a batch that has to succeed.
func must(t *testing.T, pool *pgxpool.Pool, b *db.Batch) {
	t.Helper()
	if err := send(t, pool, b); err != nil {
		t.Fatal(err)
	}
}

// newTable makes an open table with the given join code.
func newTable(t *testing.T, pool *pgxpool.Pool, code string) db.Table {
	t.Helper()
	b := db.NewBatch(context.Background())
	var id int64
	b.TableNextID(&id)
	must(t, pool, b)
	rs, err := game.NewRuleset("bar", game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tbl db.Table
	b.TableInsert(db.NewTable{ID: id, Name: "Table " + code, Rules: rs, Currency: "units", JoinCode: code,
		HostTokenHash: hash32("host" + code), AuditTokenHash: hash32("audit" + code)}, &tbl)
	must(t, pool, b)
	return tbl
}

// newPlayer seats a player.
func newPlayer(t *testing.T, pool *pgxpool.Pool, tableID int64, name string, seat int) db.Player {
	t.Helper()
	var p db.Player
	b := db.NewBatch(context.Background())
	b.PlayerInsert(tableID, db.NewPlayer{Name: name, Seat: seat, TokenHash: hash32(fmt.Sprint(tableID, name, seat))}, &p)
	must(t, pool, b)
	return p
}

func TestDatabasesAreFreshAndSeparate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := dbtest.Pool(t), dbtest.Pool(t)
	newTable(t, a, "ONLYA")
	var n int
	if err := dbtest.OwnerPool(t, b).QueryRow(ctx, `SELECT count(*) FROM tables`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("second database sees %d tables (err %v), want 0", n, err)
	}
}

func TestTablesAndPlayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "JOIN1")
	if tbl.Status != db.TableOpen || tbl.Currency != "units" || tbl.ClosedAt != nil || tbl.Head.Seq != 0 ||
		string(tbl.Head.Hash) != string(chain.Genesis) || tbl.Rules.Preset != "bar" {
		t.Fatalf("new table = %+v", tbl)
	}
	var accounts []db.Account
	b := db.NewBatch(ctx)
	b.AccountList(tbl.ID, &accounts)
	must(t, pool, b)
	if len(accounts) != 2 || accounts[0].Kind != db.AccountPot || accounts[1].Kind != db.AccountWorld {
		t.Fatalf("a new table's accounts: %+v, want its pot and bank", accounts)
	}
	var dup db.Table
	b.TableInsert(db.NewTable{ID: tbl.ID + 100, Name: "x", Currency: "units", JoinCode: "JOIN1",
		HostTokenHash: hash32("a"), AuditTokenHash: hash32("b")}, &dup)
	if err := send(t, pool, b); !errors.Is(err, db.ErrConflict) || db.ConflictOn(err) != db.KeyJoinCode {
		t.Fatalf("duplicate join code: err = %v (on %q), want ErrConflict on the join code", err, db.ConflictOn(err))
	}
	var byCode, missing int64
	var locked db.Table
	b.JoinCodeGet("JOIN1", &byCode)
	b.JoinCodeGet("NOPE11", &missing)
	b.TableGet(tbl.ID+1000, &locked)
	must(t, pool, b)
	if byCode != tbl.ID || missing != 0 || locked.ID != 0 {
		t.Fatalf("by join code %d, unknown code %d, missing table %+v", byCode, missing, locked)
	}
	ann := newPlayer(t, pool, tbl.ID, "Ann", 1)
	newPlayer(t, pool, tbl.ID, "Bob", 2)
	for _, p := range []db.NewPlayer{
		{Name: "Cy", Seat: 1, TokenHash: hash32("cy")},
		{Name: "ann", Seat: 3, TokenHash: hash32("ann2")},
	} {
		b.PlayerInsert(tbl.ID, p, new(db.Player))
		err := send(t, pool, b)
		if !errors.Is(err, db.ErrConflict) {
			t.Errorf("seat %d name %q: err = %v, want ErrConflict", p.Seat, p.Name, err)
		}
		if on := db.ConflictOn(err); (on == db.KeyPlayerName) != (p.Name == "ann") {
			t.Errorf("seat %d name %q: conflict on %q", p.Seat, p.Name, on)
		}
	}
	b.PlayerLeave(tbl.ID, ann.ID)
	must(t, pool, b)
	newPlayer(t, pool, tbl.ID, "Cy", 1) // the seat is free again
	var players []db.Player
	var byHost, byAnn, byStranger db.Table
	b.PlayerList(tbl.ID, &players)
	b.AccountList(tbl.ID, &accounts)
	b.TableLockAs(tbl.ID, hash32("hostJOIN1"), &byHost)
	b.TableLockAs(tbl.ID, ann.TokenHash, &byAnn)
	b.TableLockAs(tbl.ID, hash32("stranger"), &byStranger)
	must(t, pool, b)
	var byToken db.Player
	for _, p := range players {
		if string(p.TokenHash) == string(ann.TokenHash) {
			byToken = p
		}
	}
	if len(players) != 3 || len(accounts) != 5 || byToken.ID != ann.ID || byToken.LeftAt == nil {
		t.Fatalf("players %+v, accounts %+v, Ann by token %+v", players, accounts, byToken)
	}
	if byHost.ID != tbl.ID || byAnn.ID != tbl.ID || byStranger.ID != 0 {
		t.Fatalf("locked by the host's token %d, Ann's (who left) %d, a stranger's %d", byHost.ID, byAnn.ID, byStranger.ID)
	}
	b.TableClose(tbl.ID, time.Now())
	must(t, pool, b)
	b.TableClose(tbl.ID, time.Now())
	if err := send(t, pool, b); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("closing twice: err = %v, want ErrNotFound", err)
	}
}

func TestRoundsActionsAndTheTableState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "R1")
	p := newPlayer(t, pool, tbl.ID, "Ann", 1)
	q := newPlayer(t, pool, tbl.ID, "Bob", 2)
	setup := game.RoundSetup{Players: []game.PlayerID{q.ID, p.ID}, CarriedPot: 3, Ante: true}
	state := game.GameState{Seats: []game.PlayerID{p.ID, q.ID}, First: 1, Pot: 3, Ante: true, Totals: []int64{0, 0}}
	yes, no := true, false
	head := chain.Start()
	var events []chain.Event
	for i := range 4 {
		e, err := head.Append(tbl.ID, "test", map[string]int{"i": i}, tbl.CreatedAt)
		e.Seal = testSeal
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	b := db.NewBatch(ctx)
	b.RoundInsert(tbl.ID, db.Round{Number: 1, Setup: setup, Game: state})
	b.TableAppend(tbl.ID, db.Append{Round: 1, Events: events, Head: head, Rounds: 1,
		Actions: []db.Action{
			{Seq: 1, EventSeq: 2, Action: game.Action{Player: q.ID, Kind: game.ActionRoll, Roll: &game.Roll{Dice: []int{6, 5, 4, 3, 2}}}, ByHost: &yes},
			{Seq: 2, EventSeq: 3, Action: game.Action{Player: q.ID, Kind: game.ActionRoll, Roll: &game.Roll{Dice: []int{6, 1}, Rethrow: []int{3, 2}, Path: "6-5-4"}}, ByHost: &no},
			{Seq: 3, EventSeq: 4, Action: game.Action{Player: q.ID, Kind: game.ActionStand}, ByHost: &no},
		},
		Turns: []db.Turn{{Round: 1, Seq: 1, Player: q.ID, Qualified: true, Score: 7, Cargo: []int{6, 1}, Stood: true}},
		Key:   db.IdempotencyKey{TableID: tbl.ID, Scope: "s", Key: "k", RequestHash: hash32("r"), Status: 201, Body: []byte(`{}`)},
		At:    time.Now()})
	must(t, pool, b)
	var row db.Table
	var l db.Loaded
	var got db.Round
	var all []db.Action
	var turns []db.Turn
	b.TableGet(tbl.ID, &row)
	b.TableLoad(tbl.ID, db.KeyRef{TableID: tbl.ID, Scope: "s", Key: "k", Since: time.Now().Add(-time.Hour)}, &l)
	b.RoundGet(tbl.ID, 1, &got)
	b.ActionListByTable(tbl.ID, &all)
	b.TurnListByTable(tbl.ID, &turns)
	must(t, pool, b)
	if row.Head.Seq != 4 || string(row.Head.Hash) != string(head.Hash) || row.Rounds != 1 {
		t.Fatalf("the table's head %+v, rounds %d", row.Head, row.Rounds)
	}
	latest := l.Latest
	if latest.Number != 1 || latest.Status != db.RoundOpen || fmt.Sprint(latest.Setup) != fmt.Sprint(setup) ||
		fmt.Sprint(latest.Game) != fmt.Sprint(state) || fmt.Sprint(got) != fmt.Sprint(latest) {
		t.Fatalf("round 1 read back as %+v and %+v", latest, got)
	}
	actions := l.Actions
	if len(actions) != 3 || len(all) != 3 || all[2].Round != 1 || actions[1].EventSeq != 3 || actions[1].Round != 1 ||
		fmt.Sprint(*actions[1].Action.Roll) != fmt.Sprint(game.Roll{Dice: []int{6, 1}, Rethrow: []int{3, 2}, Path: "6-5-4"}) ||
		actions[2].Action.Roll != nil || actions[2].Action.Kind != game.ActionStand ||
		actions[0].ByHost == nil || !*actions[0].ByHost || actions[1].ByHost == nil || *actions[1].ByHost || all[0].ByHost == nil || !*all[0].ByHost {
		t.Fatalf("actions read back as %+v and %+v", actions, all)
	}
	if len(turns) != 1 || turns[0].Round != 1 || turns[0].Score != 7 || fmt.Sprint(turns[0].Cargo) != "[6 1]" {
		t.Fatalf("turns read back as %+v", turns)
	}
	if len(l.Players) != 2 || l.Players[1].Name != "Bob" || len(l.Accounts) != 4 || string(l.Players[1].TokenHash) != string(q.TokenHash) ||
		l.Key.Status != 201 || string(l.Key.Body) != `{}` || string(l.Key.RequestHash) != string(hash32("r")) {
		t.Fatalf("the table's state: %+v", l)
	}
	b.TableAppend(tbl.ID, db.Append{Settles: 1, Events: settled(t, &head, tbl.ID, 1), Head: head, Rounds: 1})
	must(t, pool, b)
	b.TableAppend(tbl.ID, db.Append{Settles: 1, Events: settled(t, &head, tbl.ID, 1), Head: head, Rounds: 1})
	if err := send(t, pool, b); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("settling twice: err = %v, want ErrNotFound", err)
	}
	b.TableAppend(tbl.ID, db.Append{Head: head, Rounds: 1, Key: db.IdempotencyKey{TableID: tbl.ID, Scope: "s", Key: "k", RequestHash: hash32("r")}})
	if err := send(t, pool, b); !errors.Is(err, db.ErrConflict) {
		t.Fatalf("a key stored twice: err = %v, want ErrConflict", err)
	}
	b.RoundInsert(tbl.ID, db.Round{Number: 1, Setup: setup, Game: state})
	if err := send(t, pool, b); !errors.Is(err, db.ErrConflict) {
		t.Fatalf("a second round 1: err = %v, want ErrConflict", err)
	}
}

// TestAGuardStopsTheCommit: a guarded change that finds its row not as the
// service saw it fails its statement, so the COMMIT queued after it in the
// same round trip commits nothing of the write.
func TestAGuardStopsTheCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "GUARD1")
	ann := newPlayer(t, pool, tbl.ID, "Ann", 1)
	b := db.NewBatch(ctx)
	b.RoundInsert(tbl.ID, db.Round{Number: 1, Setup: game.RoundSetup{Players: []game.PlayerID{ann.ID}},
		Game: game.GameState{Seats: []game.PlayerID{ann.ID}, Totals: []int64{0}}})
	head := chain.Start()
	b.TableAppend(tbl.ID, db.Append{Settles: 1, Events: settled(t, &head, tbl.ID, 1), Head: head, Rounds: 1})
	must(t, pool, b)
	b.PlayerClaim(tbl.ID, ann.ID, hash32("ann's phone"))
	must(t, pool, b)

	e, err := head.Append(tbl.ID, "test", map[string]int{"i": 1}, tbl.CreatedAt)
	e.Seal = testSeal
	if err != nil {
		t.Fatal(err)
	}
	roll := game.Action{Player: ann.ID, Kind: game.ActionRoll, Roll: &game.Roll{Dice: []int{6, 5, 4, 3, 2}}}
	writes := map[string]func(b *db.Batch){
		"settling a settled round": func(b *db.Batch) {
			b.TableAppend(tbl.ID, db.Append{Settles: 1, Events: []chain.Event{e}, Head: head, Rounds: 1})
		},
		"actions of a missing round": func(b *db.Batch) {
			b.TableAppend(tbl.ID, db.Append{Round: 9, Actions: []db.Action{{Seq: 1, EventSeq: 1, Action: roll, ByHost: new(bool)}},
				Events: []chain.Event{e}, Head: head, Rounds: 1})
		},
		"turns of a missing round": func(b *db.Batch) {
			b.TableAppend(tbl.ID, db.Append{Round: 9, Turns: []db.Turn{{Round: 9, Seq: 1, Player: ann.ID}},
				Events: []chain.Event{e}, Head: head, Rounds: 1})
		},
		"claiming a claimed seat": func(b *db.Batch) {
			b.PlayerClaim(tbl.ID, ann.ID, hash32("another phone"))
			b.TableAppend(tbl.ID, db.Append{Events: []chain.Event{e}, Head: head, Rounds: 1})
		},
	}
	for what, write := range writes {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b.Begin()
		write(b)
		b.Commit()
		err = b.Send(conn)
		conn.Release()
		if !errors.Is(err, db.ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", what, err)
		}
		var row db.Table
		var players []db.Player
		b.TableGet(tbl.ID, &row)
		b.PlayerList(tbl.ID, &players)
		must(t, pool, b)
		var events int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE table_id = $1`, tbl.ID).Scan(&events); err != nil {
			t.Fatal(err)
		}
		// Only round 1's settlement, written before, is there.
		if events != 1 || row.Head.Seq != 1 || string(players[0].TokenHash) != string(hash32("ann's phone")) {
			t.Errorf("%s committed: %d events, head %d, Ann's token changed %v", what, events, row.Head.Seq,
				string(players[0].TokenHash) != string(hash32("ann's phone")))
		}
	}
}

// testSeal stands in for an event's seal, which the database requires and
// only the service can make (package seal).
var testSeal = make([]byte, 32)

// settled is the event that records round n of table settling, appended
// to head: a round's status changes only with it (migration 10).
func settled(t *testing.T, head *chain.Head, table int64, n int) []chain.Event {
	t.Helper()
	e, err := head.Append(table, "round.settled", map[string]int{"round": n}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e.Seal = testSeal
	return []chain.Event{e}
}
