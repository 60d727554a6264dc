package table

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tally-dice/tally/db"
)

// A write in one round trip. When this instance kept a table's state
// (cache.go), a write is decided on that state before the database is
// asked anything, and sent in one batch: BEGIN, the lock with its check
// of what the state was kept at (db.Batch.TableLockKept: the row's
// version, which TableAppend gave after the last write here and any change
// to the row replaces; the caller's token, still the table's; the game in
// play, a round action by action), the write's statements and COMMIT.
// The check fails on a write of another instance (or one that waited for
// the lock), an Idempotency-Key stored before (its answer's insert
// conflicts), a token revoked or a round changed behind the service's
// back. Like the kept state (cache.go), it trusts the chain head for the
// rest. The transaction then commits nothing, and the write runs
// again as every other does (Service.writeOnce): it reads the table under
// its lock and is judged on what it reads. A write's answer is the same
// either way; only the round trips differ.

// writeKept runs a write in one round trip on the state kept of its table.
// done is false when it made no change and the write is to run in full:
// nothing kept, a game whose writes always read (a crew), a token the
// kept state does not know (its refusal is the full path's), a request
// refused on the kept state (judged again on the stored one), or a check
// that failed.
func (s *Service) writeKept(ctx context.Context, t target, k Key, do func(w *writer) (any, error)) (reply Reply, done bool, err error) {
	if t.open || t.also != nil {
		return Reply{}, false, nil
	}
	kept, ok := s.states.take(t.tableID, t.royale)
	if !ok {
		return Reply{}, false, nil
	}
	lock := db.NewBatch(ctx)
	lock.Begin()
	who, authErr := authenticate(t.token, t.hash, kept.st.row, kept.st.players)
	if kept.version == "" || authErr != nil || !kept.st.game.lockKept(lock, kept.version, t.hash) {
		s.states.keep(t.tableID, kept) // untouched: the full path takes it
		return Reply{}, false, nil
	}
	conn, err := s.acquire(ctx)
	if err != nil {
		return Reply{}, true, err
	}
	defer release(conn, &err)
	st := kept.st
	w := &writer{ctx: ctx, conn: conn, keys: s.keys, who: who, st: st, out: lock, head: kept.head,
		now: s.now(), rounds: st.row.Rounds}
	v, err := do(w)
	if err != nil {
		// Refused on a state not yet checked (and perhaps changed by the
		// refused write): dropped, and judged again on the stored one.
		return Reply{}, false, nil
	}
	if reply, err = w.commit(k, v); err != nil {
		if rolledBack(err) {
			return Reply{}, false, nil
		}
		return Reply{}, true, err
	}
	s.keepState(t, w)
	s.states.decided.Add(1)
	return reply, true, nil
}

// rolledBack says whether a write's batch failed in PostgreSQL, so that
// its transaction committed nothing: a statement failed (the ones after
// it, COMMIT among them, were skipped) or COMMIT did. A connection that
// failed may have committed before it did, and says nothing.
func rolledBack(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && !errors.Is(err, db.ErrUnavailable)
}

// keepState keeps the state a committed write left, when the write says
// it is the one the database now holds (writer.keep): with the table row
// as the write left it and the row's version, for the next write's check.
func (s *Service) keepState(t target, w *writer) {
	if !w.keep {
		return
	}
	st := w.st
	if w.ledger != nil {
		st.accounts = w.ledger.Accounts()
	}
	st.row.Head, st.row.HeadSeal, st.row.Rounds = w.head, w.headSeal, w.rounds
	s.states.keep(t.tableID, cachedState{head: w.head, st: st, royale: t.royale, version: w.version})
}
