package table

import (
	"context"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
)

// This file is the service's upkeep: sealing history written before seals
// existed, and forgetting expired Idempotency-Key answers.

// sealBatch is how many events or heads one statement seals.
const sealBatch = 1000

// SealHistory seals the events and chain heads written before migration 4
// that have no seal yet (the database refuses to seal anything newer), so
// that from then on the audit can require a seal on everything. tallyd runs
// it once, the first time it starts after the upgrade, and never again: a
// seal made later could launder rows someone stripped of theirs. The
// Idempotency-Keys stored then are rewritten as their HMACs too. It returns
// how many events and heads it sealed.
func (s *Service) SealHistory(ctx context.Context) (int, error) {
	for attempt := 1; ; attempt++ {
		sealed, err := s.sealHistoryOnce(ctx)
		if !retryable(err) || attempt == maxAttempts {
			return sealed, serviceError(err)
		}
	}
}

// sealHistoryOnce seals the legacy history in one transaction, on a
// database where no event has a seal yet: a database upgraded and not yet
// sealed. Anywhere else seals are made with the events, and sealing rows
// stripped of theirs would launder them.
//
// The transaction sees one snapshot: several instances started together
// on the upgraded database each seal, and one that found no seal while
// another was sealing must not list the keys that one has rewritten as
// HMACs and rewrite them again (a key rewritten twice is never found, and
// its retry applies twice). Changing a row the other changed since, it
// fails and runs again, and then finds the seals.
func (s *Service) sealHistoryOnce(ctx context.Context) (sealed int, err error) {
	conn, err := s.acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer release(conn, &err)
	b := db.NewBatch(ctx)
	b.BeginSnapshot()
	var any bool
	b.EventSealedAny(&any)
	if err := b.Send(conn); err != nil {
		return 0, err
	}
	if any {
		return 0, nil
	}
	for {
		var events []chain.Event
		var heads []db.Table
		b := db.NewBatch(ctx)
		b.EventUnsealed(sealBatch, &events)
		b.TableHeadUnsealed(sealBatch, &heads)
		if err := b.Send(conn); err != nil {
			return 0, err
		}
		b = db.NewBatch(ctx)
		for i := 0; i < len(events); {
			j := i
			var seqs []int64
			var seals [][]byte
			for ; j < len(events) && events[j].TableID == events[i].TableID; j++ {
				seqs = append(seqs, events[j].Seq)
				seals = append(seals, s.keys.Event(events[j].TableID, events[j].Seq, events[j].Hash))
			}
			b.EventSeal(events[i].TableID, seqs, seals)
			i = j
		}
		for _, t := range heads {
			b.TableHeadSeal(t.ID, t.Head.Seq, s.keys.Head(t.ID, t.Head.Seq, t.Head.Hash))
		}
		last := len(events) < sealBatch && len(heads) < sealBatch
		if last {
			// The keys stored before migration 4 are kept as their HMACs
			// from now on, as every key is (seal.Keys.StoredKey).
			var keys []db.IdempotencyKey
			kb := db.NewBatch(ctx)
			kb.IdempotencyKeyListAll(&keys)
			if err := kb.Send(conn); err != nil {
				return 0, err
			}
			if len(keys) > 0 {
				names := make([]string, len(keys))
				for i, k := range keys {
					names[i] = s.keys.StoredKey(k.Key)
				}
				b.IdempotencyKeyRename(keys, names)
			}
			b.Commit()
		}
		if err := b.Send(conn); err != nil {
			return 0, err
		}
		sealed += len(events) + len(heads)
		if last {
			return sealed, nil
		}
	}
}

// expireEvery is how often ExpireKeys looks for expired answers, and
// expireBatch how many it removes per statement.
const (
	expireEvery = 10 * time.Minute
	expireBatch = 5000
)

// ExpireKeys removes Idempotency-Key answers older than KeyRetention until
// ctx ends; the lookup already ignores them, so this only frees the space.
func (s *Service) ExpireKeys(ctx context.Context) {
	t := time.NewTicker(expireEvery)
	defer t.Stop()
	for {
		if _, err := s.ExpireKeysOnce(ctx, KeyRetention); err != nil && ctx.Err() == nil {
			s.log.Warn("removing expired Idempotency-Key answers", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ExpireKeysOnce removes every answer older than maxAge by the service's
// clock, in batches, and says how many went.
func (s *Service) ExpireKeysOnce(ctx context.Context, maxAge time.Duration) (int64, error) {
	var total int64
	for {
		var n int64
		b := db.NewBatch(ctx)
		b.IdempotencyKeyExpire(s.now().Add(-maxAge), expireBatch, &n)
		if err := b.Send(s.pool); err != nil {
			return total, serviceError(err)
		}
		total += n
		if n < expireBatch {
			return total, nil
		}
	}
}
