package ledger_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

func TestInTxRetriesSerializationFailuresAndDeadlocks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann")
	for _, code := range []string{"40001", "40P01"} {
		attempts := 0
		err := f.do(func(tx pgx.Tx) error {
			attempts++
			if attempts < 3 {
				_, err := tx.Exec(f.ctx, `DO $$ BEGIN RAISE EXCEPTION 'simulated' USING ERRCODE = '`+code+`'; END $$`)
				return err
			}
			_, err := ledger.Deposit(f.ctx, tx, f.table.ID, f.players[0], 1)
			return err
		})
		if err != nil || attempts != 3 {
			t.Errorf("%s: err %v after %d attempts, want success on the third", code, err, attempts)
		}
	}
	if got := f.balances()[0]; got != 2 {
		t.Fatalf("Ann's balance %d, want 2: each deposit committed once", got)
	}
	attempts := 0
	err := f.do(func(tx pgx.Tx) error {
		attempts++
		_, err := tx.Exec(f.ctx, `DO $$ BEGIN RAISE EXCEPTION 'always' USING ERRCODE = '40001'; END $$`)
		return err
	})
	if !errors.Is(err, ledger.ErrContention) || attempts != 10 {
		t.Fatalf("err %v after %d attempts, want ErrContention after 10", err, attempts)
	}
}

func TestInTxReportsAnUnbalancedCommit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann")
	f.must(func(tx pgx.Tx) error { _, err := ledger.Deposit(f.ctx, tx, f.table.ID, f.players[0], 1); return err })
	account := f.count(`SELECT id FROM accounts WHERE kind = 'player'`)
	err := f.do(func(tx pgx.Tx) error {
		_, err := db.JournalInsert(f.ctx, tx, db.JournalInsertParams{TableID: f.table.ID, Kind: "payout",
			Postings: []db.PostingParams{{AccountID: account, Amount: 5}}})
		return err
	})
	if !errors.Is(err, db.ErrUnbalanced) {
		t.Fatalf("err = %v, want db.ErrUnbalanced", err)
	}
	if got := f.balances()[0]; got != 1 {
		t.Fatalf("balance %d after the refused commit, want 1", got)
	}
}
