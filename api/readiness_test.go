package api

import (
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/tally-dice/tally/db/dbtest"
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
