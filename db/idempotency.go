package db

import (
	"context"
	"fmt"
	"time"
)

// IdempotencyKey is the stored outcome of a request made with an
// Idempotency-Key, written in the same transaction as the request's effect.
type IdempotencyKey struct {
	Scope               string
	Key                 string
	RequestHash         []byte
	Status              string
	ResponseStatus      int
	ResponseBody        []byte
	ResponseContentType string
	CreatedAt           time.Time
}

// IdempotencyCompleted is the status of a key whose effect committed.
const IdempotencyCompleted = "completed"

// AdvisoryXactTryLock tries to take the transaction-level advisory lock key
// without waiting. The lock is released when the transaction ends.
func AdvisoryXactTryLock(ctx context.Context, q DBTX, key int64) (bool, error) {
	var ok bool
	if err := q.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, key).Scan(&ok); err != nil {
		return false, fmt.Errorf("advisory lock %d: %w", key, interpretError(err))
	}
	return ok, nil
}

// IdempotencyKeyGet reads a stored key; ErrNotFound when it was never used.
func IdempotencyKeyGet(ctx context.Context, q DBTX, scope, key string) (IdempotencyKey, error) {
	k := IdempotencyKey{Scope: scope, Key: key}
	err := q.QueryRow(ctx, `
		SELECT request_hash, status, response_status, response_body, response_content_type, created_at
		FROM idempotency_keys WHERE scope = $1 AND key = $2`, scope, key).
		Scan(&k.RequestHash, &k.Status, &k.ResponseStatus, &k.ResponseBody, &k.ResponseContentType, &k.CreatedAt)
	if err != nil {
		return IdempotencyKey{}, fmt.Errorf("idempotency key %s/%s: %w", scope, key, interpretError(err))
	}
	return k, nil
}

// IdempotencyKeyInsert stores a completed key. A key already stored is
// ErrConflict.
func IdempotencyKeyInsert(ctx context.Context, q DBTX, k IdempotencyKey) error {
	if k.ResponseBody == nil {
		k.ResponseBody = []byte{} // an empty body is stored as such, not as NULL
	}
	_, err := q.Exec(ctx, `
		INSERT INTO idempotency_keys (scope, key, request_hash, status, response_status, response_body, response_content_type)
		VALUES ($1, $2, $3, 'completed', $4, $5, $6)`,
		k.Scope, k.Key, k.RequestHash, k.ResponseStatus, k.ResponseBody, k.ResponseContentType)
	if err != nil {
		return fmt.Errorf("save idempotency key %s/%s: %w", k.Scope, k.Key, interpretError(err))
	}
	return nil
}
