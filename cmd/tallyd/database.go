package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"
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
	if err := createDatabase(ctx, srv.DSN(), managedDatabase); err != nil {
		d.close(log)
		return nil, err
	}
	log.Info("managed PostgreSQL ready", "port", srv.Port())
	return d, nil
}

// createDatabase creates the named database unless it exists already.
func createDatabase(ctx context.Context, adminDSN, name string) error {
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return fmt.Errorf("connect to managed PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	return err
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
