package ledger_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/ledger"
)

func TestSettleUpRefusesWhileThePotHoldsMoney(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob")
	f.must(func(tx pgx.Tx) error {
		_, err := ledger.Ante(f.ctx, tx, f.table.ID, nil, []ledger.PlayerAmount{{PlayerID: f.players[0], Amount: 3}})
		return err
	})
	_, err := ledger.SettleUp(f.ctx, f.pool, f.table.ID)
	if !errors.Is(err, ledger.ErrPotNotEmpty) || !strings.Contains(err.Error(), "3 chips") {
		t.Fatalf("err = %v, want ErrPotNotEmpty naming 3 chips", err)
	}
}

// TestSettleUpPlanClearsTheBooks plays an evening with buy-ins and games,
// closes the table, then records every payment of the plan and checks that
// everyone, the bank included, ends at zero.
func TestSettleUpPlanClearsTheBooks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob", "Cy", "Dee")
	p := f.players
	f.must(func(tx pgx.Tx) error {
		steps := []func() (ledger.Transaction, error){
			func() (ledger.Transaction, error) { return ledger.Deposit(f.ctx, tx, f.table.ID, p[0], 40) },
			func() (ledger.Transaction, error) { return ledger.Deposit(f.ctx, tx, f.table.ID, p[3], 25) },
			func() (ledger.Transaction, error) {
				return ledger.Ante(f.ctx, tx, f.table.ID, nil, []ledger.PlayerAmount{{p[0], 10}, {p[1], 10}, {p[2], 10}, {p[3], 10}})
			},
			func() (ledger.Transaction, error) { return ledger.Payout(f.ctx, tx, f.table.ID, nil, p[1]) },
			func() (ledger.Transaction, error) {
				return ledger.PerPoint(f.ctx, tx, f.table.ID, nil, []ledger.Payment{{From: p[2], To: p[0], Amount: 7}})
			},
			func() (ledger.Transaction, error) {
				return ledger.Ante(f.ctx, tx, f.table.ID, nil, []ledger.PlayerAmount{{p[0], 3}, {p[1], 3}})
			},
			func() (ledger.Transaction, error) {
				return ledger.CloseTable(f.ctx, tx, f.table.ID, []int64{p[1], p[0]})
			},
		}
		for _, s := range steps {
			if _, err := s(); err != nil {
				return err
			}
		}
		return nil
	})
	plan, err := ledger.SettleUp(f.ctx, f.pool, f.table.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Ann 40-10+7 = 37, Bob -10+40 = 30, Cy -17, Dee 15, bank -65.
	if len(plan.Parties) != 5 || plan.Parties[4].PlayerID != ledger.Bank || plan.Parties[4].Balance != -65 {
		t.Fatalf("parties %+v", plan.Parties)
	}
	if !plan.Exact || len(plan.Payments) > len(plan.Parties)-1 {
		t.Fatalf("plan %+v", plan)
	}
	if lines := plan.WhoOwesWhom(); len(lines) != len(plan.Payments) || !strings.Contains(strings.Join(lines, "\n"), " pays ") {
		t.Fatalf("who owes whom: %q", lines)
	}
	if standing := plan.Standing(); !strings.Contains(strings.Join(standing, "\n"), "Cy owes 17 chips") {
		t.Fatalf("standing: %q", standing)
	}
	f.must(func(tx pgx.Tx) error {
		for _, pay := range plan.Payments {
			if _, err := ledger.SettlementPayment(f.ctx, tx, f.table.ID, pay.From.PlayerID, pay.To.PlayerID, pay.Amount); err != nil {
				return err
			}
		}
		return nil
	})
	if got := f.balances(); !equal(got, []int64{0, 0, 0, 0, 0, 0}) {
		t.Fatalf("balances after settling up: %v", got)
	}
	if after, err := ledger.SettleUp(f.ctx, f.pool, f.table.ID); err != nil || len(after.Payments) != 0 {
		t.Fatalf("settled table still plans %+v (%v)", after.Payments, err)
	}
	checkInvariants(t, f.ctx, f.pool)
}

func TestStatementCSV(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob, Jr.")
	round := f.openRound()
	f.must(func(tx pgx.Tx) error {
		if _, err := ledger.Ante(f.ctx, tx, f.table.ID, &round, []ledger.PlayerAmount{{f.players[0], 2}, {f.players[1], 2}}); err != nil {
			return err
		}
		_, err := ledger.Carry(f.ctx, tx, f.table.ID, &round, "all tie")
		return err
	})
	statement, err := ledger.Statement(f.ctx, f.pool, f.table.ID)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ledger.WriteCSV(&buf, statement); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse back: %v\n%s", err, buf.String())
	}
	// header, three ante postings, one carry marker
	if len(rows) != 5 {
		t.Fatalf("%d CSV rows:\n%v", len(rows), rows)
	}
	if rows[0][0] != "transaction_id" || rows[2][7] != "Bob, Jr." || rows[2][8] != "-2" || rows[3][5] != "pot" || rows[3][8] != "4" {
		t.Errorf("unexpected rows: %v", rows)
	}
	if rows[4][2] != "carry" || rows[4][4] != "all tie" || rows[4][8] != "0" {
		t.Errorf("carry marker row: %v", rows[4])
	}
	if statement[1].Metadata["carried"] != float64(4) {
		t.Errorf("carry metadata %v", statement[1].Metadata)
	}
}
