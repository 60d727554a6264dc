package api

import (
	"testing"

	"github.com/tally-dice/tally/db/dbtest"
)

// TestMain runs the tests against a private PostgreSQL (or DATABASE_URL /
// TEST_DATABASE_URL) and stops it afterwards.
func TestMain(m *testing.M) { dbtest.Main(m) }

// newDBClient is a client for a server on a fresh, migrated database.
func newDBClient(t *testing.T) *client {
	t.Helper()
	return newClient(t, New(Config{Pool: dbtest.Pool(t)}))
}
