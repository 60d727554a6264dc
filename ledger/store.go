package ledger

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
)

// Store runs ledger work in transactions on a pool.
type Store struct {
	pool *pgxpool.Pool
}

// NewStore returns a Store on pool.
func NewStore(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Pool is the pool the Store runs on, for read-only calls such as Balances
// that need no transaction.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// maxAttempts bounds InTx's retries of one unit of work.
const maxAttempts = 10

// InTx runs fn in a READ COMMITTED transaction and commits it. When
// PostgreSQL aborts it with a serialization failure (40001) or a deadlock
// (40P01) the whole of fn is run again in a new transaction, with a short
// jittered back-off, so those never reach the caller as business errors;
// fn must therefore do nothing outside the transaction that cannot be
// repeated. With the ledger's lock order (the table row first, then accounts
// by id) deadlocks should not happen; the retry is the safety net.
// A commit refused by the balance check is reported as db.ErrUnbalanced.
func (s *Store) InTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := pgx.BeginFunc(ctx, s.pool, fn)
		if err == nil {
			return nil
		}
		if !retryable(err) {
			if sentinel := db.SentinelFor(err); sentinel != nil && !errors.Is(err, sentinel) {
				return fmt.Errorf("%w: %w", sentinel, err)
			}
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("%w after %d attempts: %w", ErrContention, attempt, err)
		}
		backoff := time.Duration(attempt) * time.Millisecond * time.Duration(1+rand.IntN(5))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
}

// retryable reports whether PostgreSQL aborted the transaction only because
// of concurrency, so that running it again may succeed.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == "40001" || pgErr.Code == "40P01"
}
