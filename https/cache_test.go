package https

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"golang.org/x/crypto/acme/autocert"
)

// TestTheCacheKeepsNoPlaintext: as the runtime role, the cache stores,
// reads, replaces and removes values; what the database holds is no PEM
// and not the value, opens under no other secret, and a row copied to
// another name does not open there.
func TestTheCacheKeepsNoPlaintext(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.Pool(t) // the runtime role
	owner := dbtest.OwnerPool(t, pool)
	var logs lockedBuffer
	keys := seal.Random()
	cache := NewCache(pool, keys, slog.New(slog.NewTextHandler(&logs, nil)))
	key := []byte("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIG...\n-----END EC PRIVATE KEY-----\n")

	if _, err := cache.Get(ctx, "tally.test"); err != autocert.ErrCacheMiss {
		t.Fatalf("an empty cache: %v, want ErrCacheMiss", err)
	}
	// The runtime role may do what the cache does, and nothing more.
	var may, mayNot bool
	if err := pool.QueryRow(ctx, `SELECT has_table_privilege('acme_cache', 'SELECT, INSERT, DELETE')
		AND has_column_privilege('acme_cache', 'value', 'UPDATE') AND has_column_privilege('acme_cache', 'updated_at', 'UPDATE'),
		has_column_privilege('acme_cache', 'key', 'UPDATE') OR has_table_privilege('acme_cache', 'TRUNCATE')
		OR has_table_privilege('acme_cache', 'TRIGGER') OR has_table_privilege('acme_cache', 'REFERENCES')`).Scan(&may, &mayNot); err != nil {
		t.Fatal(err)
	}
	if !may || mayNot {
		t.Fatalf("the runtime role may use the cache: %v; may rename, truncate, or add triggers or references: %v", may, mayNot)
	}
	if err := cache.Put(ctx, "tally.test", key); err != nil {
		t.Fatal(err)
	}
	if err := cache.Put(ctx, "acme_account+key", []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := cache.Put(ctx, "acme_account+key", key); err != nil {
		t.Fatalf("replacing a value: %v", err)
	}
	for _, name := range []string{"tally.test", "acme_account+key"} {
		if got, err := cache.Get(ctx, name); err != nil || !bytes.Equal(got, key) {
			t.Fatalf("%s: %q, %v", name, got, err)
		}
	}

	rows, err := owner.Query(ctx, "SELECT key, value FROM acme_cache")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]byte{}
	for rows.Next() {
		var k string
		var v []byte
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		stored[k] = v
	}
	if err := rows.Err(); err != nil || len(stored) != 2 {
		t.Fatalf("%d rows, %v", len(stored), err)
	}
	for k, v := range stored {
		if bytes.Contains(v, []byte("PRIVATE KEY")) || bytes.Contains(v, []byte("MHcCAQEEIG")) || !seal.Locked(v) {
			t.Errorf("row %s holds plaintext: %q", k, v)
		}
		if _, err := seal.Random().UnlockACME(v, k); err == nil {
			t.Errorf("row %s opens with another secret", k)
		}
	}

	// Another secret reads nothing: its Get is a miss, and says why.
	other := NewCache(pool, seal.Random(), slog.New(slog.NewTextHandler(&logs, nil)))
	if _, err := other.Get(ctx, "tally.test"); err != autocert.ErrCacheMiss {
		t.Fatalf("with another secret: %v, want ErrCacheMiss", err)
	}
	if !strings.Contains(logs.String(), "does not open with this server's secret") {
		t.Errorf("a value that does not open is not logged:\n%s", logs.String())
	}
	// The account key's row copied under the domain's name does not open.
	copyRow(t, owner, "acme_account+key", "tally.test")
	if _, err := cache.Get(ctx, "tally.test"); err != autocert.ErrCacheMiss {
		t.Fatalf("a row moved to another name: %v, want ErrCacheMiss", err)
	}

	if err := cache.Delete(ctx, "tally.test"); err != nil {
		t.Fatal(err)
	}
	if err := cache.Delete(ctx, "tally.test"); err != nil {
		t.Fatalf("removing what is gone: %v", err)
	}
	if _, err := cache.Get(ctx, "tally.test"); err != autocert.ErrCacheMiss {
		t.Fatalf("after Delete: %v, want ErrCacheMiss", err)
	}
}

// copyRow stores the value of the row from under the name to, as someone
// with the database alone could.
func copyRow(t *testing.T, owner *pgxpool.Pool, from, to string) {
	t.Helper()
	if _, err := owner.Exec(context.Background(),
		"UPDATE acme_cache SET value = (SELECT value FROM acme_cache WHERE key = $1) WHERE key = $2", from, to); err != nil {
		t.Fatal(err)
	}
}

// TestTheCacheSaysWhenTheDatabaseFails: a database that does not answer is
// an error, never a miss (which would make ACME order again).
func TestTheCacheSaysWhenTheDatabaseFails(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	cache := NewCache(pool, seal.Random(), slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cache.Get(ctx, "tally.test"); err == autocert.ErrCacheMiss || !errors.Is(err, ErrCache) {
		t.Fatalf("Get with the database out of reach: %v, want ErrCache", err)
	}
	if err := cache.Put(ctx, "tally.test", []byte("x")); !errors.Is(err, ErrCache) {
		t.Fatalf("Put with the database out of reach: %v, want ErrCache", err)
	}
}
