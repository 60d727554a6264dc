package table

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
)

// TestTheDatabaseDecidesWhichNamesAreTaken: names are compared ignoring
// case by Go under the table's lock and, in the end, by the database's
// unique index, whose lower-casing follows its locale and can fold letters
// Go's does not (glibc folds İ to i). Such a name is "name taken" (409),
// never a 500, and nothing is written; making a table of two such names is
// refused at once instead of being retried as if its join code had
// collided. The test database's index folds İ as such a locale would.
func TestTheDatabaseDecidesWhichNamesAreTaken(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"ivan", "Bob"}})
	owner, err := pgxpool.New(f.ctx, dbtest.OwnerDSN(t, f.pool.Config().ConnString()))
	noErr(t, err)
	defer owner.Close()
	_, err = owner.Exec(f.ctx, `DROP INDEX players_name_key`)
	noErr(t, err)
	_, err = owner.Exec(f.ctx, `CREATE UNIQUE INDEX players_name_key ON players (table_id, translate(lower(name), 'İ', 'i')) WHERE left_at IS NULL`)
	noErr(t, err)
	events := f.countAll(`SELECT count(*) FROM events`)

	_, err = f.svc.Seat(f.ctx, f.host, answered(201), "İvan")
	if !errors.Is(err, ErrNameTaken) {
		t.Fatalf("seating İvan beside ivan: %v, want ErrNameTaken", err)
	}
	_, err = f.svc.CreateTable(f.ctx, answered(201), NewTable{Preset: "bar", Players: []string{"ivan", "İvan"}})
	if !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a table of ivan and İvan: %v, want ErrNameTaken", err)
	}
	if n := f.countAll(`SELECT count(*) FROM players`); n != 2 {
		t.Fatalf("%d players after the refusals, want 2", n)
	}
	if n := f.countAll(`SELECT count(*) FROM tables`); n != 1 {
		t.Fatalf("%d tables after the refusals, want 1", n)
	}
	if n := f.countAll(`SELECT count(*) FROM events`); n != events {
		t.Fatalf("%d events after the refusals, want %d", n, events)
	}
	if n := f.count(`SELECT last_value FROM tables_id_seq`); n != 2 {
		t.Fatalf("the refused table took %d ids, want 1 (no retries)", n-1)
	}
}

// TestAnUnknownTokenTakesNoLock: a write whose token is not one of the
// table's (the table's id, a wrong secret) never takes the table's lock, so
// it cannot hold up the table's writers: while another transaction holds
// the lock, it is refused at once instead of queueing behind it.
func TestAnUnknownTokenTakesNoLock(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob"}})
	tx, err := f.pool.Begin(f.ctx)
	noErr(t, err)
	defer tx.Rollback(f.ctx)
	_, err = tx.Exec(f.ctx, `SELECT 1 FROM tables WHERE id = $1 FOR UPDATE`, f.host.TableID)
	noErr(t, err)

	// Were the stranger to queue for the lock, it would wait until the
	// context ends (ErrUnavailable), long after the test's deadline.
	ctx, cancel := context.WithTimeout(f.ctx, time.Minute)
	defer cancel()
	stranger := Auth{TableID: f.host.TableID, Token: f.host.Token[:len(f.host.Token)-6] + "wrong0"}
	_, err = f.svc.Deposit(ctx, stranger, answered(201), CashInput{Player: f.players[0], Amount: 5})
	if !errors.Is(err, ErrUnknownToken) {
		t.Fatalf("a deposit with an unknown token while the table is locked: %v, want ErrUnknownToken", err)
	}
	noErr(t, tx.Rollback(f.ctx))
	_, err = f.svc.Deposit(f.ctx, f.host, answered(201), CashInput{Player: f.players[0], Amount: 5})
	noErr(t, err)
}
