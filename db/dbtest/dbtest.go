// Package dbtest gives every test its own fresh, migrated, empty PostgreSQL
// database.
//
// Where the server comes from:
//   - TEST_DATABASE_URL, or else DATABASE_URL, when set: that server is used.
//     Its role needs CREATEDB. The URL's database is only used to connect;
//     each test gets a new database that is dropped when the test ends.
//   - Otherwise one private server per test process is started with
//     db/pgserver (a temporary data directory, a free port, its own socket
//     directory, fsync off, as the postgres user when running as root).
//
// The schema is migrated once into a template database whose name carries a
// hash of the migrations, so a server reused across runs migrates only when
// the schema changes; each test then clones it with CREATE DATABASE ...
// TEMPLATE, which takes milliseconds.
//
// Tests connect as the runtime role tally_test_app (a member of
// tally_runtime, as tallyd serves), so the whole suite runs with the
// privileges tallyd has; OwnerDSN connects to a test's database as the
// server's administrator, for tests that tamper with history. A test that
// must break the server itself runs a copy of it (CopyServer).
//
// When no server can be had, the test fails (it is never skipped) with a
// message that says how to get one. Packages call Main from TestMain so the
// private server stops when their tests end; the server's parent-death
// signal is the backstop if the process dies first.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/pgserver"
)

// env is the per-process test environment, set up on first use.
type env struct {
	adminDSN string // the server's administrator, whose login tests change
	ownerDSN string // the administrator as tests and setup connect
	admin    *pgxpool.Pool
	server   *pgserver.Server // nil when an external server is used
	template string
	capture  string // why the routing check cannot run; "" when it can
	room     room   // pg_stat_statements' when the tests began

	mu        sync.Mutex
	databases []uint32 // the test databases made, for the routing check
	roles     []uint32 // the runtime logins made and dropped, for the routing check
}

var (
	setupOnce sync.Once
	shared    *env
	setupErr  error
)

// howTo is appended to every failure to find a database.
const howTo = "set TEST_DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable) " +
	"to use a running server whose role may CREATE DATABASE, or install the PostgreSQL server binaries " +
	"(apt-get install postgresql) so the tests can start their own"

// Main runs a package's tests, then the routing check, and then stops the
// private server. Use it as the package's TestMain:
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
// The routing check (package db/routing) reads from pg_stat_statements
// every statement the runtime role ran in the tests' databases, and those
// inside Tally's functions, and fails the process when one touches a
// distributed table without pinning its distribution column, unless the
// routing Allowlist says why it is global. It prints one summary line, and
// writes every statement with its verdict to a file in the directory
// TALLY_ROUTING_REPORT names, if set.
func Main(m *testing.M) {
	code := m.Run()
	if shared == nil {
		fmt.Println("routing: no test database was made: no statement to check")
	} else if !shared.checkRouting(os.Stdout) && code == 0 {
		code = 1
	}
	shutdown()
	os.Exit(code)
}

// runtimeRole is the login role tests serve as, a member of
// db.RuntimeGroup; its password is no secret (it only guards test servers).
const runtimeRole = "tally_test_app"

// Pool returns a pool, as the runtime role, on a fresh, migrated, empty
// database that is dropped when the test ends.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), DSN(t))
	if err != nil {
		t.Fatalf("dbtest: open pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// DSN creates a fresh, migrated, empty database for the test and returns
// its connection string as the runtime role. The database is dropped when the test ends, even
// if connections to it are still open.
func DSN(t testing.TB) string {
	t.Helper()
	return dsnAt(t, 0)
}

// DSNAt is DSN for a database at an older schema version, for tests of
// an upgrade: on Citus (TEST_CITUS) its tables are not distributed yet
// (Upgrade migrates it up and distributes them, as `tallyd migrate up
// --citus` does).
func DSNAt(t testing.TB, version uint) string {
	t.Helper()
	if version == 0 {
		t.Fatal("dbtest: DSNAt needs a version; DSN is the latest")
	}
	dsn := dsnAt(t, version)
	if !Citus() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := db.MigrateTo(ctx, OwnerDSN(t, dsn), version); err != nil {
			t.Fatalf("dbtest: %v", err)
		}
	}
	return dsn
}

// Upgrade migrates the database of dsn (from DSNAt) up as its owner, and
// on Citus distributes its tables; it returns the schema version.
func Upgrade(t testing.TB, dsn string) uint {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	owner := OwnerDSN(t, dsn)
	v, err := db.Migrate(ctx, owner, "up")
	if err == nil && Citus() {
		_, err = db.Distribute(ctx, owner)
	}
	if err != nil {
		t.Fatalf("dbtest: upgrade: %v", err)
	}
	return v
}

func dsnAt(t testing.TB, version uint) string {
	t.Helper()
	e := environment(t)
	name := "tally_test_" + randomSuffix()
	if Citus() {
		// Before the minute below starts: under load, waiting for the
		// other tests' migrations (one at a time) takes longer.
		citusDatabase(t, e, name, version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !Citus() {
		sql := fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", pgx.Identifier{name}.Sanitize(), pgx.Identifier{e.template}.Sanitize())
		if _, err := e.admin.Exec(ctx, sql); err != nil {
			t.Fatalf("dbtest: create test database: %v", err)
		}
	}
	var oid uint32
	if err := e.admin.QueryRow(ctx, "SELECT oid FROM pg_database WHERE datname = $1", name).Scan(&oid); err != nil {
		t.Fatalf("dbtest: test database: %v", err)
	}
	e.mu.Lock()
	e.databases = append(e.databases, oid)
	e.mu.Unlock()
	// A database's own privileges are not cloned with its template:
	// migration 4's refusal of temporary tables is made again.
	revoke := fmt.Sprintf("REVOKE TEMPORARY ON DATABASE %s FROM PUBLIC", pgx.Identifier{name}.Sanitize())
	if _, err := e.admin.Exec(ctx, revoke); err != nil {
		t.Fatalf("dbtest: %s: %v", revoke, err)
	}
	if !Citus() { // citusDatabase drops its own on every node
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			drop := fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", pgx.Identifier{name}.Sanitize())
			if _, err := e.admin.Exec(ctx, drop); err != nil {
				t.Errorf("dbtest: drop test database %s: %v", name, err)
			}
		})
	}
	dsn, err := pgserver.WithDatabase(e.adminDSN, name)
	if err == nil {
		dsn, err = pgserver.WithUser(dsn, runtimeRole, runtimeRole)
	}
	if err == nil && Citus() {
		// Citus writes out again, unqualified, the statements it splits
		// between the coordinator and the shards (pg_catalog.sha256
		// becomes sha256): what keeps PostgreSQL's own functions there is
		// the search path tallyd pins (pg_catalog first), so the tests
		// serve with it too.
		dsn, err = withOptions(dsn, "-c search_path=public")
	}
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	return dsn
}

// OwnerDSN is dsn (from DSN) connecting as the server's administrator, who
// owns the test database's schema.
func OwnerDSN(t testing.TB, dsn string) string {
	t.Helper()
	e := environment(t)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	owner, err := pgserver.WithDatabase(e.ownerDSN, cfg.Database)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	return owner
}

// OwnerPool returns a pool, as the server's administrator, on the
// database pool (from Pool) reaches, closed when the test ends. A test
// reads the whole database through it (every table's rows, to show that
// nothing was written): those reads are the test's, not statements Tally
// runs, and the routing check, which reads only the runtime role's, does
// not hold them to one table.
func OwnerPool(t testing.TB, pool *pgxpool.Pool) *pgxpool.Pool {
	t.Helper()
	owner, err := pgxpool.New(context.Background(), OwnerDSN(t, pool.Config().ConnString()))
	if err != nil {
		t.Fatalf("dbtest: open owner pool: %v", err)
	}
	t.Cleanup(owner.Close)
	return owner
}

// environment sets up the process's server and template once.
func environment(t testing.TB) *env {
	t.Helper()
	setupOnce.Do(func() { shared, setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("dbtest: no PostgreSQL for tests: %v\nTo fix: %s", setupErr, howTo)
	}
	return shared
}

// setup finds or starts a server and prepares the template database.
func setup() (*env, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	e := &env{}
	e.adminDSN = os.Getenv("TEST_DATABASE_URL")
	if e.adminDSN == "" {
		e.adminDSN = os.Getenv("DATABASE_URL")
	}
	if e.adminDSN == "" {
		settings := map[string]string{"max_connections": "300"}
		for k, v := range captureSettings {
			settings[k] = v
		}
		srv, err := pgserver.Start(ctx, pgserver.Config{Settings: settings})
		if err != nil {
			return nil, err
		}
		e.server, e.adminDSN = srv, srv.DSN()
	}
	admin, err := pgxpool.New(ctx, e.adminDSN)
	if err == nil {
		err = admin.Ping(ctx)
	}
	if err != nil {
		e.close()
		return nil, fmt.Errorf("connect to %s: %w", pgserver.Redact(e.adminDSN), err)
	}
	e.admin, e.ownerDSN = admin, e.adminDSN
	if e.capture = e.startCapture(ctx); e.capture != "" && e.server != nil {
		e.close()
		return nil, fmt.Errorf("the routing check needs pg_stat_statements: %s", e.capture)
	}
	if e.capture == "" {
		// The administrator's own nested statements are left out of the
		// capture from here on (see untracked).
		if e.ownerDSN, err = withOptions(e.adminDSN, untracked); err == nil {
			admin.Close()
			e.admin, err = pgxpool.New(ctx, e.ownerDSN)
		}
		if err != nil {
			e.close()
			return nil, err
		}
	}
	if Citus() {
		return e, nil // no template: citusDatabase migrates each test's own
	}
	if e.template, err = ensureTemplate(ctx, e.admin, e.ownerDSN); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// shutdown stops what setup started.
func shutdown() {
	if shared != nil {
		shared.close()
	}
}

// close releases the admin pool and stops a private server.
func (e *env) close() {
	if e.admin != nil {
		e.admin.Close()
	}
	if e.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := e.server.Stop(ctx); err != nil {
			fmt.Fprintf(os.Stderr, "dbtest: stop PostgreSQL: %v\n", err)
		}
	}
}

// randomSuffix makes database names unique across processes and machines
// sharing one server.
func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// schemaHash identifies the embedded migrations, so that the template of an
// older schema is never reused.
func schemaHash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(db.MigrationFiles(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(db.MigrationFiles(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(raw))
		h.Write(raw)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

// errTemplate wraps failures to prepare the template database.
var errTemplate = errors.New("prepare template database")

// DSNWithConnectionLimit creates a fresh, migrated, empty database, as DSN
// does, and a role that may use it but may hold at most limit connections
// to the server at once (CONNECTION LIMIT), and returns the connection
// string of that role on that database: a server out of connections for
// Tally, for tests of what an outage looks like. The role is dropped when
// the test ends.
func DSNWithConnectionLimit(t testing.TB, limit int) string {
	t.Helper()
	e := environment(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	role := "tally_test_role_" + randomSuffix()
	ident := pgx.Identifier{role}.Sanitize()
	if _, err := e.admin.Exec(ctx, fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s' CONNECTION LIMIT %d IN ROLE %s",
		ident, role, limit, db.RuntimeGroup)); err != nil {
		t.Fatalf("dbtest: create role: %v", err)
	}
	var oid uint32
	if err := e.admin.QueryRow(ctx, "SELECT oid FROM pg_roles WHERE rolname = $1", role).Scan(&oid); err != nil {
		t.Fatalf("dbtest: role: %v", err)
	}
	e.mu.Lock()
	e.roles = append(e.roles, oid)
	e.mu.Unlock()
	// Registered before the database's cleanup, so it runs after it: the
	// role holds privileges in the database until that is dropped.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := e.admin.Exec(ctx, "DROP ROLE IF EXISTS "+ident); err != nil {
			t.Errorf("dbtest: drop role %s: %v", role, err)
		}
	})
	dsn, err := pgserver.WithUser(DSN(t), role, role)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	return dsn
}
