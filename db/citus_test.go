package db_test

import (
	"context"
	"errors"
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
