package https

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/seal"
	"golang.org/x/crypto/acme/autocert"
)

// ErrCache is wrapped by a cache read or write the database refused or
// could not answer.
var ErrCache = errors.New("ACME cache")

// Cache is where ACME keeps what it obtains (its account key, certificates
// with their private keys, the answers of challenges in progress): the
// database's acme_cache table, which every instance shares. Each value is
// sealed under a key derived from the master secret with its name
// (seal.Keys.LockACME), so the database alone reveals no private key.
type Cache struct {
	conn db.Conn
	keys *seal.Keys
	log  *slog.Logger
}

// NewCache keeps ACME's values in the database conn reaches (a pool),
// sealed with keys.
func NewCache(conn db.Conn, keys *seal.Keys, log *slog.Logger) *Cache {
	return &Cache{conn: conn, keys: keys, log: log}
}

var _ autocert.Cache = (*Cache)(nil)

// Get is the value stored under name, or autocert.ErrCacheMiss. A value
// that does not open with this server's secret counts as missing, and is
// logged: ACME then obtains what it needs again (after the secret was
// lost and made anew) rather than leave the server without a certificate.
// Instances with different secrets would take turns replacing each
// other's certificates; they must share one secret (README).
func (c *Cache) Get(ctx context.Context, name string) ([]byte, error) {
	var stored []byte
	b := db.NewBatch(ctx)
	b.ACMECacheGet(name, &stored)
	if err := b.Send(c.conn); err != nil {
		return nil, fmt.Errorf("%w: reading %q: %w", ErrCache, name, err)
	}
	if stored == nil {
		return nil, autocert.ErrCacheMiss
	}
	value, err := c.keys.UnlockACME(stored, name)
	if err != nil {
		c.log.Warn("an ACME cache entry does not open with this server's secret: obtaining it again (every instance needs the same secret)",
			"name", name, "err", err)
		return nil, autocert.ErrCacheMiss
	}
	return value, nil
}

// Put stores value under name, sealed, replacing what was there.
func (c *Cache) Put(ctx context.Context, name string, value []byte) error {
	b := db.NewBatch(ctx)
	b.ACMECachePut(name, c.keys.LockACME(value, name))
	if err := b.Send(c.conn); err != nil {
		return fmt.Errorf("%w: storing %q: %w", ErrCache, name, err)
	}
	return nil
}

// Delete removes what is stored under name; nothing there is no error.
func (c *Cache) Delete(ctx context.Context, name string) error {
	b := db.NewBatch(ctx)
	b.ACMECacheDelete(name)
	if err := b.Send(c.conn); err != nil {
		return fmt.Errorf("%w: removing %q: %w", ErrCache, name, err)
	}
	return nil
}
