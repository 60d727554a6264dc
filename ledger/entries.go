package ledger

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// Bank stands for the world account wherever a player id is expected: in
// settle-up plans and settlement payments. Player ids start at 1.
const Bank game.PlayerID = 0

// Kind names a journal entry's movement.
type Kind string

// The movement kinds, as stored in journal_transactions.kind. Payout, split,
// carry and per_point are kept for journals written before a round's money
// became one round_settle entry.
const (
	KindAnte        Kind = "ante"
	KindRoundSettle Kind = "round_settle"
	KindCloseOut    Kind = "close_out"
	KindDeposit     Kind = "deposit"
	KindWithdrawal  Kind = "withdrawal"
	KindSettlement  Kind = "settlement"
	KindPayout      Kind = "payout"
	KindSplit       Kind = "split"
	KindCarry       Kind = "carry"
	KindPerPoint    Kind = "per_point"
	// KindBounty is Battleship Royale's bounty (option bounty): the owner
	// of a sunk card pays its shooter.
	KindBounty Kind = "bounty"
)

// MaxAmount is the largest amount one movement a person records accepts. It
// keeps the sums of many postings far from int64 overflow while allowing
// any real stake (10^15 cents is ten trillion dollars).
const MaxAmount int64 = 1_000_000_000_000_000

// MaxBalance bounds every account of a table, the pot and the bank
// included, on both sides of zero: a hundred of the largest movements. With
// at most a few dozen accounts per table, any sum of them stays far inside
// int64, and no balance can reach PostgreSQL's bigint limit, which would
// turn every later request on the account into an error.
const MaxBalance int64 = 100 * MaxAmount

// Account names an account by its role at a table.
type Account struct {
	Kind   string        // db.AccountPlayer, db.AccountPot or db.AccountWorld
	Player game.PlayerID // for player accounts
}

// The house accounts.
var (
	Pot   = Account{Kind: db.AccountPot}
	World = Account{Kind: db.AccountWorld}
)

// PlayerAccount is a player's account.
func PlayerAccount(p game.PlayerID) Account { return Account{Kind: db.AccountPlayer, Player: p} }

// party is the account of a settle-up party: a player, or the world
// account for Bank.
func party(p game.PlayerID) Account {
	if p == Bank {
		return World
	}
	return PlayerAccount(p)
}

// String names an account in errors and audit events: "player:7", "pot",
// "world".
func (a Account) String() string {
	if a.Kind == db.AccountPlayer {
		return "player:" + a.Player.String()
	}
	return a.Kind
}

// ParseAccount reads what String writes: "player:7", "pot" or "world".
func ParseAccount(s string) (Account, error) {
	switch {
	case s == db.AccountPot || s == db.AccountWorld:
		return Account{Kind: s}, nil
	case strings.HasPrefix(s, "player:"):
		id := strings.TrimPrefix(s, "player:")
		n, err := strconv.ParseInt(id, 10, 64)
		if err == nil && n >= 1 && game.PlayerID(n).String() == id {
			return PlayerAccount(game.PlayerID(n)), nil
		}
	}
	return Account{}, fmt.Errorf("account %q: want player:<id>, pot or world", s)
}

// Line is one posting of an entry: an amount added to (or, negative, taken
// from) an account.
type Line struct {
	Account Account
	Amount  int64
}

// Entry is a movement of money about to be posted.
type Entry struct {
	Kind  Kind
	Round int // the round it belongs to, 0 for none
	Memo  string
	Meta  any // recorded as the journal transaction's metadata
	Lines []Line
}

// Antes moves each player's ante into the pot, as the engine set them.
func Antes(round int, antes []game.Amount) Entry {
	e := Entry{Kind: KindAnte, Round: round}
	var total int64
	for _, a := range antes {
		e.Lines = append(e.Lines, Line{PlayerAccount(a.Player), -a.Amount})
		total += a.Amount
	}
	e.Lines = append(e.Lines, Line{Pot, total})
	return e
}

// RoundMeta is what a round settlement's journal transaction records of
// the round's pot.
type RoundMeta struct {
	Carried   int64           `json:"carried"`
	Pot       int64           `json:"pot"`
	Remainder int64           `json:"remainder"`
	Winners   []game.PlayerID `json:"winners"`
}

// RoundSettlement is a round's money as the engine settled it: each payout
// from the pot, each per-point payment from payer to payee. What the engine
// left in the pot (CarryOver) stays there.
func RoundSettlement(round int, s game.Settlement, memo string) Entry {
	meta := RoundMeta{Pot: s.PotBefore, Carried: s.CarryOver, Remainder: s.Remainder, Winners: []game.PlayerID{}}
	e := Entry{Kind: KindRoundSettle, Round: round, Memo: memo}
	var paid int64
	for _, p := range s.Payouts {
		e.Lines = append(e.Lines, Line{PlayerAccount(p.Player), p.Amount})
		meta.Winners = append(meta.Winners, p.Player)
		paid += p.Amount
	}
	if paid > 0 {
		e.Lines = append([]Line{{Pot, -paid}}, e.Lines...)
	}
	for _, p := range s.PerPoint {
		e.Lines = append(e.Lines, Line{PlayerAccount(p.From), -p.Amount}, Line{PlayerAccount(p.To), p.Amount})
	}
	e.Meta = meta
	return e
}

// Matches says whether a stored journal transaction's postings move
// exactly what e moves: the same net amount on every account, the pot
// included. The error names the first account that differs.
func (e Entry) Matches(postings []db.Posting) error {
	want := map[Account]int64{}
	for _, l := range e.Lines {
		want[l.Account] += l.Amount
	}
	got := map[Account]int64{}
	for _, p := range postings {
		a := Account{Kind: p.Kind}
		if p.Kind == db.AccountPlayer {
			a.Player = p.Player
		}
		got[a] += p.Amount
	}
	accounts := make([]Account, 0, len(want)+len(got))
	for a := range want {
		accounts = append(accounts, a)
	}
	for a := range got {
		if _, ok := want[a]; !ok {
			accounts = append(accounts, a)
		}
	}
	slices.SortFunc(accounts, func(a, b Account) int { return strings.Compare(a.String(), b.String()) })
	for _, a := range accounts {
		if got[a] != want[a] {
			return fmt.Errorf("the ledger moved %d for %s, the engine decided %d", got[a], a, want[a])
		}
	}
	return nil
}

// CloseOutMeta records a close-out's shares.
type CloseOutMeta struct {
	Players []game.PlayerID `json:"players"`
	Pot     int64           `json:"pot"`
	Shares  []int64         `json:"shares"`
}

// CloseOut empties a closing table's pot to its players as the engine
// shared it (game.CloseOut).
func CloseOut(pot int64, shares []game.Amount) Entry {
	meta := CloseOutMeta{Pot: pot, Players: []game.PlayerID{}, Shares: []int64{}}
	e := Entry{Kind: KindCloseOut, Lines: []Line{{Pot, -pot}}}
	for _, s := range shares {
		e.Lines = append(e.Lines, Line{PlayerAccount(s.Player), s.Amount})
		meta.Players = append(meta.Players, s.Player)
		meta.Shares = append(meta.Shares, s.Amount)
	}
	e.Meta = meta
	return e
}

// Deposit records a buy-in: the player hands the bank X in cash and the
// table owes them X.
func Deposit(player game.PlayerID, amount int64) (Entry, error) {
	if err := checkAmount(amount, "deposit"); err != nil {
		return Entry{}, err
	}
	return Entry{Kind: KindDeposit, Lines: []Line{{PlayerAccount(player), amount}, {World, -amount}}}, nil
}

// Withdrawal records a cash-out: the bank hands the player X.
func Withdrawal(player game.PlayerID, amount int64) (Entry, error) {
	if err := checkAmount(amount, "withdrawal"); err != nil {
		return Entry{}, err
	}
	return Entry{Kind: KindWithdrawal, Lines: []Line{{PlayerAccount(player), -amount}, {World, amount}}}, nil
}

// Payment records that from paid to X in cash, away from the table: from
// owes X less, to is owed X less. Either side may be Bank.
func Payment(from, to game.PlayerID, amount int64) (Entry, error) {
	if err := checkAmount(amount, "payment"); err != nil {
		return Entry{}, fmt.Errorf("from %d to %d: %w", from, to, err)
	}
	if from == to {
		return Entry{}, fmt.Errorf("%w: %s cannot pay themselves", ErrInvalidAmount, partyName(from))
	}
	return Entry{Kind: KindSettlement, Lines: []Line{{party(from), amount}, {party(to), -amount}}}, nil
}

// checkAmount refuses amounts outside 1..MaxAmount.
func checkAmount(amount int64, what string) error {
	if amount <= 0 || amount > MaxAmount {
		return fmt.Errorf("%w: %s of %d (must be 1 to %d)", ErrInvalidAmount, what, amount, MaxAmount)
	}
	return nil
}

// partyName names a settle-up party in an error.
func partyName(p game.PlayerID) string {
	if p == Bank {
		return "the bank"
	}
	return "player " + p.String()
}
