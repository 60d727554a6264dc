package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/db/pgserver"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// TestReadyzRemembersADiskFullWrite: once PostgreSQL refuses a write for
// lack of disk space (raised by a trigger, as the server raises it when a
// file cannot grow), the write is a 503 and /readyz says the database is
// short of disk space, even once space is back, until a write goes
// through again.
func TestReadyzRemembersADiskFullWrite(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil)}))
	tb := makeTable(t, c, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	readyz := req{method: http.MethodGet, path: "/readyz"}
	if r := c.do(t, readyz); r.status != http.StatusOK {
		t.Fatalf("readyz before: %d %s", r.status, r.body)
	}
	// The schema's owner adds a trigger that fails as a full disk would.
	dbtest.AlterAsOwner(t, pool.Config().ConnString(),
		`CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`,
		`CREATE TRIGGER test_disk_full BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_disk_full()`)
	start := req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host, key: "round-1"}
	unavailable(t, start, c.do(t, start))
	for range 2 {
		// The refusal is remembered, not a one-off.
		r := c.do(t, readyz)
		unavailable(t, readyz, r)
		if p := r.problem(t); !strings.Contains(p.Detail, "disk space") || !strings.Contains(p.Detail, "refused a write") {
			t.Fatalf("readyz detail %q does not say the disk refused a write", p.Detail)
		}
	}
	if r := c.do(t, req{method: http.MethodGet, path: tb.path("/balances"), token: tb.Host}); r.status != http.StatusOK {
		t.Fatalf("reads with the disk full: %d %s", r.status, r.body)
	}
	dbtest.AlterAsOwner(t, pool.Config().ConnString(), `DROP TRIGGER test_disk_full ON events`)
	unavailable(t, readyz, c.do(t, readyz)) // no write has gone through yet
	if r := c.do(t, start); r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the write sent again with space back: %d %s", r.status, r.body)
	}
	if r := c.do(t, readyz); r.status != http.StatusOK {
		t.Fatalf("readyz after a write went through: %d %s", r.status, r.body)
	}
}

// TestReadyzWatchesTheDataDirectorysDisk: with a data directory to watch,
// /readyz is not ready, naming the directory, while its disk has less free
// space than asked for.
func TestReadyzWatchesTheDataDirectorysDisk(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	dir := t.TempDir()
	readyz := req{method: http.MethodGet, path: "/readyz"}

	short := table.New(pool, seal.Random(), nil)
	short.WatchDisk(dir, math.MaxUint64)
	c := newClient(t, New(Config{Tables: short}))
	r := c.do(t, readyz)
	unavailable(t, readyz, r)
	if p := r.problem(t); !strings.Contains(p.Detail, dir) || !strings.Contains(p.Detail, "MiB free") {
		t.Fatalf("readyz detail %q does not name the disk and its free space", p.Detail)
	}

	roomy := table.New(pool, seal.Random(), nil)
	roomy.WatchDisk(dir, 1)
	if r := newClient(t, New(Config{Tables: roomy})).do(t, readyz); r.status != http.StatusOK {
		t.Fatalf("readyz with a byte to spare: %d %s", r.status, r.body)
	}
	missing := table.New(pool, seal.Random(), nil)
	missing.WatchDisk(dir+"/gone", 1)
	if r := newClient(t, New(Config{Tables: missing})).do(t, readyz); r.status != http.StatusServiceUnavailable {
		t.Fatalf("readyz with the data directory gone: %d %s", r.status, r.body)
	}
}

// TestAServerThatCannotLoadPLpgSQLIsNotReady plays on a PostgreSQL run
// from a copy of the installation and then breaks the copy's PL/pgSQL as
// an upgrade of the server's package under a running server does: the new
// library wants a symbol the running server does not have, and a new
// backend cannot load it ("undefined symbol"). The schema's functions,
// which every write calls, then fail on every fresh connection: /readyz
// says the service is not ready, and every write is a 503 that writes
// nothing, where it was a 500 while readiness, which only pinged, stayed
// green. Reads still answer. With the library back, the same write with
// the same Idempotency-Key goes through.
func TestAServerThatCannotLoadPLpgSQLIsNotReady(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server, srv, pool := copiedServer(t)
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil)}))
	tb := makeTable(t, c, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	readyz := req{method: http.MethodGet, path: "/readyz"}
	if r := c.do(t, readyz); r.status != http.StatusOK {
		t.Fatalf("readyz before the upgrade: %d %s", r.status, r.body)
	}

	restore := server.BreakLibrary(t, "plpgsql")
	// The pool's backends loaded PL/pgSQL before; its connections from
	// here on are new ones, as they are once the old ones are recycled.
	pool.Reset()
	probe, err := pgx.Connect(ctx, srv.DSNFor("tally"))
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close(ctx)
	// The server runs the copy, and fails as the field's did.
	if _, err := probe.Exec(ctx, "SELECT tally_expect(0, 0, 'the test')"); err == nil ||
		!strings.Contains(err.Error(), "undefined symbol") || !strings.Contains(err.Error(), server.LibDir) {
		t.Fatalf("a new backend runs a PL/pgSQL function: %v, want the copy's plpgsql.so refused for an undefined symbol", err)
	}
	before := contents(t, probe)
	start := req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host, key: "round-1"}
	for range 2 {
		unavailable(t, readyz, c.do(t, readyz))
	}
	for _, r := range []req{
		start,
		{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host},
		{method: http.MethodPost, path: tb.path("/deposits"), token: tb.Host, key: "buy-in", body: map[string]any{"player": tb.Players["Ann"], "amount": 5}},
		{method: http.MethodPost, path: tb.path("/players"), token: tb.Host, key: "seat-cy", body: map[string]any{"name": "Cy"}},
		{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": tb.Code, "name": "Ann"}},
		{method: http.MethodPost, path: "/v1/tables", body: map[string]any{"preset": "bar", "players": []string{"Di", "Ed"}}},
		{method: http.MethodPost, path: "/v1/crews", body: map[string]any{"name": "Tuesdays", "members": []string{"Di", "Ed"}}},
		{method: http.MethodPost, path: tb.path("/close"), token: tb.Host, key: "close"},
	} {
		unavailable(t, r, c.do(t, r))
	}
	if after := contents(t, probe); after != before {
		t.Fatalf("the refused writes changed the database:\nbefore %s\nafter  %s", before, after)
	}
	for _, p := range []string{"", "/balances", "/events"} {
		if r := c.do(t, req{method: http.MethodGet, path: tb.path("%s", p), token: tb.Host}); r.status != http.StatusOK {
			t.Fatalf("GET %s without PL/pgSQL: %d %s", tb.path("%s", p), r.status, r.body)
		}
	}

	restore()
	if r := c.do(t, readyz); r.status != http.StatusOK {
		t.Fatalf("readyz with the library back: %d %s", r.status, r.body)
	}
	if r := c.do(t, start); r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the write sent again with the library back: %d %s", r.status, r.body)
	}
}

// copiedServer is a migrated PostgreSQL running from a copy of the
// server's installation (whose libraries a test may break), with a pool on
// its database.
func copiedServer(t *testing.T) (dbtest.Installation, *pgserver.Server, *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	server := dbtest.CopyServer(t)
	srv, err := pgserver.Start(ctx, pgserver.Config{BinDir: server.BinDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	if err := pgserver.CreateDatabases(ctx, srv.DSN(), "tally"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(ctx, srv.DSNFor("tally"), "up"); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, srv.DSNFor("tally"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return server, srv, pool
}

// TestAWriteThatCannotLoadPLpgSQLMakesTheServiceUnready: the library
// breaks under a pool whose connections loaded it before, so they keep
// working; the first write that lands on a new connection fails (503),
// and from then on every connection is a new one, so readiness says what
// that write met instead of answering from an old connection.
func TestAWriteThatCannotLoadPLpgSQLMakesTheServiceUnready(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server, _, pool := copiedServer(t)
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil)}))
	tb := makeTable(t, c, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	readyz := req{method: http.MethodGet, path: "/readyz"}
	server.BreakLibrary(t, "plpgsql")
	// Every idle connection loaded PL/pgSQL already and still works.
	if r := c.do(t, readyz); r.status != http.StatusOK {
		t.Fatalf("readyz on a connection that loaded PL/pgSQL before: %d %s", r.status, r.body)
	}
	// Hold them all, so that the write needs a new one.
	var held []*pgxpool.Conn
	for range pool.Stat().IdleConns() {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, conn)
	}
	start := req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host, key: "round-1"}
	unavailable(t, start, c.do(t, start))
	for _, conn := range held {
		conn.Release()
	}
	unavailable(t, readyz, c.do(t, readyz))
}

// contents is every row of every table of the public schema, as text, to
// show that nothing was written.
func contents(t *testing.T, conn *pgx.Conn) string {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, name := range names {
		var all string
		q := fmt.Sprintf(`SELECT coalesce(string_agg(t::text, E'\n' ORDER BY t::text), '') FROM %s t`, pgx.Identifier{name}.Sanitize())
		if err := conn.QueryRow(ctx, q).Scan(&all); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s:\n%s\n", name, all)
	}
	return b.String()
}
