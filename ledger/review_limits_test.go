package ledger_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/ledger"
)

// TestReviewBalanceLimit: one movement is at most MaxAmount, but nothing
// bounded a balance, so enough buy-ins (about 9,200 of the largest) took an
// account past PostgreSQL's bigint and every later request on it was a 500,
// and Go sums of several balances (the audit's total, settle-up) could wrap
// long before that. Every account now stays within ±MaxBalance, refused
// with ErrInvalidAmount, which keeps any sum of a table's accounts exact.
func TestReviewBalanceLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob")
	ann, bob := f.players[0], f.players[1]
	steps := ledger.MaxBalance / ledger.MaxAmount
	for range steps {
		f.must(func(tx pgx.Tx) error {
			_, err := ledger.Deposit(f.ctx, tx, f.table.ID, ann, ledger.MaxAmount)
			return err
		})
	}
	err := f.do(func(tx pgx.Tx) error {
		_, err := ledger.Deposit(f.ctx, tx, f.table.ID, ann, 1)
		return err
	})
	if !errors.Is(err, ledger.ErrInvalidAmount) {
		t.Fatalf("a deposit past the balance limit: %v, want ErrInvalidAmount", err)
	}
	// The bank (world account) is bounded the same way: Bob cannot buy in.
	err = f.do(func(tx pgx.Tx) error {
		_, err := ledger.Deposit(f.ctx, tx, f.table.ID, bob, 1)
		return err
	})
	if !errors.Is(err, ledger.ErrInvalidAmount) {
		t.Fatalf("a deposit taking the bank past the limit: %v, want ErrInvalidAmount", err)
	}
	// Money still moves back within the limit, and the books balance.
	f.must(func(tx pgx.Tx) error {
		_, err := ledger.SettlementPayment(f.ctx, tx, f.table.ID, bob, ann, ledger.MaxAmount)
		return err
	})
	sheet := f.sheet()
	if sheet.World != -ledger.MaxBalance || sheet.Players[0].Balance != ledger.MaxBalance-ledger.MaxAmount ||
		sheet.Players[1].Balance != ledger.MaxAmount {
		t.Fatalf("balances after the refusals: %+v", sheet)
	}
	checkInvariants(t, f.ctx, f.pool)
}
