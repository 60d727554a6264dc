package db_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5/pgxpool"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

// TestSentinelForRaisedErrors has PostgreSQL raise each condition Tally
// tells apart and checks what it maps to: a database that cannot take the
// work now (out of disk, memory or connections, shutting down or starting
// up) is ErrUnavailable, and only disk_full is DiskFull.
func TestSentinelForRaisedErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	cases := []struct {
		condition string
		want      error
		diskFull  bool
	}{
		{"disk_full", db.ErrUnavailable, true},                     // 53100
		{"insufficient_resources", db.ErrUnavailable, false},       // 53000
		{"out_of_memory", db.ErrUnavailable, false},                // 53200
		{"too_many_connections", db.ErrUnavailable, false},         // 53300
		{"configuration_limit_exceeded", db.ErrUnavailable, false}, // 53400
		{"admin_shutdown", db.ErrUnavailable, false},               // 57P01
		{"crash_shutdown", db.ErrUnavailable, false},               // 57P02
		{"cannot_connect_now", db.ErrUnavailable, false},           // 57P03
		{"query_canceled", db.ErrUnavailable, false},               // 57014
		{"connection_failure", db.ErrUnavailable, false},           // 08006
		{"lock_not_available", db.ErrUnavailable, false},           // 55P03
		{"system_error", db.ErrUnavailable, false},                 // 58000
		{"io_error", db.ErrUnavailable, false},                     // 58030
		{"undefined_file", db.ErrUnavailable, false},               // 58P01
		{"serialization_failure", db.ErrRetry, false},              // 40001
		{"deadlock_detected", db.ErrRetry, false},                  // 40P01
		{"unique_violation", db.ErrConflict, false},                // 23505
		{"foreign_key_violation", db.ErrNotFound, false},           // 23503
		{"no_data_found", db.ErrNotFound, false},                   // P0002
		{"check_violation", nil, false},                            // 23514: a bug, not an outage
		{"program_limit_exceeded", nil, false},                     // 54000
		{"invalid_text_representation", nil, false},                // 22P02
		{"feature_not_supported", nil, false},                      // 0A000
		{"raise_exception", nil, false},                            // P0001
		{"object_not_in_prerequisite_state", nil, false},           // 55000
		{"insufficient_privilege", db.ErrForbidden, false},         // 42501
	}
	for _, tc := range cases {
		sql := fmt.Sprintf(`DO $$ BEGIN RAISE EXCEPTION 'raised' USING ERRCODE = '%s'; END $$`, tc.condition)
		_, err := pool.Exec(ctx, sql)
		if err == nil {
			t.Fatalf("%s: nothing raised", tc.condition)
		}
		if got := db.SentinelFor(err); got != tc.want {
			t.Errorf("%s (%v): SentinelFor = %v, want %v", tc.condition, err, got, tc.want)
		}
		if got := db.DiskFull(err); got != tc.diskFull {
			t.Errorf("%s: DiskFull = %v, want %v", tc.condition, got, tc.diskFull)
		}
	}
}

// TestALibraryTheServerCannotLoadIsUnavailable has PostgreSQL's loader
// fail on files that are no library it can load: whatever SQLSTATE the
// errno it was left with gives the error (insufficient_privilege for a
// file it may not read, internal_error for one that is not a shared
// object, undefined_file for one that is missing), the server cannot
// take the work (PL/pgSQL unloadable after an upgrade under it fails every
// write this way), and that is ErrUnavailable, never ErrForbidden.
func TestALibraryTheServerCannotLoadIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	owner := dbtest.OwnerPool(t, dbtest.Pool(t))
	for _, file := range []string{"/etc/shadow", "/etc/passwd", "/no/such/library"} {
		_, err := owner.Exec(ctx, fmt.Sprintf("LOAD '%s'", file))
		if err == nil {
			t.Fatalf("LOAD %s: loaded", file)
		}
		if got := db.SentinelFor(err); got != db.ErrUnavailable {
			t.Errorf("LOAD %s (%v): SentinelFor = %v, want ErrUnavailable", file, err, got)
		}
	}
}

// TestADiskFullWriteIsUnavailable: a write PostgreSQL refuses for lack of
// space (raised here by a trigger, as the server raises it when a file
// cannot grow) comes out of Batch.Send as ErrUnavailable, DiskFull, and
// commits nothing.
func TestADiskFullWriteIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t)
	owner, err := pgxpool.New(ctx, dbtest.OwnerDSN(t, pool.Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	// The schema's owner adds a trigger that fails as a full disk would.
	dbtest.AlterAsOwner(t, pool.Config().ConnString(),
		`CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`,
		`CREATE TRIGGER test_disk_full BEFORE INSERT ON players FOR EACH ROW EXECUTE FUNCTION test_disk_full()`)
	tbl := newTable(t, pool, "FULL1")
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	b := db.NewBatch(ctx)
	b.Begin()
	b.PlayerInsert(tbl.ID, db.NewPlayer{Name: "Ann", Seat: 1, TokenHash: hash32("ann")}, new(db.Player))
	b.Commit()
	err = b.Send(conn)
	if !errors.Is(err, db.ErrUnavailable) || !db.DiskFull(err) {
		t.Fatalf("a write refused for lack of space: %v, want ErrUnavailable and DiskFull", err)
	}
	if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	var players int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM players WHERE table_id = $1`, tbl.ID).Scan(&players); err != nil || players != 0 {
		t.Fatalf("%d players written (err %v), want none", players, err)
	}
}

// TestConnectionFailuresAreUnavailable: a server that refuses the
// connection, and one that has no connection slot left for the role, are
// both ErrUnavailable.
func TestConnectionFailuresAreUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, err := pgx.Connect(ctx, "postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
	if err == nil || db.SentinelFor(err) != db.ErrUnavailable {
		t.Fatalf("a refused connection: %v, want ErrUnavailable", err)
	}
	dsn := dbtest.DSNWithConnectionLimit(t, 0)
	_, err = pgx.Connect(ctx, dsn)
	if err == nil || db.SentinelFor(err) != db.ErrUnavailable {
		t.Fatalf("a role out of connections: %v, want ErrUnavailable", err)
	}
}
