package ledger_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/ledger"
)

// depositOnce is what an HTTP handler does: Begin, the effect, Save, all in
// one transaction. It returns the response body (stored or fresh).
func depositOnce(f *fixture, key string, amount int64) (string, error) {
	hash := ledger.RequestHash([]byte("POST"), []byte("/deposit"), []byte{byte(amount)})
	var body string
	err := f.do(func(tx pgx.Tx) error {
		stored, err := ledger.Begin(f.ctx, tx, "table:1", key, hash)
		if err != nil {
			return err
		}
		if stored != nil {
			body = string(stored.Body)
			return nil
		}
		t, err := ledger.Deposit(f.ctx, tx, f.table.ID, f.players[0], amount)
		if err != nil {
			return err
		}
		body = "deposited " + string(t.Kind)
		return ledger.Save(f.ctx, tx, "table:1", key, hash, 201, []byte(body), "text/plain")
	})
	return body, err
}

func TestIdempotencyReplaysAndRefusesMismatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann")
	first, err := depositOnce(f, "k1", 10)
	if err != nil || first != "deposited deposit" {
		t.Fatalf("first: %q %v", first, err)
	}
	again, err := depositOnce(f, "k1", 10)
	if err != nil || again != first {
		t.Fatalf("replay: %q %v", again, err)
	}
	if _, err := depositOnce(f, "k1", 11); !errors.Is(err, ledger.ErrIdempotencyMismatch) {
		t.Fatalf("other request with the same key: err = %v", err)
	}
	if _, err := depositOnce(f, "k2", 5); err != nil {
		t.Fatal(err)
	}
	if got := f.balances(); got[0] != 15 {
		t.Fatalf("Ann's balance %d, want 15 (one deposit per key)", got[0])
	}
}

func TestIdempotencyInFlight(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann")
	hash := ledger.RequestHash([]byte("x"))
	holder, err := f.pool.Begin(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(context.Background())
	if stored, err := ledger.Begin(f.ctx, holder, "s", "busy", hash); err != nil || stored != nil {
		t.Fatalf("holder: %v %v", stored, err)
	}
	err = f.do(func(tx pgx.Tx) error {
		_, err := ledger.Begin(f.ctx, tx, "s", "busy", hash)
		return err
	})
	if !errors.Is(err, ledger.ErrIdempotencyInFlight) {
		t.Fatalf("concurrent Begin: err = %v, want ErrIdempotencyInFlight", err)
	}
	// Another scope with the same key is independent.
	err = f.do(func(tx pgx.Tx) error {
		_, err := ledger.Begin(f.ctx, tx, "other", "busy", hash)
		return err
	})
	if err != nil {
		t.Fatalf("other scope: %v", err)
	}
}
