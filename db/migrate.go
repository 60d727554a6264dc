package db

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	pgxmigrate "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// migrations holds the schema, one NNNN_name.up.sql/.down.sql pair per step.
//
//go:embed migrations/*.sql
var migrations embed.FS

// ErrMigrate is wrapped by every migration failure.
var ErrMigrate = errors.New("migrate database")

// Migrate applies direction to the database at dsn: "up" applies every
// pending migration, "down" reverts all of them. Having nothing to do is
// success. It returns the schema version afterwards (0 when none is applied).
func Migrate(ctx context.Context, dsn, direction string) (uint, error) {
	m, closeAll, err := newMigrator(dsn)
	if err != nil {
		return 0, err
	}
	defer closeAll()
	stop := context.AfterFunc(ctx, func() { m.GracefulStop <- true })
	defer stop()
	switch direction {
	case "up":
		err = m.Up()
	case "down":
		err = refusedDistributed(ctx, dsn)
		if err == nil {
			err = refused(m, m.Down)
		}
	default:
		return 0, fmt.Errorf("%w: unknown direction %q (want up or down)", ErrMigrate, direction)
	}
	if err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return 0, fmt.Errorf("%w %s: %w", ErrMigrate, direction, err)
	}
	return version(m)
}

// MigrateTo moves the database at dsn to schema version, up or down; for
// tests of an upgrade from data an older version wrote.
func MigrateTo(ctx context.Context, dsn string, version uint) error {
	m, closeAll, err := newMigrator(dsn)
	if err != nil {
		return err
	}
	defer closeAll()
	stop := context.AfterFunc(ctx, func() { m.GracefulStop <- true })
	defer stop()
	if now, _, err := m.Version(); err == nil && version < now {
		if err := refusedDistributed(ctx, dsn); err != nil {
			return fmt.Errorf("%w to version %d: %w", ErrMigrate, version, err)
		}
	}
	if err := refused(m, func() error { return m.Migrate(version) }); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("%w to version %d: %w", ErrMigrate, version, err)
	}
	return nil
}

// MigrationVersion reports the schema version of the database at dsn and
// whether a failed migration left it dirty (fix by hand, then migrate).
func MigrationVersion(ctx context.Context, dsn string) (version uint, dirty bool, err error) {
	m, closeAll, err := newMigrator(dsn)
	if err != nil {
		return 0, false, err
	}
	defer closeAll()
	version, dirty, err = m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("%w: version: %w", ErrMigrate, err)
	}
	return version, dirty, nil
}

// codeIrreversible is raised by a down migration that refuses to run
// because it would lose data (0003 with rounds stored).
const codeIrreversible = "TL009"

// refused runs migration steps. Each migration file runs as one implicit
// transaction, so a down migration that refuses (TL009) has changed
// nothing, though the steps before it may have run; migrate has already
// marked the database dirty at the refusing step's target version, so the
// version is put back to the one that step started from and the refusal
// is returned as it was worded.
func refused(m *migrate.Migrate, run func() error) error {
	err := run()
	var dbErr database.Error
	var pgErr *pgconn.PgError
	if err == nil || !errors.As(err, &dbErr) || !errors.As(dbErr.OrigErr, &pgErr) || pgErr.Code != codeIrreversible {
		return err
	}
	target, _, verr := m.Version()
	if errors.Is(verr, migrate.ErrNilVersion) {
		target, verr = 0, nil
	}
	from, ferr := nextVersion(target)
	if verr == nil && ferr == nil {
		ferr = m.Force(int(from))
	}
	if verr != nil || ferr != nil {
		return fmt.Errorf("%s (and putting the version back failed: %w)", pgErr.Message, errors.Join(verr, ferr))
	}
	return errors.New(pgErr.Message)
}

// refusedDistributed is ErrDistributedDown on a distributed schema.
func refusedDistributed(ctx context.Context, dsn string) error {
	on, err := distributed(ctx, dsn)
	if err == nil && on {
		err = ErrDistributedDown
	}
	return err
}

// nextVersion is the first migration's version after v.
func nextVersion(v uint) (uint, error) {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return 0, err
	}
	for _, e := range entries { // sorted by name, so by version
		var n uint
		if _, err := fmt.Sscanf(e.Name(), "%d_", &n); err == nil && n > v {
			return n, nil
		}
	}
	return 0, fmt.Errorf("no migration after version %d", v)
}

// version reads the version after a migration, mapping "none" to 0.
func version(m *migrate.Migrate) (uint, error) {
	v, _, err := m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("%w: version: %w", ErrMigrate, err)
	}
	return v, nil
}

// newMigrator opens the database through pgx's database/sql adapter, which
// accepts every DSN form pgx does (URLs and key=value strings), and pairs it
// with the embedded migrations. The DSN is read as the pool reads it, so
// the pool's own settings (pool_max_conns and the like) are accepted here
// too and left to the pool.
func newMigrator(dsn string) (*migrate.Migrate, func(), error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: parse DSN: %w", ErrMigrate, err)
	}
	sqlDB := stdlib.OpenDB(*cfg.ConnConfig)
	driver, err := pgxmigrate.WithInstance(sqlDB, &pgxmigrate.Config{})
	if err != nil {
		sqlDB.Close()
		return nil, nil, fmt.Errorf("%w: %w", ErrMigrate, err)
	}
	src, err := iofs.New(migrations, "migrations")
	if err != nil {
		sqlDB.Close()
		return nil, nil, fmt.Errorf("%w: %w", ErrMigrate, err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		sqlDB.Close()
		return nil, nil, fmt.Errorf("%w: %w", ErrMigrate, err)
	}
	return m, func() { _, _ = m.Close(); sqlDB.Close() }, nil
}

// MigrationFiles exposes the embedded migration files (rooted at the
// migration directory) so tools such as dbtest can fingerprint the schema.
func MigrationFiles() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}
