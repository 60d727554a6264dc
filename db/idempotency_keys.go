package db

import (
	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// IdempotencyKey is the stored outcome of a request made with an
// Idempotency-Key, written in the same transaction as the request's effect.
// Keys live under the table the request acted on (0 while making a table)
// and a scope naming who sent them.
type IdempotencyKey struct {
	TableID     int64
	Scope       string
	Key         string
	RequestHash []byte
	Status      int
	Body        []byte
	ContentType string
}

// IdempotencyKeyGet queues looking a key up; an unused key leaves out with
// no RequestHash.
func (b *Batch) IdempotencyKeyGet(tableID int64, scope, key string, out *IdempotencyKey) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.IdempotencyKey, error) {
			return queries.IdempotencyKeyGet(b.ctx, q, dbsqlc.IdempotencyKeyGetParams{TableID: tableID, Scope: scope, Key: key})
		}, func(r dbsqlc.IdempotencyKey, out *IdempotencyKey) error {
			*out = IdempotencyKey{TableID: r.TableID, Scope: r.Scope, Key: r.Key, RequestHash: r.RequestHash,
				Status: int(r.ResponseStatus), Body: r.ResponseBody, ContentType: r.ResponseContentType}
			return nil
		})
	})
}
