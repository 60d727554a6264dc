package ledger_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// openRound starts a round at the fixture's table.
func (f *fixture) openRound() int64 {
	f.t.Helper()
	r, err := db.RoundInsert(f.ctx, f.pool, f.table.ID, json.RawMessage(`{}`))
	if err != nil {
		f.t.Fatal(err)
	}
	return r.ID
}

func TestRoundSettle(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		winners   []int // seat indexes
		perPoint  []ledger.Payment
		want      []int64 // players, pot, world after antes of 5 each
		remainder int64
		carried   int64
		postings  int
	}{
		{name: "one winner takes the pot", winners: []int{2}, want: []int64{-5, -5, 15, -5, 0}, postings: 2},
		{name: "three winners split, two units carry", winners: []int{0, 1, 3}, want: []int64{1, 1, -5, 1, 2}, remainder: 2, carried: 2, postings: 4},
		{name: "nobody wins: the pot carries", want: []int64{-5, -5, -5, -5, 20}, carried: 20, postings: 0},
		{name: "refund to all", winners: []int{0, 1, 2, 3}, want: []int64{0, 0, 0, 0, 0}, postings: 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, false, "Ann", "Bob", "Cy", "Dee")
			round := f.openRound()
			var antes []ledger.PlayerAmount
			for _, p := range f.players {
				antes = append(antes, ledger.PlayerAmount{PlayerID: p, Amount: 5})
			}
			var got ledger.Transaction
			f.must(func(tx pgx.Tx) error {
				if _, err := ledger.Ante(f.ctx, tx, f.table.ID, &round, antes); err != nil {
					return err
				}
				var err error
				got, err = ledger.RoundSettle(f.ctx, tx, ledger.RoundSettlement{TableID: f.table.ID, RoundID: round,
					Winners: pick(f.players, tc.winners), Memo: tc.name})
				return err
			})
			if bal := f.balances(); !equal(bal[:4], tc.want[:4]) || bal[4] != tc.want[4] {
				t.Errorf("balances (players, pot) = %v, want %v", bal[:5], tc.want)
			}
			if len(got.Postings) != tc.postings || got.Kind != ledger.KindRoundSettle || *got.RoundID != round {
				t.Errorf("transaction %+v, want %d postings", got, tc.postings)
			}
			if got.Metadata["remainder"] != nil && got.Metadata["remainder"] != tc.remainder {
				t.Errorf("remainder %v, want %d", got.Metadata["remainder"], tc.remainder)
			}
			if got.Metadata["carried"] != tc.carried {
				t.Errorf("carried %v, want %d", got.Metadata["carried"], tc.carried)
			}
			checkInvariants(t, f.ctx, f.pool)
		})
	}
}

func TestRoundSettleWithPerPointIsOneTransaction(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob", "Cy")
	round := f.openRound()
	f.must(func(tx pgx.Tx) error {
		_, err := ledger.RoundSettle(f.ctx, tx, ledger.RoundSettlement{TableID: f.table.ID, RoundID: round,
			PerPoint: []ledger.Payment{{From: f.players[0], To: f.players[2], Amount: 6}, {From: f.players[1], To: f.players[2], Amount: 2}}})
		return err
	})
	if got := f.balances(); !equal(got, []int64{-6, -2, 8, 0, 0}) {
		t.Fatalf("balances %v", got)
	}
	if n := f.count(`SELECT count(*) FROM journal_transactions`); n != 1 {
		t.Fatalf("%d journal transactions, want 1", n)
	}
}

func TestOverdraftRefusalNamesPlayerBalanceAndAmountAndWritesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true, "Ann", "Bob")
	f.must(func(tx pgx.Tx) error { _, err := ledger.Deposit(f.ctx, tx, f.table.ID, f.players[1], 3); return err })
	before := f.count(`SELECT count(*) FROM events`)
	// The caller commits even though the ante failed: the refusal itself
	// must have written nothing.
	var anteErr error
	f.must(func(tx pgx.Tx) error {
		_, anteErr = ledger.Ante(f.ctx, tx, f.table.ID, nil, []ledger.PlayerAmount{{PlayerID: f.players[1], Amount: 7}})
		return nil
	})
	if !errors.Is(anteErr, ledger.ErrInsufficientFunds) {
		t.Fatalf("err = %v", anteErr)
	}
	for _, want := range []string{"Bob", "has 3", "not the 7"} {
		if !strings.Contains(anteErr.Error(), want) {
			t.Errorf("error %q does not say %q", anteErr, want)
		}
	}
	if n := f.count(`SELECT count(*) FROM journal_transactions`); n != 1 {
		t.Errorf("%d journal transactions, want only the deposit", n)
	}
	if n := f.count(`SELECT count(*) FROM events`); n != before {
		t.Errorf("events went from %d to %d", before, n)
	}
}

func TestUnknownPlayerAndTable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann")
	other := f.addTable(false, "Zed")
	zed := mustPlayers(t, f.pool, other.ID)[0].ID
	err := f.do(func(tx pgx.Tx) error { _, err := ledger.Deposit(f.ctx, tx, f.table.ID, zed, 5); return err })
	if !errors.Is(err, ledger.ErrUnknownPlayer) {
		t.Errorf("player of another table: err = %v, want ErrUnknownPlayer", err)
	}
	err = f.do(func(tx pgx.Tx) error { _, err := ledger.Deposit(f.ctx, tx, other.ID+99, zed, 5); return err })
	if !errors.Is(err, ledger.ErrTableNotFound) {
		t.Errorf("missing table: err = %v, want ErrTableNotFound", err)
	}
	if _, err := ledger.Balances(context.Background(), f.pool, other.ID+99); !errors.Is(err, ledger.ErrTableNotFound) {
		t.Errorf("balances of a missing table: err = %v", err)
	}
}
