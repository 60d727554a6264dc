package main

import (
	"context"
	"fmt"
	"github.com/tally-dice/tally/seal"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/pgserver"
	"github.com/tally-dice/tally/table"
)

// managedDatabase is the name of tallyd's database inside its own server,
// and managedRuntime the role tallyd serves as there.
const (
	managedDatabase = "tally"
	managedRuntime  = "tally_app"
)

// database is where tallyd keeps its data: DATABASE_URL, or a PostgreSQL
// server it started itself and stops on close. Migrations run as owner;
// tallyd serves as dsn's role.
type database struct {
	// sealsBegan says this run's migrations brought a schema older than
	// sealsVersion to it: the history before it is sealed now, and never
	// later.
	sealsBegan bool
	dsn        string
	owner      string
	managed    bool
	citus      bool // distribute the tables after migrating (--citus)
	server     *pgserver.Server
}

// openDatabase uses DATABASE_URL when set (migrating as
// --migrate-database-url's role when that is set too); otherwise it starts
// a local PostgreSQL under the data directory (created on the first run,
// reused on later ones) and makes sure tallyd's database exists in it,
// migrated by the server's superuser and served by the runtime role
// tally_app.
func openDatabase(ctx context.Context, cfg config, log *slog.Logger) (*database, error) {
	if cfg.DatabaseURL != "" {
		owner := cfg.MigrateURL
		if owner == "" {
			owner = cfg.DatabaseURL
		}
		return &database{dsn: cfg.DatabaseURL, owner: owner, citus: cfg.Citus}, nil
	}
	if cfg.Citus {
		return nil, fmt.Errorf("--citus needs DATABASE_URL: the managed PostgreSQL has no Citus (docs/citus.md)")
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
	owner := srv.DSNFor(managedDatabase)
	runtime, err := pgserver.WithUser(owner, managedRuntime, "")
	if err != nil {
		return nil, err
	}
	d := &database{dsn: runtime, owner: owner, managed: true, server: srv}
	if err := pgserver.CreateDatabases(ctx, srv.DSN(), managedDatabase); err != nil {
		d.close(log)
		return nil, err
	}
	log.Info("managed PostgreSQL ready", "port", srv.Port())
	return d, nil
}

// migrate brings the schema up to date as its owner and, on the managed
// server, makes the runtime role tallyd serves as.
func (d *database) migrate(ctx context.Context) (uint, error) {
	before, _, err := db.MigrationVersion(ctx, d.owner)
	version := before
	if err == nil {
		version, err = db.Migrate(ctx, d.owner, "up")
	}
	// A database with no schema before (version 0) has no history to seal.
	d.sealsBegan = err == nil && before > 0 && before < sealsVersion && version >= sealsVersion
	// golang-migrate keeps PostgreSQL's error as text: insufficient_privilege.
	if err != nil && strings.Contains(err.Error(), "SQLSTATE 42501") {
		return version, fmt.Errorf("%w\nmigrations run as the schema's owner: set --migrate-database-url (TALLY_MIGRATE_DATABASE_URL) to its connection, or run `tallyd migrate up --database-url <owner's>` first", err)
	}
	if err == nil && d.citus {
		_, err = db.Distribute(ctx, d.owner)
	}
	if err != nil || !d.managed {
		return version, err
	}
	return version, db.EnsureRuntimeLogin(ctx, d.owner, managedRuntime, "")
}

// warnOverreach says loudly, at startup, when the role tallyd serves as can
// rewrite history: the database then trusts Tally's own role with it.
func warnOverreach(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) {
	problems, err := db.Overreach(ctx, pool)
	if err != nil {
		log.Error("checking the database role's privileges", "err", err)
		return
	}
	for _, p := range problems {
		log.Error("LEAST PRIVILEGE: "+p+": serve as a role that is only a member of "+db.RuntimeGroup+
			" and migrate with --migrate-database-url (README: Books nobody can quietly rewrite)", "role_problem", p)
	}
}

// openPool opens the connection pool. Its size is, in order: maxConns when
// set (--db-max-conns), pool_max_conns in the connection string, or
// defaultMaxConns.
func openPool(ctx context.Context, dsn string, maxConns int) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	// Tally's names resolve in its schema (after PostgreSQL's own), whatever
	// search path the role was given: nobody's objects stand in for its.
	cfg.ConnConfig.RuntimeParams["search_path"] = "public"
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

// sealsVersion is the migration that began sealing history (4).
const sealsVersion = 4

// sealLegacy seals the history written before migration 4, in the run
// whose migrations reached it and never in another (whatever a database's
// rows say, they cannot prove that they were never sealed): rows stripped
// of their seals later stay unsealed, and the audit says so.
func sealLegacy(ctx context.Context, tables *table.Service, log *slog.Logger) error {
	n, err := tables.SealHistory(ctx)
	if err != nil {
		return fmt.Errorf("sealing history written before seals: %w", err)
	}
	if n > 0 {
		log.Info("sealed the history written before seals, once", "events_and_heads", n)
	}
	return nil
}

// sealLegacyCommand runs `tallyd seal-legacy`: once, right after upgrading
// a database of your own to migration 4, it seals the history written
// before seals existed. It seals nothing on a database where any event has
// a seal already.
func sealLegacyCommand(ctx context.Context, cfg config, log *slog.Logger, stdout io.Writer) error {
	database, err := openDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer database.close(log)
	if _, err := database.migrate(ctx); err != nil {
		return err
	}
	secret, err := seal.Load(cfg.Secret, cfg.SecretFile)
	if err != nil {
		return err
	}
	keys, err := seal.New(secret)
	if err != nil {
		return err
	}
	pool, err := openPool(ctx, database.dsn, 2)
	if err != nil {
		return err
	}
	defer pool.Close()
	n, err := table.New(pool, keys, log).SealHistory(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "sealed %d events and heads written before migration 4\n", n)
	return nil
}
