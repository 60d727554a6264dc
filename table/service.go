package table

import (
	"context"
	"log/slog"

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
}

// New is the service on pool, sealing history and locking stored answers
// with keys (the same keys every time, for a database: package seal). It
// logs with log (slog's default when nil).
func New(pool *pgxpool.Pool, keys *seal.Keys, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{pool: pool, keys: keys, listener: db.NewListener(pool, log), log: log}
}

// Ready reports whether the database answers: nil, or ErrUnavailable.
func (s *Service) Ready(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return serviceError(err)
	}
	return nil
}
