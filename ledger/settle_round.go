package ledger

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// RoundSettlement is a whole round's money outcome, as the API maps it from
// the engine's round result. Antes were posted when the round started.
type RoundSettlement struct {
	TableID int64
	RoundID int64
	// Winners share the pot equally, in whole units; one winner takes it
	// all. The indivisible remainder stays in the pot. No winners means
	// the whole pot carries to the next round.
	Winners []int64
	// PerPoint are the per-point payments of a per-point payoff.
	PerPoint []Payment
	// Memo says why, for people reading the statement ("one tie, all tie").
	Memo string
}

// RoundSettle records a round's settlement (pot payouts, the carry-over and
// per-point payments) as ONE journal transaction of kind round_settle, so a
// round's money moves all at once or not at all. Its metadata records
// "pot", "share", "remainder", "carried" (what stays in the pot for the
// next round) and "winners". A round that moves no money (everything
// carries) is still recorded, with no postings.
func RoundSettle(ctx context.Context, tx pgx.Tx, s RoundSettlement) (Transaction, error) {
	if len(s.Winners) > 0 {
		if err := checkPlayers(s.Winners); err != nil {
			return Transaction{}, err
		}
	}
	if len(s.PerPoint) > 0 {
		if err := checkPayments(s.PerPoint, false); err != nil {
			return Transaction{}, err
		}
	}
	refs := append(refsOf(s.Winners), potRef)
	refs = append(refs, paymentRefs(s.PerPoint)...)
	b, err := lockBooks(ctx, tx, s.TableID, false, refs...)
	if err != nil {
		return Transaction{}, err
	}
	pot := b.balance(potRef)
	meta := map[string]any{"pot": pot, "carried": pot, "winners": []int64{}}
	var lines []line
	if len(s.Winners) > 0 {
		lines, meta = shareLines(pot, s.Winners)
		meta["carried"] = meta["remainder"]
	}
	lines = append(lines, paymentLines(s.PerPoint)...)
	round := s.RoundID
	return b.write(ctx, tx, entry{kind: KindRoundSettle, roundID: &round, memo: s.Memo, meta: meta, lines: lines})
}

// CloseOut empties the pot of a table that is closing into the players of
// its last round, in play order (RULES.md §6): each gets pot/n, and the
// leftover units go one each to the first players in that order. An empty
// pot records nothing and returns a zero Transaction.
func CloseOut(ctx context.Context, tx pgx.Tx, tableID int64, playOrder []int64) (Transaction, error) {
	if len(playOrder) > 0 {
		if err := checkPlayers(playOrder); err != nil {
			return Transaction{}, err
		}
	}
	b, err := lockBooks(ctx, tx, tableID, false, append(refsOf(playOrder), potRef)...)
	if err != nil {
		return Transaction{}, err
	}
	pot := b.balance(potRef)
	if pot == 0 {
		return Transaction{}, nil
	}
	if len(playOrder) == 0 {
		return Transaction{}, fmt.Errorf("%w: the pot holds %d but no players were given to return it to", ErrInvalidAmount, pot)
	}
	shares := game.Shares(pot, len(playOrder))
	lines := []line{{potRef, -pot}}
	for i, p := range playOrder {
		if shares[i] > 0 {
			lines = append(lines, line{playerRef(p), shares[i]})
		}
	}
	meta := map[string]any{"pot": pot, "players": playOrder, "shares": shares}
	return b.write(ctx, tx, entry{kind: KindCloseOut, meta: meta, lines: lines})
}

// CloseTable closes a table: the pot goes to the players of the last round
// (CloseOut), the table is marked closed and a table.closed event is
// appended, all in the caller's transaction. Afterwards only withdrawals and
// settlement payments are accepted.
func CloseTable(ctx context.Context, tx pgx.Tx, tableID int64, playOrder []int64) (Transaction, error) {
	t, err := CloseOut(ctx, tx, tableID, playOrder)
	if err != nil {
		return Transaction{}, err
	}
	if _, err := db.TableClose(ctx, tx, tableID); err != nil {
		return Transaction{}, fmt.Errorf("close table %d: %w", tableID, err)
	}
	if _, err := appendEvent(ctx, tx, tableID, "table.closed", map[string]any{"closeOut": t.ID}); err != nil {
		return Transaction{}, err
	}
	return t, nil
}
