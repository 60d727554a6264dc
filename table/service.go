package table

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/seal"
)

// Service is the table service on a database pool.
type Service struct {
	pool     *pgxpool.Pool
	keys     *seal.Keys
	listener *db.Listener
	log      *slog.Logger
	// acquireWait bounds the wait for a connection of the pool.
	acquireWait time.Duration
	disk        diskWatch
	// now is the service's clock (time.Now unless WithClock set another).
	now func() time.Time
	// states are the tables' states as this instance's writes left them.
	states stateCache
}

// acquireWait is how long a request waits for a connection of the pool
// before it is answered that the database is unavailable: with every
// connection busy, or none to be had, a phone hears so and retries rather
// than hanging until it gives up.
const acquireWait = 5 * time.Second

// New is the service on pool, sealing history and locking stored answers
// with keys (the same keys every time, for a database: package seal). It
// logs with log (slog's default when nil).
func New(pool *pgxpool.Pool, keys *seal.Keys, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{pool: pool, keys: keys, listener: db.NewListener(pool, log), log: log, acquireWait: acquireWait,
		now: time.Now}
}

// WithClock makes the service read the time from now instead of the system
// clock, and returns it. Every time the service stores or compares comes
// from it: an event's time, when a stored answer was given and whether it
// has expired, a recovery code's expiry, when a round settled or a table
// closed. The database's own clock decides nothing. Tests give a service a
// clock of their own, so that none of them depends on the day it runs on.
func (s *Service) WithClock(now func() time.Time) *Service {
	s.now = now
	return s
}

// acquire takes a connection of the pool for one request, waiting at most
// acquireWait; failing that, the database is unavailable.
func (s *Service) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, s.acquireWait)
	defer cancel()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return conn, nil
}
