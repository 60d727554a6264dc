package table

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
)

// Service is the table service on a database pool.
type Service struct {
	pool     *pgxpool.Pool
	listener *db.Listener
	log      *slog.Logger
}

// New is the service on pool. It logs with log (slog's default when nil).
func New(pool *pgxpool.Pool, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{pool: pool, listener: db.NewListener(pool, log), log: log}
}

// Ready reports whether the database answers: nil, or ErrUnavailable.
func (s *Service) Ready(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return serviceError(err)
	}
	return nil
}
