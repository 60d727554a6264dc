package db_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// hash32 makes a distinct 32-byte token hash for fixtures.
func hash32(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// newTable inserts an open table with the given join code.
func newTable(t *testing.T, q db.DBTX, code string) db.Table {
	t.Helper()
	tbl, err := db.TableInsert(context.Background(), q, db.TableInsertParams{
		Name: "Table " + code, Ruleset: json.RawMessage(`{"preset":"bar"}`), JoinCode: code,
		HostTokenHash: hash32("host" + code), AuditTokenHash: hash32("audit" + code),
	})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// newPlayer seats a player.
func newPlayer(t *testing.T, q db.DBTX, tableID int64, name string, seat int) db.Player {
	t.Helper()
	p, err := db.PlayerInsert(context.Background(), q, db.PlayerInsertParams{
		TableID: tableID, Name: name, Seat: seat, TokenHash: hash32(fmt.Sprint(tableID, name, seat)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMigrateUpDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.DSN(t)
	latest := latestMigration(t)
	if v, dirty, err := db.MigrationVersion(ctx, dsn); err != nil || dirty || v != latest {
		t.Fatalf("fresh test database: version %d dirty %v err %v, want %d", v, dirty, err, latest)
	}
	if v, err := db.Migrate(ctx, dsn, "up"); err != nil || v != latest {
		t.Fatalf("up with nothing to do: version %d err %v", v, err)
	}
	if v, err := db.Migrate(ctx, dsn, "down"); err != nil || v != 0 {
		t.Fatalf("down: version %d err %v", v, err)
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var n int
	err = pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`).Scan(&n)
	if err != nil || n != 0 {
		t.Fatalf("after down: %d tables left (err %v)", n, err)
	}
	if v, err := db.Migrate(ctx, dsn, "up"); err != nil || v != latest {
		t.Fatalf("up again: version %d err %v", v, err)
	}
	newTable(t, pool, "AGAIN")
	if _, err := db.Migrate(ctx, dsn, "sideways"); err == nil {
		t.Fatal("unknown direction accepted")
	}
}

func TestDatabasesAreFreshAndSeparate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := dbtest.Pool(t), dbtest.Pool(t)
	newTable(t, a, "ONLYA")
	var n int
	if err := b.QueryRow(ctx, `SELECT count(*) FROM tables`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("second database sees %d tables (err %v), want 0", n, err)
	}
}

func TestTablesAndPlayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "JOIN1")
	if tbl.Status != db.TableOpen || tbl.Currency != "units" || tbl.ClosedAt != nil {
		t.Fatalf("new table = %+v", tbl)
	}
	if _, err := db.TableInsert(ctx, pool, db.TableInsertParams{Name: "x", Ruleset: json.RawMessage(`{}`),
		JoinCode: "JOIN1", HostTokenHash: hash32("a"), AuditTokenHash: hash32("b")}); !errorsIs(err, db.ErrConflict) {
		t.Fatalf("duplicate join code: err = %v, want ErrConflict", err)
	}
	got, err := db.TableGetByJoinCode(ctx, pool, "JOIN1")
	if err != nil || got.ID != tbl.ID || !bytes.Equal(got.HostTokenHash, hash32("hostJOIN1")) {
		t.Fatalf("by join code: %+v, %v", got, err)
	}
	if _, err := db.TableGet(ctx, pool, tbl.ID+1000); !errorsIs(err, db.ErrNotFound) {
		t.Fatalf("missing table: err = %v, want ErrNotFound", err)
	}
	ann := newPlayer(t, pool, tbl.ID, "Ann", 1)
	newPlayer(t, pool, tbl.ID, "Bob", 2)
	for _, p := range []db.PlayerInsertParams{
		{TableID: tbl.ID, Name: "Cy", Seat: 1, TokenHash: hash32("cy")},
		{TableID: tbl.ID, Name: "ann", Seat: 3, TokenHash: hash32("ann2")},
	} {
		if _, err := db.PlayerInsert(ctx, pool, p); !errorsIs(err, db.ErrConflict) {
			t.Errorf("seat %d name %q: err = %v, want ErrConflict", p.Seat, p.Name, err)
		}
	}
	if _, err := db.PlayerLeave(ctx, pool, ann.ID); err != nil {
		t.Fatal(err)
	}
	newPlayer(t, pool, tbl.ID, "Cy", 1) // the seat is free again
	players, err := db.PlayerList(ctx, pool, tbl.ID)
	if err != nil || len(players) != 3 {
		t.Fatalf("players: %d, %v", len(players), err)
	}
	closed, err := db.TableClose(ctx, pool, tbl.ID)
	if err != nil || closed.Status != db.TableClosed || closed.ClosedAt == nil {
		t.Fatalf("close: %+v, %v", closed, err)
	}
	if _, err := db.TableClose(ctx, pool, tbl.ID); !errorsIs(err, db.ErrNotFound) {
		t.Fatalf("closing twice: err = %v, want ErrNotFound", err)
	}
}

func TestRoundsAndActions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	tbl := newTable(t, pool, "R1")
	p := newPlayer(t, pool, tbl.ID, "Ann", 1)
	r1, err := db.RoundInsert(ctx, pool, tbl.ID, json.RawMessage(`{"order":[1]}`))
	if err != nil || r1.Number != 1 || r1.Status != db.RoundOpen {
		t.Fatalf("round 1: %+v %v", r1, err)
	}
	for i, kind := range []string{"roll", "roll", "stand"} {
		a, err := db.RoundActionAppend(ctx, pool, r1.ID, &p.ID, kind, json.RawMessage(`{"dice":[6,5,4,3,2]}`))
		if err != nil || a.Seq != i+1 {
			t.Fatalf("action %d: %+v %v", i+1, a, err)
		}
	}
	actions, err := db.RoundActionList(ctx, pool, r1.ID)
	if err != nil || len(actions) != 3 || actions[2].Kind != "stand" {
		t.Fatalf("actions: %+v %v", actions, err)
	}
	if err := db.TurnInsert(ctx, pool, r1.ID, p.ID, 1, json.RawMessage(`{"score":5}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RoundFinish(ctx, pool, r1.ID, db.RoundSettled, json.RawMessage(`{"winner":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RoundFinish(ctx, pool, r1.ID, db.RoundSettled, nil); !errorsIs(err, db.ErrNotFound) {
		t.Fatalf("finishing twice: err = %v, want ErrNotFound", err)
	}
	r2, err := db.RoundInsert(ctx, pool, tbl.ID, nil)
	if err != nil || r2.Number != 2 {
		t.Fatalf("round 2: %+v %v", r2, err)
	}
	latest, err := db.RoundLatest(ctx, pool, tbl.ID)
	if err != nil || latest.ID != r2.ID {
		t.Fatalf("latest: %+v %v", latest, err)
	}
}

// latestMigration is the highest version among the embedded migrations.
func latestMigration(t *testing.T) uint {
	t.Helper()
	names, err := fs.Glob(db.MigrationFiles(), "*.up.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("no migrations embedded: %v", err)
	}
	var latest uint
	for _, n := range names {
		v, err := strconv.ParseUint(strings.SplitN(n, "_", 2)[0], 10, 32)
		if err != nil {
			t.Fatalf("migration %s: %v", n, err)
		}
		latest = max(latest, uint(v))
	}
	return latest
}
