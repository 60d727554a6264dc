package api

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
)

// TestTheRuntimeRoleCannotRewriteARoundsStatus: the role Tally serves as
// may change a round's status only as a write does, with the event that
// records the change in the same transaction. On its own it can neither
// mark a reversed round settled, nor reverse an open or a settled round,
// nor reopen one, nor move when a round settled; and a change that comes
// with a forged event (a made-up seal, since the key is not in the
// database) fails the audit.
func TestTheRuntimeRoleCannotRewriteARoundsStatus(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 1})
	s.start(nil)
	s.correct("/rounds/2/reverse", "started by accident", nil)
	s.start(nil) // round 3, open
	s.auditOK()
	ctx := context.Background()
	for _, q := range []string{
		`UPDATE rounds SET status = 'settled' WHERE table_id = $1 AND number = 2 AND status = 'void'`,
		`UPDATE rounds SET status = 'open' WHERE table_id = $1 AND number = 2`,
		`UPDATE rounds SET status = 'void' WHERE table_id = $1 AND number = 3 AND status = 'open'`,
		`UPDATE rounds SET status = 'settled', settled_at = now() WHERE table_id = $1 AND number = 3`,
		`UPDATE rounds SET status = 'void' WHERE table_id = $1 AND number = 1`,
		`UPDATE rounds SET status = 'open', settled_at = NULL WHERE table_id = $1 AND number = 1`,
		// Not settled_at - interval '1 hour': Citus refuses an UPDATE
		// calling a STABLE function with a column (0A000) before the guard
		// sees it, and the guard is what this checks.
		`UPDATE rounds SET settled_at = now() - interval '1 hour' WHERE table_id = $1 AND number = 1`,
	} {
		tag, err := s.pool.Exec(ctx, q, s.tb.ID)
		if db.SentinelFor(err) != db.ErrAppendOnly || !strings.Contains(err.Error(), "round") {
			t.Errorf("as the runtime role: %s\n  %v, err = %v, want it refused", q, tag, err)
		}
	}
	// In a transaction of its own the change is refused at its commit. On
	// Citus a transaction on one worker commits there in one phase, and
	// Citus words the refusal as its own (could not commit transaction for
	// shard ..., the guard's words a warning): the status stays all the same.
	func() {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback(ctx) }()
		if _, err := tx.Exec(ctx, `UPDATE rounds SET status = 'settled' WHERE table_id = $1 AND number = 2 AND status = 'void'`, s.tb.ID); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx); err == nil {
			t.Error("a transaction marking a reversed round settled committed")
		}
	}()
	var status string
	if err := s.pool.QueryRow(ctx, `SELECT status FROM rounds WHERE table_id = $1 AND number = 2`, s.tb.ID).Scan(&status); err != nil || status != "void" {
		t.Errorf("round 2 is %q (%v) after a refused transaction, want void", status, err)
	}
	s.auditOK()

	// With a forged round.reversed event in the same transaction the
	// status changes, and the forgery's seal fails the audit.
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var seq int64
	var prev []byte
	if err := tx.QueryRow(ctx, `SELECT event_seq, event_hash FROM tables WHERE id = $1 FOR UPDATE`, s.tb.ID).Scan(&seq, &prev); err != nil {
		t.Fatal(err)
	}
	payload, err := chain.Canonicalize([]byte(`{"round":3,"reason":"forged"}`))
	if err != nil {
		t.Fatal(err)
	}
	e := chain.Event{TableID: s.tb.ID, Seq: seq + 1, Kind: "round.reversed", Payload: payload,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond), PrevHash: prev}
	if e.Hash, err = chain.Hash(e); err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		q    string
		args []any
	}{
		{`INSERT INTO events (table_id, seq, kind, payload, created_at, prev_hash, hash, seal)
			VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7, $8)`,
			[]any{s.tb.ID, e.Seq, e.Kind, string(payload), e.CreatedAt, e.PrevHash, e.Hash, make([]byte, 32)}},
		{`UPDATE tables SET event_seq = $2, event_hash = $3 WHERE id = $1`, []any{s.tb.ID, e.Seq, e.Hash}},
		{`UPDATE rounds SET status = 'void', settled_at = now() WHERE table_id = $1 AND number = 3`, []any{s.tb.ID}},
	} {
		if _, err := tx.Exec(ctx, st.q, st.args...); err != nil {
			t.Fatalf("%s: %v", st.q, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("a status change with its (forged) event: %v", err)
	}
	if rep := s.audit(); rep.OK || !reportSays(rep, "seal") {
		t.Fatalf("the audit after a forged reversal: %+v", rep)
	}
}
