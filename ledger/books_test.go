package ledger_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// fixture is the books of a table of players 1, 2, 3... with their
// accounts, a pot and a bank, as a writer reads them under the table lock.
type fixture struct {
	books   *ledger.Books
	players []game.PlayerID
	kinds   []ledger.Kind // of the entries posted
}

func newFixture(noOverdraft bool, names ...string) *fixture {
	f := &fixture{}
	accounts := []db.Account{{ID: 100, Kind: db.AccountPot}, {ID: 101, Kind: db.AccountWorld}}
	var players []db.Player
	for i, n := range names {
		id := game.PlayerID(i + 1)
		f.players = append(f.players, id)
		players = append(players, db.Player{ID: id, Name: n, Seat: i + 1})
		accounts = append(accounts, db.Account{ID: int64(10 + i), Kind: db.AccountPlayer, Player: id})
	}
	f.books = ledger.NewBooks(db.Table{Currency: "chips", NoOverdraft: noOverdraft}, accounts, players)
	return f
}

// balances are the players' balances in seat order, then the pot and the
// bank.
func (f *fixture) balances() []int64 {
	var out []int64
	for _, p := range f.players {
		out = append(out, f.books.Balance(ledger.PlayerAccount(p)))
	}
	return append(out, f.books.Balance(ledger.Pot), f.books.Balance(ledger.World))
}

// post posts an entry and checks that its journal lines and audit event
// say the same as the books.
func (f *fixture) post(e ledger.Entry) error {
	p, err := f.books.Post(e)
	if err != nil {
		return err
	}
	var sum int64
	for i, ps := range p.Journal.Postings {
		sum += ps.Amount
		if p.Event.Postings[i].Amount != ps.Amount {
			return errors.New("the audit event and the journal disagree")
		}
	}
	if sum != 0 || p.Journal.Kind != string(e.Kind) || p.Journal.Round != e.Round {
		return errors.New("the journal entry is not the entry posted")
	}
	f.kinds = append(f.kinds, e.Kind)
	return nil
}

// step is one movement of a scenario; p are the players in seat order.
type step func(p []game.PlayerID) (ledger.Entry, error)

func ante(amounts ...int64) step {
	return func(p []game.PlayerID) (ledger.Entry, error) {
		var antes []game.Amount
		for i, a := range amounts {
			antes = append(antes, game.Amount{Player: p[i], Amount: a})
		}
		return ledger.Antes(1, antes), nil
	}
}

// settle is a round settled by the engine: payouts per seat, per-point
// payments from seat to seat, what carries.
func settle(pot int64, payouts map[int]int64, perPoint [][3]int64, carried int64) step {
	return func(p []game.PlayerID) (ledger.Entry, error) {
		s := game.Settlement{PotBefore: pot, CarryOver: carried, Remainder: carried}
		for seat := range len(p) {
			if a, ok := payouts[seat]; ok {
				s.Payouts = append(s.Payouts, game.Amount{Player: p[seat], Amount: a})
			}
		}
		for _, pp := range perPoint {
			s.PerPoint = append(s.PerPoint, game.Payment{From: p[pp[0]], To: p[pp[1]], Amount: pp[2]})
		}
		return ledger.RoundSettlement(1, s, "test"), nil
	}
}

func deposit(seat int, amount int64) step {
	return func(p []game.PlayerID) (ledger.Entry, error) { return ledger.Deposit(p[seat], amount) }
}

func withdraw(seat int, amount int64) step {
	return func(p []game.PlayerID) (ledger.Entry, error) { return ledger.Withdrawal(p[seat], amount) }
}

// pay records "from paid to in cash"; seat -1 is the bank.
func pay(from, to int, amount int64) step {
	id := func(p []game.PlayerID, seat int) game.PlayerID {
		if seat < 0 {
			return ledger.Bank
		}
		return p[seat]
	}
	return func(p []game.PlayerID) (ledger.Entry, error) { return ledger.Payment(id(p, from), id(p, to), amount) }
}

// closeOut returns the pot to the last round's players (seats, in play
// order) as the engine shares it.
func closeOut(pot int64, seats ...int) step {
	return func(p []game.PlayerID) (ledger.Entry, error) {
		var order []game.PlayerID
		for _, s := range seats {
			order = append(order, p[s])
		}
		return ledger.CloseOut(pot, game.CloseOut(pot, order)), nil
	}
}

func TestMovements(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		noOverdraft bool
		steps       []step
		failing     step  // must be refused with wantErr, moving nothing
		wantErr     error // for failing
		want        []int64
		wantKinds   []ledger.Kind
	}{
		{name: "ante then payout", steps: []step{ante(5, 5, 5), settle(15, map[int]int64{1: 15}, nil, 0)},
			want: []int64{-5, 10, -5, 0, 0}, wantKinds: []ledger.Kind{"ante", "round_settle"}},
		{name: "split with remainder staying in the pot", steps: []step{ante(5, 5, 5), settle(15, map[int]int64{0: 7, 2: 7}, nil, 1)},
			want: []int64{2, -5, 2, 1, 0}, wantKinds: []ledger.Kind{"ante", "round_settle"}},
		{name: "carry keeps the pot", steps: []step{ante(5, 5, 5), settle(15, nil, nil, 15), ante(5, 5, 5), settle(30, map[int]int64{2: 30}, nil, 0)},
			want: []int64{-10, -10, 20, 0, 0}, wantKinds: []ledger.Kind{"ante", "round_settle", "ante", "round_settle"}},
		{name: "per-point payment", steps: []step{settle(0, nil, [][3]int64{{0, 1, 12}}, 0)},
			want: []int64{-12, 12, 0, 0, 0}, wantKinds: []ledger.Kind{"round_settle"}},
		{name: "deposit and withdrawal", steps: []step{deposit(0, 100), withdraw(0, 30)},
			want: []int64{70, 0, 0, 0, -70}, wantKinds: []ledger.Kind{"deposit", "withdrawal"}},
		{name: "settlement payment between players", steps: []step{settle(0, nil, [][3]int64{{0, 1, 12}}, 0), pay(0, 1, 12)},
			want: []int64{0, 0, 0, 0, 0}, wantKinds: []ledger.Kind{"round_settle", "settlement"}},
		{name: "settlement with the bank", steps: []step{deposit(2, 50), pay(-1, 2, 50)},
			want: []int64{0, 0, 0, 0, 0}, wantKinds: []ledger.Kind{"deposit", "settlement"}},
		{name: "close-out gives leftovers in play order", steps: []step{ante(4, 4, 3), closeOut(11, 1, 2, 0)},
			want: []int64{-1, 0, 1, 0, 0}, wantKinds: []ledger.Kind{"ante", "close_out"}},
		{name: "overdraft refused on ante", noOverdraft: true, steps: []step{deposit(0, 10), deposit(1, 3)},
			failing: ante(5, 5), wantErr: ledger.ErrInsufficientFunds,
			want: []int64{10, 3, 0, 0, -13}, wantKinds: []ledger.Kind{"deposit", "deposit"}},
		{name: "overdraft refused on withdrawal", noOverdraft: true, steps: []step{deposit(0, 10)},
			failing: withdraw(0, 11), wantErr: ledger.ErrInsufficientFunds,
			want: []int64{10, 0, 0, 0, -10}, wantKinds: []ledger.Kind{"deposit"}},
		{name: "overdraft refused on per-point", noOverdraft: true,
			failing: settle(0, nil, [][3]int64{{0, 1, 1}}, 0), wantErr: ledger.ErrInsufficientFunds,
			want: []int64{0, 0, 0, 0, 0}},
		{name: "overdraft judged on the net: paying and paid in one settlement", noOverdraft: true,
			steps: []step{deposit(0, 1), deposit(2, 5), settle(0, nil, [][3]int64{{0, 1, 5}, {2, 0, 5}}, 0)},
			want:  []int64{1, 5, 0, 0, -6}, wantKinds: []ledger.Kind{"deposit", "deposit", "round_settle"}},
		{name: "overdraft allowed by default", steps: []step{ante(5, 5)},
			want: []int64{-5, -5, 0, 10, 0}, wantKinds: []ledger.Kind{"ante"}},
		{name: "payout of an empty pot", failing: settle(0, map[int]int64{0: 1}, nil, 0), wantErr: ledger.ErrPotEmpty,
			want: []int64{0, 0, 0, 0, 0}},
		{name: "zero deposit", failing: deposit(0, 0), wantErr: ledger.ErrInvalidAmount, want: []int64{0, 0, 0, 0, 0}},
		{name: "paying oneself", failing: pay(1, 1, 5), wantErr: ledger.ErrInvalidAmount, want: []int64{0, 0, 0, 0, 0}},
		{name: "a player of another table", failing: func(p []game.PlayerID) (ledger.Entry, error) { return ledger.Deposit(99, 5) },
			wantErr: ledger.ErrUnknownPlayer, want: []int64{0, 0, 0, 0, 0}},
		{name: "an entry that does not balance", failing: func(p []game.PlayerID) (ledger.Entry, error) {
			return ledger.Entry{Kind: ledger.KindRoundSettle, Lines: []ledger.Line{{Account: ledger.PlayerAccount(p[0]), Amount: 3}}}, nil
		}, wantErr: ledger.ErrUnbalanced, want: []int64{0, 0, 0, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(tc.noOverdraft, "Ann", "Bob", "Cy")
			for i, s := range tc.steps {
				e, err := s(f.players)
				if err == nil {
					err = f.post(e)
				}
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
			}
			if tc.failing != nil {
				e, err := tc.failing(f.players)
				if err == nil {
					err = f.post(e)
				}
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			}
			if got := f.balances(); !slices.Equal(got, tc.want) {
				t.Errorf("balances (players, pot, bank) = %v, want %v", got, tc.want)
			}
			if !slices.Equal(f.kinds, tc.wantKinds) {
				t.Errorf("journal kinds %v, want %v", f.kinds, tc.wantKinds)
			}
		})
	}
}

func TestRoundSettlementPostsTheEnginesMoney(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		payouts  map[int]int64
		carried  int64
		want     []int64 // players, pot after antes of 5 each
		postings int
		winners  int
	}{
		{name: "one winner takes the pot", payouts: map[int]int64{2: 20}, want: []int64{-5, -5, 15, -5, 0}, postings: 2, winners: 1},
		{name: "three winners split, two units carry", payouts: map[int]int64{0: 6, 1: 6, 3: 6}, carried: 2,
			want: []int64{1, 1, -5, 1, 2}, postings: 4, winners: 3},
		{name: "nobody wins: the pot carries", carried: 20, want: []int64{-5, -5, -5, -5, 20}, postings: 0},
		{name: "refund to all", payouts: map[int]int64{0: 5, 1: 5, 2: 5, 3: 5}, want: []int64{0, 0, 0, 0, 0}, postings: 5, winners: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(false, "Ann", "Bob", "Cy", "Dee")
			e, _ := ante(5, 5, 5, 5)(f.players)
			if err := f.post(e); err != nil {
				t.Fatal(err)
			}
			e, _ = settle(20, tc.payouts, nil, tc.carried)(f.players)
			p, err := f.books.Post(e)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.balances()[:5]; !slices.Equal(got, tc.want) {
				t.Errorf("balances (players, pot) = %v, want %v", got, tc.want)
			}
			meta := e.Meta.(ledger.RoundMeta)
			if len(p.Journal.Postings) != tc.postings || p.Journal.Kind != "round_settle" || p.Journal.Round != 1 ||
				meta.Carried != tc.carried || meta.Remainder != tc.carried || meta.Pot != 20 || len(meta.Winners) != tc.winners {
				t.Errorf("entry %+v, metadata %+v", p.Journal, meta)
			}
			if !strings.Contains(string(p.Journal.Metadata), `"carried":`) {
				t.Errorf("metadata %s", p.Journal.Metadata)
			}
		})
	}
}

func TestOverdraftRefusalNamesPlayerBalanceAndAmount(t *testing.T) {
	t.Parallel()
	f := newFixture(true, "Ann", "Bob")
	e, _ := deposit(1, 3)(f.players)
	if err := f.post(e); err != nil {
		t.Fatal(err)
	}
	err := f.post(ledger.Antes(1, []game.Amount{{Player: f.players[1], Amount: 7}}))
	if !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"Bob", "has 3", "not the 7"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if got := f.balances(); !slices.Equal(got, []int64{0, 3, 0, -3}) {
		t.Errorf("balances after the refusal %v", got)
	}
}

// TestBalanceLimit: one movement is at most MaxAmount, and every account
// stays within ±MaxBalance, refused with ErrInvalidAmount, which keeps any
// sum of a table's accounts exact and every balance inside bigint.
func TestBalanceLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(false, "Ann", "Bob")
	for range ledger.MaxBalance / ledger.MaxAmount {
		e, _ := deposit(0, ledger.MaxAmount)(f.players)
		if err := f.post(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []step{deposit(0, 1), deposit(1, 1)} { // Ann is full, and so is the bank
		e, _ := s(f.players)
		if err := f.post(e); !errors.Is(err, ledger.ErrInvalidAmount) {
			t.Fatalf("a deposit past the balance limit: %v, want ErrInvalidAmount", err)
		}
	}
	if _, err := ledger.Deposit(f.players[0], ledger.MaxAmount+1); !errors.Is(err, ledger.ErrInvalidAmount) {
		t.Fatalf("a deposit beyond MaxAmount: %v", err)
	}
	e, _ := pay(1, 0, ledger.MaxAmount)(f.players)
	if err := f.post(e); err != nil {
		t.Fatal(err)
	}
	if got := f.balances(); !slices.Equal(got, []int64{ledger.MaxBalance - ledger.MaxAmount, ledger.MaxAmount, 0, -ledger.MaxBalance}) {
		t.Fatalf("balances after the refusals: %v", got)
	}
}
