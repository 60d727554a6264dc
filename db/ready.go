package db

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// readyProbe is what readiness asks the database: it calls tally_expect,
// one of the schema's PL/pgSQL functions, because every write runs
// PL/pgSQL (tally_expect's guards, tally_journal_post, the events'
// triggers). A server that answers but cannot load PL/pgSQL into a new
// backend (its package upgraded under it: "undefined symbol") refuses
// every write, and so refuses this, where a ping goes through. Sent with
// no arguments, it goes by the simple protocol: one round trip.
const readyProbe = "SELECT tally_expect(0, 0, 'readiness')"

// Ready checks, in one round trip on a connection of pool, that the
// database answers and can run the functions every write calls. Its
// error is one of this package's sentinels where it stands for one, as
// Batch.Send's is (ErrUnavailable for both of those).
func Ready(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := pool.Exec(ctx, readyProbe)
	return interpretError(err)
}
