package api

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/db/pgserver"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// unavailable checks that a response is a 503 /problems/unavailable that
// says when to try again.
func unavailable(t *testing.T, r req, out resp) {
	t.Helper()
	if out.status != http.StatusServiceUnavailable || out.problem(t).Type != "/problems/unavailable" {
		t.Fatalf("%s %s: %d %s, want 503 /problems/unavailable", r.method, r.path, out.status, out.body)
	}
	if s, err := strconv.Atoi(out.header.Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("%s %s: Retry-After %q, want a number of seconds", r.method, r.path, out.header.Get("Retry-After"))
	}
}

// TestAStoppedDatabaseAnswers503 plays on a PostgreSQL of its own and stops
// it: every request that needs the database, reads and writes, with an
// Idempotency-Key or without, the join code's and the live stream's, is
// then a 503 that says when to try again, and readiness says so too.
func TestAStoppedDatabaseAnswers503(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := pgserver.Start(ctx, pgserver.Config{})
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
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil)}))
	tb := makeTable(t, c, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	if r := c.do(t, req{method: http.MethodGet, path: "/readyz"}); r.status != http.StatusOK {
		t.Fatalf("readyz before the outage: %d %s", r.status, r.body)
	}
	if err := srv.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range []req{
		{method: http.MethodGet, path: tb.path(""), token: tb.Host},
		{method: http.MethodGet, path: tb.path("/rounds"), token: tb.Audit},
		{method: http.MethodGet, path: tb.path("/ledger"), token: tb.Audit},
		{method: http.MethodGet, path: tb.path("/events"), token: tb.Audit},
		{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host, key: "round-1"},
		{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host},
		{method: http.MethodPost, path: tb.path("/deposits"), token: tb.Host, key: "buy-in",
			body: map[string]any{"player": tb.Players["Ann"], "amount": 5}},
		{method: http.MethodPost, path: "/v1/tables", key: "0123456789abcdef0123456789abcdef", body: map[string]any{"players": []string{"Cy", "Di"}}},
		{method: http.MethodGet, path: "/v1/join/" + tb.Code},
		{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": tb.Code, "name": "Bob"}},
		{method: http.MethodGet, path: tb.path("/stream"), token: tb.Audit},
		{method: http.MethodGet, path: tb.path("/settle-up"), token: tb.Host},
		{method: http.MethodGet, path: tb.path("/handles"), token: tb.Host},
		{method: http.MethodGet, path: tb.path("/statement.html"), token: tb.Host},
		{method: http.MethodPut, path: tb.path("/unit-value"), token: tb.Host, key: "worth",
			body: map[string]any{"currency": "EUR", "perUnit": 25}},
		{method: http.MethodPost, path: tb.path("/claims/1/confirm"), token: tb.Host, key: "yes"},
		{method: http.MethodGet, path: "/readyz"},
	} {
		unavailable(t, r, c.do(t, r))
	}
}

// TestAServerOutOfConnectionsAnswers503: with the server refusing Tally's
// role another connection (too many connections for the role), requests
// are 503s that change nothing; once a slot is free, the same write with
// the same Idempotency-Key goes through.
func TestAServerOutOfConnectionsAnswers503(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.DSNWithConnectionLimit(t, 1)
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil)}))
	tb := makeTable(t, c, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	pool.Reset() // the pool gives its connection up, and the test takes the slot
	var holder *pgx.Conn
	eventually(t, "take the role's one connection", func() bool {
		holder, err = pgx.Connect(ctx, dsn)
		return err == nil
	})
	start := req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host, key: "round-1"}
	for _, r := range []req{{method: http.MethodGet, path: tb.path(""), token: tb.Host}, start, {method: http.MethodGet, path: "/readyz"}} {
		unavailable(t, r, c.do(t, r))
	}
	var rounds int
	if err := holder.QueryRow(ctx, `SELECT count(*) FROM rounds WHERE table_id = $1`, tb.ID).Scan(&rounds); err != nil || rounds != 0 {
		t.Fatalf("%d rounds written during the outage (err %v)", rounds, err)
	}
	if err := holder.Close(ctx); err != nil {
		t.Fatal(err)
	}
	var out resp
	eventually(t, "send the write again once a connection is free", func() bool {
		out = c.do(t, start)
		return out.status != http.StatusServiceUnavailable
	})
	if out.status != http.StatusCreated || out.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the write sent again: %d %s", out.status, out.body)
	}
}

// eventually retries ok for up to ten seconds.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("could not %s in ten seconds", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
