package ledger_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/ledger"
)

// step is one movement in a scenario; p maps seat indexes to player ids.
type step func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error)

func ante(amounts ...int64) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		var antes []ledger.PlayerAmount
		for i, a := range amounts {
			antes = append(antes, ledger.PlayerAmount{PlayerID: p[i], Amount: a})
		}
		return ledger.Ante(f.ctx, tx, f.table.ID, nil, antes)
	}
}

func payout(seat int) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.Payout(f.ctx, tx, f.table.ID, nil, p[seat])
	}
}

func split(seats ...int) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.Split(f.ctx, tx, f.table.ID, nil, pick(p, seats))
	}
}

func carry() step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.Carry(f.ctx, tx, f.table.ID, nil, "one tie, all tie")
	}
}

func perPoint(from, to int, amount int64) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.PerPoint(f.ctx, tx, f.table.ID, nil, []ledger.Payment{{From: p[from], To: p[to], Amount: amount}})
	}
}

func deposit(seat int, amount int64) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.Deposit(f.ctx, tx, f.table.ID, p[seat], amount)
	}
}

func withdraw(seat int, amount int64) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.Withdraw(f.ctx, tx, f.table.ID, p[seat], amount)
	}
}

// settle records "from paid to in cash"; seat -1 is the bank.
func settle(from, to int, amount int64) step {
	id := func(p []int64, seat int) int64 {
		if seat < 0 {
			return ledger.Bank
		}
		return p[seat]
	}
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.SettlementPayment(f.ctx, tx, f.table.ID, id(p, from), id(p, to), amount)
	}
}

func closeTable(seats ...int) step {
	return func(f *fixture, tx pgx.Tx, p []int64) (ledger.Transaction, error) {
		return ledger.CloseTable(f.ctx, tx, f.table.ID, pick(p, seats))
	}
}

// pick maps seat indexes to player ids.
func pick(p []int64, seats []int) []int64 {
	out := make([]int64, len(seats))
	for i, s := range seats {
		out[i] = p[s]
	}
	return out
}

func TestMovements(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		noOverdraft bool
		steps       []step
		failing     step  // must be refused with wantErr, writing nothing
		wantErr     error // for failing
		want        []int64
		wantKinds   []ledger.Kind
	}{
		{name: "ante then payout", steps: []step{ante(5, 5, 5), payout(1)},
			want: []int64{-5, 10, -5, 0, 0}, wantKinds: []ledger.Kind{"ante", "payout"}},
		{name: "split with remainder staying in the pot", steps: []step{ante(5, 5, 5), split(0, 2)},
			want: []int64{2, -5, 2, 1, 0}, wantKinds: []ledger.Kind{"ante", "split"}},
		{name: "carry keeps the pot", steps: []step{ante(5, 5, 5), carry(), ante(5, 5, 5), payout(2)},
			want: []int64{-10, -10, 20, 0, 0}, wantKinds: []ledger.Kind{"ante", "carry", "ante", "payout"}},
		{name: "per-point payment", steps: []step{perPoint(0, 1, 12)},
			want: []int64{-12, 12, 0, 0, 0}, wantKinds: []ledger.Kind{"per_point"}},
		{name: "deposit and withdrawal", steps: []step{deposit(0, 100), withdraw(0, 30)},
			want: []int64{70, 0, 0, 0, -70}, wantKinds: []ledger.Kind{"deposit", "withdrawal"}},
		{name: "settlement payment between players", steps: []step{perPoint(0, 1, 12), settle(0, 1, 12)},
			want: []int64{0, 0, 0, 0, 0}, wantKinds: []ledger.Kind{"per_point", "settlement"}},
		{name: "settlement with the bank", steps: []step{deposit(2, 50), settle(-1, 2, 50)},
			want: []int64{0, 0, 0, 0, 0}, wantKinds: []ledger.Kind{"deposit", "settlement"}},
		{name: "close-out gives leftovers in play order", steps: []step{ante(4, 4, 3), closeTable(1, 2, 0)},
			want: []int64{-1, 0, 1, 0, 0}, wantKinds: []ledger.Kind{"ante", "close_out"}},
		{name: "withdrawal allowed after close", steps: []step{deposit(0, 10), closeTable(0, 1, 2), withdraw(0, 10)},
			want: []int64{0, 0, 0, 0, 0}, wantKinds: []ledger.Kind{"deposit", "withdrawal"}},
		{name: "overdraft refused on ante", noOverdraft: true, steps: []step{deposit(0, 10), deposit(1, 3)},
			failing: ante(5, 5), wantErr: ledger.ErrInsufficientFunds,
			want: []int64{10, 3, 0, 0, -13}, wantKinds: []ledger.Kind{"deposit", "deposit"}},
		{name: "overdraft refused on withdrawal", noOverdraft: true, steps: []step{deposit(0, 10)},
			failing: withdraw(0, 11), wantErr: ledger.ErrInsufficientFunds,
			want: []int64{10, 0, 0, 0, -10}, wantKinds: []ledger.Kind{"deposit"}},
		{name: "overdraft refused on per-point", noOverdraft: true,
			failing: perPoint(0, 1, 1), wantErr: ledger.ErrInsufficientFunds,
			want: []int64{0, 0, 0, 0, 0}},
		{name: "overdraft allowed by default", steps: []step{ante(5, 5)},
			want: []int64{-5, -5, 0, 10, 0}, wantKinds: []ledger.Kind{"ante"}},
		{name: "payout of an empty pot", failing: payout(0), wantErr: ledger.ErrPotEmpty, want: []int64{0, 0, 0, 0, 0}},
		{name: "split too small to share", steps: []step{ante(1, 1)}, failing: split(0, 1, 2), wantErr: ledger.ErrPotEmpty,
			want: []int64{-1, -1, 0, 2, 0}, wantKinds: []ledger.Kind{"ante"}},
		{name: "zero ante", failing: ante(0, 5), wantErr: ledger.ErrInvalidAmount, want: []int64{0, 0, 0, 0, 0}},
		{name: "paying oneself", failing: perPoint(1, 1, 5), wantErr: ledger.ErrInvalidAmount, want: []int64{0, 0, 0, 0, 0}},
		{name: "ante at a closed table", steps: []step{closeTable()}, failing: ante(1, 1), wantErr: ledger.ErrTableClosed,
			want: []int64{0, 0, 0, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tc.noOverdraft, "Ann", "Bob", "Cy")
			for i, s := range tc.steps {
				if err := f.do(func(tx pgx.Tx) error { _, err := s(f, tx, f.players); return err }); err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
			}
			if tc.failing != nil {
				err := f.do(func(tx pgx.Tx) error { _, err := tc.failing(f, tx, f.players); return err })
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			}
			if got := f.balances(); !equal(got, tc.want) {
				t.Errorf("balances (players, pot, world) = %v, want %v", got, tc.want)
			}
			statement, err := ledger.Statement(f.ctx, f.pool, f.table.ID)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []ledger.Kind
			for _, tx := range statement {
				kinds = append(kinds, tx.Kind)
			}
			if len(kinds) != len(tc.wantKinds) {
				t.Fatalf("journal kinds %v, want %v", kinds, tc.wantKinds)
			}
			for i := range kinds {
				if kinds[i] != tc.wantKinds[i] {
					t.Fatalf("journal kinds %v, want %v", kinds, tc.wantKinds)
				}
			}
			checkInvariants(t, f.ctx, f.pool)
		})
	}
}
