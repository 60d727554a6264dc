package db

import (
	"time"

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

// IdempotencyKeyGet queues looking a key up; an unused or expired key
// leaves out with no RequestHash.
func (b *Batch) IdempotencyKeyGet(k KeyRef, out *IdempotencyKey) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.IdempotencyKey, error) {
			return queries.IdempotencyKeyGet(b.ctx, q, dbsqlc.IdempotencyKeyGetParams{TableID: k.TableID, Scope: k.Scope,
				Key: k.Key})
		}, func(r dbsqlc.IdempotencyKey, out *IdempotencyKey) error {
			if !r.CreatedAt.After(k.Since) {
				// Stored at or before since: it has expired, even before
				// IdempotencyKeyExpire removes it. The service's clock
				// says when since is, not the database's, so that the one
				// clock that stores an answer's time also tells its age.
				return nil
			}
			*out = IdempotencyKey{TableID: r.TableID, Scope: r.Scope, Key: r.Key, RequestHash: r.RequestHash,
				Status: int(r.ResponseStatus), Body: r.ResponseBody, ContentType: r.ResponseContentType}
			return nil
		})
	})
}

// IdempotencyKeyInsert queues storing a key's answer, given at at, on its
// own (the keys of tables being made; other writes store theirs with
// TableAppend).
func (b *Batch) IdempotencyKeyInsert(k IdempotencyKey, at time.Time) {
	body := k.Body
	if body == nil {
		body = []byte{}
	}
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.IdempotencyKeyInsert(b.ctx, q, dbsqlc.IdempotencyKeyInsertParams{TableID: k.TableID, Scope: k.Scope,
			Key: k.Key, RequestHash: k.RequestHash, ResponseStatus: int32(k.Status), ResponseBody: body,
			ResponseContentType: k.ContentType, CreatedAt: at})
	})
}

// IdempotencyKeyExpire queues removing at most max stored answers stored
// at or before before, oldest first; out is how many went.
func (b *Batch) IdempotencyKeyExpire(before time.Time, max int, out *int64) {
	b.queue(func(q dbsqlc.DBTX) error {
		n, err := queries.IdempotencyKeyExpire(b.ctx, q, dbsqlc.IdempotencyKeyExpireParams{Before: before, Max: int32(max)})
		*out = n
		return err
	})
}

// IdempotencyKeyListAll queues listing every stored key (table, scope and
// key only).
func (b *Batch) IdempotencyKeyListAll(out *[]IdempotencyKey) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.IdempotencyKeyListAll(b.ctx, q)
		*out = make([]IdempotencyKey, len(rows))
		for i, r := range rows {
			(*out)[i] = IdempotencyKey{TableID: r.TableID, Scope: r.Scope, Key: r.Key}
		}
		return err
	})
}

// IdempotencyKeyRename queues storing each key of keys under the name
// names gives it (the same index).
func (b *Batch) IdempotencyKeyRename(keys []IdempotencyKey, names []string) {
	p := dbsqlc.IdempotencyKeyRenameParams{News: names}
	for _, k := range keys {
		p.TableIds = append(p.TableIds, k.TableID)
		p.Scopes = append(p.Scopes, k.Scope)
		p.Olds = append(p.Olds, k.Key)
	}
	b.exec(func(q dbsqlc.DBTX) error { return queries.IdempotencyKeyRename(b.ctx, q, p) })
}
