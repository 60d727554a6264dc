package db

import "github.com/tally-dice/tally/db/internal/dbsqlc"

// ACMECacheGet queues reading the value stored under key in the ACME
// certificate cache (migration 11), as stored: sealed by the caller. A key
// with nothing stored leaves out nil.
func (b *Batch) ACMECacheGet(key string, out *[]byte) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() ([]byte, error) {
			return queries.ACMECacheGet(b.ctx, q, key)
		}, func(v []byte, out *[]byte) error {
			*out = v
			return nil
		})
	})
}

// ACMECachePut queues storing value under key in the ACME certificate
// cache, replacing what was there.
func (b *Batch) ACMECachePut(key string, value []byte) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.ACMECachePut(b.ctx, q, dbsqlc.ACMECachePutParams{Key: key, Value: value})
	})
}

// ACMECacheDelete queues removing what is stored under key in the ACME
// certificate cache; nothing stored there is no error.
func (b *Batch) ACMECacheDelete(key string) {
	b.exec(func(q dbsqlc.DBTX) error { return queries.ACMECacheDelete(b.ctx, q, key) })
}
