package dbtest

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/pgserver"
)

// ensureTemplate makes sure the server has a migrated template database for
// the current schema and returns its name. It is built under a name of its
// own and renamed only once fully migrated, under an advisory lock, so that
// test processes sharing a server never clone a half-migrated template.
func ensureTemplate(ctx context.Context, admin *pgxpool.Pool, adminDSN string) (string, error) {
	hash, err := schemaHash()
	if err != nil {
		return "", fmt.Errorf("%w: %w", errTemplate, err)
	}
	name := "tally_tmpl_" + hash
	conn, err := admin.Acquire(ctx)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errTemplate, err)
	}
	defer conn.Release()
	raw, _ := hex.DecodeString(hash)
	key := int64(binary.BigEndian.Uint64(append(raw, 0, 0)[:8]))
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return "", fmt.Errorf("%w: lock: %w", errTemplate, err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", key) //nolint:errcheck // released with the session anyway

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", fmt.Errorf("%w: %w", errTemplate, err)
	}
	if exists {
		return name, runtimeLogin(ctx, adminDSN)
	}
	building := pgx.Identifier{name + "_building"}.Sanitize()
	for _, sql := range []string{
		"DROP DATABASE IF EXISTS " + building + " WITH (FORCE)",
		"CREATE DATABASE " + building,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", fmt.Errorf("%w: %s: %w", errTemplate, sql, err)
		}
	}
	dsn, err := pgserver.WithDatabase(adminDSN, name+"_building")
	if err != nil {
		return "", fmt.Errorf("%w: %w", errTemplate, err)
	}
	if _, err := db.Migrate(ctx, dsn, "up"); err != nil {
		return "", fmt.Errorf("%w: %w", errTemplate, err)
	}
	rename := "ALTER DATABASE " + building + " RENAME TO " + pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, rename); err != nil {
		return "", fmt.Errorf("%w: %w", errTemplate, err)
	}
	return name, runtimeLogin(ctx, adminDSN)
}

// runtimeLogin makes the role tests serve as, once the migrations have made
// its group; under the template's lock, so test processes sharing a server
// never make it twice at once.
func runtimeLogin(ctx context.Context, dsn string) error {
	// Tests in parallel on Citus each make their role (after their own
	// migration): roles are the server's, so one at a time, once.
	loginMu.Lock()
	defer loginMu.Unlock()
	if loginMade {
		return nil
	}
	if err := db.EnsureRuntimeLogin(ctx, dsn, runtimeRole, runtimeRole); err != nil {
		return fmt.Errorf("%w: %w", errTemplate, err)
	}
	loginMade = true
	return nil
}

var (
	loginMu   sync.Mutex
	loginMade bool
)
