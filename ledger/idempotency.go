package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
)

// StoredResponse is the response saved for an idempotency key, replayed to
// a client that retries the same request.
type StoredResponse struct {
	Status      int
	Body        []byte
	ContentType string
	CreatedAt   time.Time
}

// RequestHash fingerprints a request (method, path and body, say) so that a
// key reused for a different request is recognised. Parts are
// length-prefixed, so ("ab","c") and ("a","bc") differ.
func RequestHash(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		_ = binary.Write(h, binary.BigEndian, uint64(len(p)))
		h.Write(p)
	}
	return h.Sum(nil)
}

// Begin starts idempotent handling of a request inside the transaction that
// will carry its effect. It takes a transaction-level advisory lock on the
// (scope, key) pair without waiting:
//   - lock held by another transaction: ErrIdempotencyInFlight (the same
//     request is being processed; retry later);
//   - key already saved with a different request hash:
//     ErrIdempotencyMismatch;
//   - key already saved with this hash: the stored response, to be replayed
//     instead of doing anything;
//   - otherwise nil, nil: do the work, then Save in the same transaction.
//
// Because the effect and the saved key commit together and the lock is held
// until then, a retried request can never apply twice.
func Begin(ctx context.Context, tx pgx.Tx, scope, key string, requestHash []byte) (*StoredResponse, error) {
	ok, err := db.AdvisoryXactTryLock(ctx, tx, advisoryKey(scope, key))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s/%s", ErrIdempotencyInFlight, scope, key)
	}
	stored, err := db.IdempotencyKeyGet(ctx, tx, scope, key)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(stored.RequestHash, requestHash) {
		return nil, fmt.Errorf("%w: %s/%s", ErrIdempotencyMismatch, scope, key)
	}
	return &StoredResponse{Status: stored.ResponseStatus, Body: stored.ResponseBody,
		ContentType: stored.ResponseContentType, CreatedAt: stored.CreatedAt}, nil
}

// Save stores the response for (scope, key) in the same transaction as the
// request's effect, after Begin returned nil, nil.
func Save(ctx context.Context, tx pgx.Tx, scope, key string, requestHash []byte, status int, body []byte, contentType string) error {
	err := db.IdempotencyKeyInsert(ctx, tx, db.IdempotencyKey{Scope: scope, Key: key, RequestHash: requestHash,
		ResponseStatus: status, ResponseBody: body, ResponseContentType: contentType})
	if errors.Is(err, db.ErrConflict) {
		// Only reachable if Begin was skipped or two keys' locks collided:
		// the other request won, and this one must not apply.
		return fmt.Errorf("%w: %s/%s: %w", ErrIdempotencyInFlight, scope, key, err)
	}
	return err
}

// advisoryKey maps (scope, key) to the 64-bit advisory lock id.
func advisoryKey(scope, key string) int64 {
	sum := sha256.Sum256([]byte(scope + "\x00" + key))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}
