package db_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

// TestDistributeTakesTurns: Distribute waits for the distribution lock
// before anything else, so two tallyd started at once distribute one after
// the other; both waiting here, each goes on once the lock is free (on
// plain PostgreSQL to say there is no Citus, on Citus to find everything
// distributed), and neither keeps the lock.
func TestDistributeTakesTurns(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := dbtest.OwnerDSN(t, dbtest.DSN(t))
	holder, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	if _, err := holder.Exec(ctx, "SELECT pg_advisory_lock($1)", db.DistributeLock); err != nil {
		t.Fatal(err)
	}
	const starts = 2
	results := make(chan error, starts)
	for range starts {
		go func() {
			_, err := db.Distribute(ctx, owner)
			results <- err
		}()
	}
	for waiting := 0; waiting < starts; {
		select {
		case err := <-results:
			t.Fatalf("Distribute went on while another held the lock: %v", err)
		case <-ctx.Done():
			t.Fatalf("%d of %d Distribute calls wait for the lock", waiting, starts)
		case <-time.After(20 * time.Millisecond):
		}
		if err := holder.QueryRow(ctx, `SELECT count(*) FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND objsubid = 1 AND (classid::bigint << 32 | objid::bigint) = $1`, db.DistributeLock).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := holder.Exec(ctx, "SELECT pg_advisory_unlock($1)", db.DistributeLock); err != nil {
		t.Fatal(err)
	}
	for range starts {
		err := <-results
		if dbtest.Citus() && err != nil || !dbtest.Citus() && !errors.Is(err, db.ErrNotCitus) {
			t.Errorf("Distribute after its turn: %v", err)
		}
	}
	var free bool
	if err := holder.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", db.DistributeLock).Scan(&free); err != nil || !free {
		t.Fatalf("the distribution lock is still held after Distribute returned (%v)", err)
	}
}

// TestAMigrationAddsItsTriggerToDistributedTables: migration 10 adds the
// round status guard to rounds, which on a Citus database being upgraded
// is distributed already (at version 9, distributed as `tallyd migrate up
// --citus` left it). Citus takes the trigger only when told it is wanted,
// and sends it to the shards as the text of the one statement that made
// it; the migration does both, so the guard is on every shard of rounds
// (and on plain PostgreSQL, on rounds) as on a database distributed after
// its migrations.
func TestAMigrationAddsItsTriggerToDistributedTables(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dsn := dbtest.DSNAt(t, 9)
	owner := dbtest.OwnerDSN(t, dsn)
	if dbtest.Citus() {
		if _, err := db.Distribute(ctx, owner); err != nil {
			t.Fatalf("distribute at version 9: %v", err)
		}
	}
	if v, want := dbtest.Upgrade(t, dsn), latestMigration(t); v != want {
		t.Fatalf("upgraded to version %d, want %d", v, want)
	}
	conn, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	const guarded = `SELECT count(*) FROM pg_trigger WHERE tgrelid = '%s'::regclass
		AND tgfoid = 'public.tally_round_status_guard'::regproc AND tgdeferrable AND tginitdeferred AND tgenabled = 'O'`
	var tables, with int
	if err := conn.QueryRow(ctx, strings.Replace(guarded, "%s", "public.rounds", 1)).Scan(&with); err != nil || with != 1 {
		t.Fatalf("rounds has %d round status guards (%v), want 1", with, err)
	}
	if !dbtest.Citus() {
		return
	}
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE success AND result = '1')
		FROM run_command_on_shards('public.rounds', $1)`, guarded).Scan(&tables, &with); err != nil {
		t.Fatal(err)
	}
	if tables == 0 || with != tables {
		t.Fatalf("the round status guard is on %d of rounds' %d shards", with, tables)
	}
}
