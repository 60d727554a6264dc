package ledger

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
)

// PlayerAmount is an amount for one player: an ante, a payout share.
type PlayerAmount struct {
	PlayerID int64 `json:"playerId"`
	Amount   int64 `json:"amount"`
}

// Payment is money moving from one player to another, such as a per-point
// payment or, with Bank on either side, a settlement with the bank.
type Payment struct {
	From   int64 `json:"from"`
	To     int64 `json:"to"`
	Amount int64 `json:"amount"`
}

// MaxAmount is the largest amount one movement line accepts. It keeps the
// sums of many postings far from int64 overflow while allowing any real
// stake (10^15 cents is ten trillion dollars).
const MaxAmount int64 = 1_000_000_000_000_000

// MaxBalance bounds every account of a table, the pot and the bank
// included, on both sides of zero: a hundred of the largest movements. With
// at most a few dozen accounts per table, any sum of them (the audit's
// total, a settle-up) stays far inside int64, and no balance can reach the
// limit of PostgreSQL's bigint, which would turn every later request on the
// account into an error.
const MaxBalance int64 = 100 * MaxAmount

// checkAmount refuses amounts outside 1..MaxAmount.
func checkAmount(amount int64, what string) error {
	if amount <= 0 || amount > MaxAmount {
		return fmt.Errorf("%w: %s of %d (must be 1 to %d)", ErrInvalidAmount, what, amount, MaxAmount)
	}
	return nil
}

// Ante moves each player's ante into the pot: player −X, pot +X. Every
// amount must be positive and each player named once.
func Ante(ctx context.Context, tx pgx.Tx, tableID int64, roundID *int64, antes []PlayerAmount) (Transaction, error) {
	if err := checkPlayerAmounts(antes); err != nil {
		return Transaction{}, err
	}
	refs := []db.AccountRef{potRef}
	var lines []line
	var total int64
	for _, a := range antes {
		refs = append(refs, playerRef(a.PlayerID))
		lines = append(lines, line{playerRef(a.PlayerID), -a.Amount})
		total += a.Amount
	}
	lines = append(lines, line{potRef, total})
	b, err := lockBooks(ctx, tx, tableID, false, refs...)
	if err != nil {
		return Transaction{}, err
	}
	return b.write(ctx, tx, entry{kind: KindAnte, roundID: roundID, lines: lines})
}

// Payout gives the whole pot to one winner: pot −P, winner +P.
func Payout(ctx context.Context, tx pgx.Tx, tableID int64, roundID *int64, winner int64) (Transaction, error) {
	b, err := lockBooks(ctx, tx, tableID, false, potRef, playerRef(winner))
	if err != nil {
		return Transaction{}, err
	}
	pot := b.balance(potRef)
	if pot <= 0 {
		return Transaction{}, fmt.Errorf("%w: nothing to pay player %d at table %d", ErrPotEmpty, winner, tableID)
	}
	return b.write(ctx, tx, entry{kind: KindPayout, roundID: roundID,
		meta:  map[string]any{"pot": pot, "winners": []int64{winner}},
		lines: []line{{potRef, -pot}, {playerRef(winner), pot}}})
}

// Split divides the pot equally among the tied winners in whole units. The
// indivisible remainder stays in the pot and carries to the next round
// (RULES.md §2); it is recorded in the transaction's metadata as
// "remainder", next to "pot" and "share".
func Split(ctx context.Context, tx pgx.Tx, tableID int64, roundID *int64, winners []int64) (Transaction, error) {
	if err := checkPlayers(winners); err != nil {
		return Transaction{}, err
	}
	b, err := lockBooks(ctx, tx, tableID, false, append(refsOf(winners), potRef)...)
	if err != nil {
		return Transaction{}, err
	}
	lines, meta := shareLines(b.balance(potRef), winners)
	if len(lines) == 0 {
		return Transaction{}, fmt.Errorf("%w: the pot holds %d, too little to split among %d", ErrPotEmpty, b.balance(potRef), len(winners))
	}
	return b.write(ctx, tx, entry{kind: KindSplit, roundID: roundID, meta: meta, lines: lines})
}

// shareLines pays each winner pot/len(winners) from the pot and says in
// meta what was shared and what remains.
func shareLines(pot int64, winners []int64) ([]line, map[string]any) {
	share := pot / int64(len(winners))
	remainder := pot - share*int64(len(winners))
	meta := map[string]any{"pot": pot, "share": share, "remainder": remainder, "winners": winners}
	if share <= 0 {
		return nil, meta
	}
	lines := []line{{potRef, -share * int64(len(winners))}}
	for _, w := range winners {
		lines = append(lines, line{playerRef(w), share})
	}
	return lines, meta
}

// Carry records that nobody won the round and the pot carries into the next
// one. No money moves, so it is a journal transaction of kind carry with no
// postings: a marker in the books (the only kind allowed to be empty,
// besides an empty round settlement) whose metadata holds the amount
// carried and the reason, plus its audit event.
func Carry(ctx context.Context, tx pgx.Tx, tableID int64, roundID *int64, reason string) (Transaction, error) {
	b, err := lockBooks(ctx, tx, tableID, false, potRef)
	if err != nil {
		return Transaction{}, err
	}
	return b.write(ctx, tx, entry{kind: KindCarry, roundID: roundID, memo: reason,
		meta: map[string]any{"carried": b.balance(potRef)}})
}

// PerPoint records per-point payments between players (RULES.md §6): each
// payer owes the winner stake × margin, so payer −X, payee +X on the books.
func PerPoint(ctx context.Context, tx pgx.Tx, tableID int64, roundID *int64, payments []Payment) (Transaction, error) {
	if err := checkPayments(payments, false); err != nil {
		return Transaction{}, err
	}
	b, err := lockBooks(ctx, tx, tableID, false, paymentRefs(payments)...)
	if err != nil {
		return Transaction{}, err
	}
	return b.write(ctx, tx, entry{kind: KindPerPoint, roundID: roundID, lines: paymentLines(payments)})
}

// Deposit records a buy-in: the player hands the bank X in cash and the
// table owes them X: player +X, world −X.
func Deposit(ctx context.Context, tx pgx.Tx, tableID, playerID, amount int64) (Transaction, error) {
	if err := checkAmount(amount, "deposit"); err != nil {
		return Transaction{}, err
	}
	b, err := lockBooks(ctx, tx, tableID, false, playerRef(playerID), worldRef)
	if err != nil {
		return Transaction{}, err
	}
	return b.write(ctx, tx, entry{kind: KindDeposit, lines: []line{{playerRef(playerID), amount}, {worldRef, -amount}}})
}

// Withdraw records a cash-out: the bank hands the player X: player −X,
// world +X. It is allowed at a closed table, where settling up happens.
func Withdraw(ctx context.Context, tx pgx.Tx, tableID, playerID, amount int64) (Transaction, error) {
	if err := checkAmount(amount, "withdrawal"); err != nil {
		return Transaction{}, err
	}
	b, err := lockBooks(ctx, tx, tableID, true, playerRef(playerID), worldRef)
	if err != nil {
		return Transaction{}, err
	}
	return b.write(ctx, tx, entry{kind: KindWithdrawal, lines: []line{{playerRef(playerID), -amount}, {worldRef, amount}}})
}

// SettlementPayment records that from paid to X in cash, away from the
// table: from +X (they owe X less), to −X (they are owed X less). Either
// side may be Bank. It is allowed at a closed table.
func SettlementPayment(ctx context.Context, tx pgx.Tx, tableID, from, to, amount int64) (Transaction, error) {
	p := Payment{From: from, To: to, Amount: amount}
	if err := checkPayments([]Payment{p}, true); err != nil {
		return Transaction{}, err
	}
	b, err := lockBooks(ctx, tx, tableID, true, partyRef(from), partyRef(to))
	if err != nil {
		return Transaction{}, err
	}
	return b.write(ctx, tx, entry{kind: KindSettlement,
		lines: []line{{partyRef(from), amount}, {partyRef(to), -amount}}})
}

// checkPlayerAmounts refuses empty lists, repeated players and amounts that
// are not positive.
func checkPlayerAmounts(amounts []PlayerAmount) error {
	ids := make([]int64, len(amounts))
	for i, a := range amounts {
		if err := checkAmount(a.Amount, fmt.Sprintf("amount for player %d", a.PlayerID)); err != nil {
			return err
		}
		ids[i] = a.PlayerID
	}
	return checkPlayers(ids)
}

// checkPlayers refuses an empty list or a player named twice.
func checkPlayers(ids []int64) error {
	if len(ids) == 0 {
		return fmt.Errorf("%w: no players", ErrInvalidAmount)
	}
	sorted := slices.Sorted(slices.Values(ids))
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return fmt.Errorf("%w: player %d named twice", ErrInvalidAmount, sorted[i])
		}
	}
	return nil
}

// checkPayments refuses non-positive amounts and self-payments; the bank
// may take part only in settlement payments.
func checkPayments(payments []Payment, bankAllowed bool) error {
	if len(payments) == 0 {
		return fmt.Errorf("%w: no payments", ErrInvalidAmount)
	}
	for _, p := range payments {
		switch {
		case checkAmount(p.Amount, "payment") != nil:
			return fmt.Errorf("from %d to %d: %w", p.From, p.To, checkAmount(p.Amount, "payment"))
		case p.From == p.To:
			return fmt.Errorf("%w: player %d cannot pay themselves", ErrInvalidAmount, p.From)
		case !bankAllowed && (p.From == Bank || p.To == Bank):
			return fmt.Errorf("%w: the bank takes no part in game payments", ErrInvalidAmount)
		}
	}
	return nil
}

// paymentRefs lists the accounts payments touch.
func paymentRefs(payments []Payment) []db.AccountRef {
	var refs []db.AccountRef
	for _, p := range payments {
		refs = append(refs, playerRef(p.From), playerRef(p.To))
	}
	return refs
}

// paymentLines turns game payments into lines: payer −X, payee +X.
func paymentLines(payments []Payment) []line {
	var lines []line
	for _, p := range payments {
		lines = append(lines, line{playerRef(p.From), -p.Amount}, line{playerRef(p.To), p.Amount})
	}
	return lines
}

// refsOf names the accounts of players.
func refsOf(players []int64) []db.AccountRef {
	refs := make([]db.AccountRef, len(players))
	for i, p := range players {
		refs[i] = playerRef(p)
	}
	return refs
}
