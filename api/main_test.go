package api

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// TestMain runs the tests against a private PostgreSQL (or DATABASE_URL /
// TEST_DATABASE_URL) and stops it afterwards.
func TestMain(m *testing.M) { dbtest.Main(m) }

// newDBClient is a client for a server on a fresh, migrated database.
func newDBClient(t *testing.T) *client {
	t.Helper()
	return newClient(t, New(Config{Tables: table.New(dbtest.Pool(t), seal.Random(), nil)}))
}

// newClosedPool is a pool whose database is gone.
func newClosedPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}
