package db_test

import (
	"context"
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
)

// TestDistributeNeedsCitus: `tallyd migrate up --citus` on plain
// PostgreSQL says what is missing and changes nothing; on Citus (TEST_CITUS)
// every table is distributed as db.Distribution says, the certificate
// cache stays local, and distributing again changes nothing.
func TestDistributeNeedsCitus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	owner := dbtest.OwnerDSN(t, dbtest.DSN(t))
	done, err := db.Distribute(ctx, owner)
	if !dbtest.Citus() {
		if !errors.Is(err, db.ErrNotCitus) || len(done) != 0 || !strings.Contains(err.Error(), "CREATE EXTENSION citus") {
			t.Fatalf("Distribute on plain PostgreSQL: %v, %v", done, err)
		}
		return
	}
	if err != nil || len(done) != 0 {
		t.Fatalf("Distribute again: %v, %v", done, err)
	}
	conn, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var local bool
	if err := conn.QueryRow(ctx, "SELECT NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'acme_cache'::regclass)").Scan(&local); err != nil || !local {
		t.Errorf("acme_cache must stay a local table of the coordinator: local %v, %v", local, err)
	}
	for _, d := range db.Distribution {
		var column string
		if err := conn.QueryRow(ctx, "SELECT column_to_column_name(logicalrelid, partkey) FROM pg_dist_partition WHERE logicalrelid = $1::regclass",
			d.Table).Scan(&column); err != nil || column != d.Column {
			t.Errorf("%s is distributed by %q (%v), want %q", d.Table, column, err, d.Column)
		}
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

func TestMigrateUpDownUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.OwnerDSN(t, dbtest.DSN(t)) // migrations run as the owner
	latest := latestMigration(t)
	if v, dirty, err := db.MigrationVersion(ctx, dsn); err != nil || dirty || v != latest {
		t.Fatalf("fresh test database: version %d dirty %v err %v, want %d", v, dirty, err, latest)
	}
	if v, err := db.Migrate(ctx, dsn, "up"); err != nil || v != latest {
		t.Fatalf("up with nothing to do: version %d err %v", v, err)
	}
	if dbtest.Citus() {
		refusedDownOnCitus(t, dsn, latest)
		return
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

// refusedDownOnCitus: on Citus, migrations do not go down (a distributed
// table cannot take back older constraints, nor be made local with its
// identity columns); the refusal changes nothing.
func refusedDownOnCitus(t *testing.T, dsn string, latest uint) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Migrate(ctx, dsn, "down"); !errors.Is(err, db.ErrDistributedDown) {
		t.Fatalf("down on Citus: %v", err)
	}
	if err := db.MigrateTo(ctx, dsn, 2); !errors.Is(err, db.ErrDistributedDown) {
		t.Fatalf("to version 2 on Citus: %v", err)
	}
	if v, dirty, err := db.MigrationVersion(ctx, dsn); err != nil || dirty || v != latest {
		t.Fatalf("after the refusals: version %d dirty %v err %v, want %d", v, dirty, err, latest)
	}
}

// TestMigrateDownRefusesWithRounds: a round stored under migration 3
// cannot be carried back (the old schema keeps engine-built results), so
// the way down stops there: migration 3 refuses, changes nothing and
// leaves the version clean at 3.
func TestMigrateDownRefusesWithRounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.OwnerDSN(t, dbtest.DSN(t)) // migrations run as the owner
	latest := latestMigration(t)
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tbl := newTable(t, pool, "DOWN")
	p := newPlayer(t, pool, tbl.ID, "Ann", 1)
	b := db.NewBatch(ctx)
	b.RoundInsert(tbl.ID, db.Round{Number: 1, Setup: game.RoundSetup{Players: []game.PlayerID{p.ID}},
		Game: game.GameState{Seats: []game.PlayerID{p.ID}, Totals: []int64{0}}})
	must(t, pool, b)

	if dbtest.Citus() {
		refusedDownOnCitus(t, dsn, latest)
		return
	}
	_, err = db.Migrate(ctx, dsn, "down")
	if err == nil || !strings.Contains(err.Error(), "cannot be reverted with rounds stored") {
		t.Fatalf("down with a round stored: %v", err)
	}
	if err := db.MigrateTo(ctx, dsn, 2); err == nil || !strings.Contains(err.Error(), "restore a backup") {
		t.Fatalf("to version 2 with a round stored: %v", err)
	}
	// The steps down before migration 3 ran; migration 3 refused and left
	// the database clean at its own version.
	if v, dirty, err := db.MigrationVersion(ctx, dsn); err != nil || dirty || v != 3 {
		t.Fatalf("after the refusals: version %d dirty %v err %v, want 3 clean", v, dirty, err)
	}
	var rounds int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM rounds WHERE table_id = $1`, tbl.ID).Scan(&rounds); err != nil || rounds != 1 {
		t.Fatalf("the round after the refusals: %d (err %v)", rounds, err)
	}
	if v, err := db.Migrate(ctx, dsn, "up"); err != nil || v != latest {
		t.Fatalf("up after the refusals: version %d err %v", v, err)
	}
}

func TestMigrateTakesThePoolsSettings(t *testing.T) {
	t.Parallel()
	dsn := dbtest.OwnerDSN(t, dbtest.DSN(t))
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	if !strings.Contains(dsn, "://") {
		dsn, sep = dsn+" pool_max_conns=3", ""
	} else {
		dsn += sep + "pool_max_conns=3"
	}
	if _, err := db.Migrate(context.Background(), dsn, "up"); err != nil {
		t.Fatalf("migrate with pool_max_conns in the URL: %v", err)
	}
}
