package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/pgserver"
)

// managedDatabase is the name of tallyd's database inside its own server.
const managedDatabase = "tally"

// database is where tallyd keeps its data: DATABASE_URL, or a PostgreSQL
// server it started itself and stops on close.
type database struct {
	dsn     string
	managed bool
	server  *pgserver.Server
}

// openDatabase uses DATABASE_URL when set; otherwise it starts a local
// PostgreSQL under the data directory (created on the first run, reused on
// later ones) and makes sure tallyd's database exists in it.
func openDatabase(ctx context.Context, cfg config, log *slog.Logger) (*database, error) {
	if cfg.DatabaseURL != "" {
		return &database{dsn: cfg.DatabaseURL}, nil
	}
	dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "postgres"))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	log.Info("starting managed PostgreSQL", "data_dir", dir)
	srv, err := pgserver.Start(ctx, pgserver.Config{DataDir: dir, Persistent: true, Fsync: true})
	if err != nil {
		return nil, err
	}
	d := &database{dsn: srv.DSNFor(managedDatabase), managed: true, server: srv}
	if err := pgserver.CreateDatabases(ctx, srv.DSN(), managedDatabase); err != nil {
		d.close(log)
		return nil, err
	}
	log.Info("managed PostgreSQL ready", "port", srv.Port())
	return d, nil
}

// openPool opens the connection pool. Its size is, in order: maxConns when
// set (--db-max-conns), pool_max_conns in the connection string, or
// defaultMaxConns.
func openPool(ctx context.Context, dsn string, maxConns int) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	switch {
	case maxConns > 0:
		cfg.MaxConns = int32(maxConns)
	case !strings.Contains(dsn, "pool_max_conns"):
		cfg.MaxConns = defaultMaxConns()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to the database: %w", err)
	}
	return pool, nil
}

// defaultMaxConns sizes the pool for the machine: a request holds a
// connection for two round trips and a commit, so a few per core keep
// PostgreSQL busy while commits wait on the disk.
func defaultMaxConns() int32 {
	return int32(max(8, 4*runtime.NumCPU()))
}

// close stops the managed server, if tallyd started one.
func (d *database) close(log *slog.Logger) {
	if d.server == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.server.Stop(ctx); err != nil {
		log.Error("stopping managed PostgreSQL", "err", err)
		return
	}
	log.Info("managed PostgreSQL stopped")
}
