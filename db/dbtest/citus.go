package dbtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/pgserver"
)

// Citus mode (TEST_CITUS=on, with TEST_DATABASE_URL naming a Citus
// coordinator as a superuser, in a database where its workers are added):
// each test gets a database of its own on the coordinator and on every
// worker, with the citus extension in each and the workers added, migrated
// and then distributed as `tallyd migrate up --citus` does (db.Distribute).
// Citus does not carry a template database to its workers, so nothing is
// cloned: every test migrates its own, which takes seconds. docs/citus.md
// says how to run the suites this way.

// Citus reports whether the tests run on a Citus cluster (TEST_CITUS).
func Citus() bool {
	switch strings.ToLower(os.Getenv("TEST_CITUS")) {
	case "on", "1", "true", "yes":
		return true
	}
	return false
}

// worker is a Citus worker as the coordinator names it.
type worker struct {
	host string
	port int
}

// citusWorkers lists the workers the coordinator's admin database knows.
func (e *env) citusWorkers(ctx context.Context) ([]worker, error) {
	rows, err := e.admin.Query(ctx, "SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeid")
	if err != nil {
		return nil, fmt.Errorf("TEST_CITUS: the coordinator's workers (pg_dist_node): %w", err)
	}
	ws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (worker, error) {
		var w worker
		return w, r.Scan(&w.host, &w.port)
	})
	if err == nil && len(ws) == 0 {
		err = fmt.Errorf("TEST_CITUS: the coordinator has no workers: SELECT citus_add_node(host, port) first")
	}
	return ws, err
}

// onNode is the admin's connection string on another node of the cluster.
func onNode(adminDSN string, w worker) (string, error) {
	u, err := url.Parse(adminDSN)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("TEST_CITUS needs TEST_DATABASE_URL as a postgres:// URL")
	}
	u.Host = net.JoinHostPort(w.host, strconv.Itoa(w.port))
	return u.String(), nil
}

// citusDatabase makes the database name on every node of the cluster,
// migrated and distributed (or, with version > 0, migrated to that version
// and not distributed), and drops it everywhere when the test ends.
func citusDatabase(t testing.TB, e *env, name string, version uint) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	workers, err := e.citusWorkers(ctx)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	// One test database is made at a time: migrations grant to the
	// server's roles, which Citus syncs to every node (two at once fail:
	// tuple concurrently updated), and adding the workers opens
	// connections Citus holds essential.
	citusMu.Lock()
	defer citusMu.Unlock()
	nodes := []string{e.ownerDSN}
	for _, w := range workers {
		dsn, err := onNode(e.ownerDSN, w)
		if err != nil {
			t.Fatalf("dbtest: %v", err)
		}
		nodes = append(nodes, dsn)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, n := range nodes {
			if err := execOn(ctx, n, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
				t.Errorf("dbtest: drop test database %s: %v", name, err)
			}
		}
	})
	for _, n := range nodes {
		if err := pgserver.CreateDatabases(ctx, n, name); err != nil {
			t.Fatalf("dbtest: create test database on %s: %v", pgserver.Redact(n), err)
		}
		in, err := pgserver.WithDatabase(n, name)
		if err == nil {
			err = execOn(ctx, in, "CREATE EXTENSION IF NOT EXISTS citus")
		}
		if err != nil {
			t.Fatalf("dbtest: citus in %s on %s: %v", name, pgserver.Redact(n), err)
		}
	}
	coordinator, err := pgserver.WithDatabase(e.ownerDSN, name)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	cfg, err := pgx.ParseConfig(e.ownerDSN)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	stmts := []string{fmt.Sprintf("SELECT citus_set_coordinator_host(%s, %d)", quote(cfg.Host), cfg.Port)}
	for _, w := range workers {
		stmts = append(stmts, fmt.Sprintf("SELECT citus_add_node(%s, %d)", quote(w.host), w.port))
	}
	if err := execOn(ctx, coordinator, stmts...); err != nil {
		t.Fatalf("dbtest: add the workers to %s: %v", name, err)
	}
	if version > 0 {
		if err := db.MigrateTo(ctx, coordinator, version); err != nil {
			t.Fatalf("dbtest: migrate %s to version %d: %v", name, version, err)
		}
		if version < 4 { // no runtime group yet
			return
		}
	} else {
		if _, err := db.Migrate(ctx, coordinator, "up"); err != nil {
			t.Fatalf("dbtest: migrate %s: %v", name, err)
		}
		if _, err := db.Distribute(ctx, coordinator); err != nil {
			t.Fatalf("dbtest: distribute %s: %v", name, err)
		}
	}
	if err := runtimeLogin(ctx, e.ownerDSN); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
}

// AlterAsOwner changes the schema of a test's database as its owner (a
// trigger added or dropped), one statement at a time on one connection: on
// Citus a trigger on a distributed table must be vouched for
// (citus.enable_unsafe_triggers), as Distribute does for Tally's own.
func AlterAsOwner(t testing.TB, dsn string, stmts ...string) {
	t.Helper()
	if Citus() {
		stmts = append([]string{"SET citus.enable_unsafe_triggers = on"}, stmts...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := execOn(ctx, OwnerDSN(t, dsn), stmts...); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
}

// citusMu lets one test at a time migrate its database.
var citusMu sync.Mutex

// execOn runs statements on a connection of their own to dsn.
func execOn(ctx context.Context, dsn string, stmts ...string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// quote is a string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
