package table

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// This file is corrections: a mistake at the table is put right by what is
// added to the history, never by removing anything. The host takes back
// the last action of the latest round, reverses the latest round, or
// reverses a buy-in, cash-out or payment; each is an audit event with the
// reason given, and the audit replays it.

// actionVoid is the kind of a stored round action that takes back an
// earlier one (db.Action.Voids); the engine never sees it.
const actionVoid game.ActionKind = "void"

// maxReason is the longest reason a correction keeps, in characters.
const maxReason = 500

// CorrectionInput is what a correction may say: why.
type CorrectionInput struct {
	Reason string `json:"reason,omitempty"`
}

// reason is the input's reason, trimmed, or an error naming what is wrong
// (too long, or holding what no phone could show: control characters).
func (in CorrectionInput) reason() (string, error) {
	if strings.TrimSpace(in.Reason) == "" {
		return "", nil
	}
	return cleanText(in.Reason, "a reason", maxReason)
}

// correctRef is what a correction reads of the journal besides the table
// (db.Batch.JournalCorrectable), in the write's first round trip.
type correctRef struct {
	entry int64 // the ledger event of a movement of money to reverse
	round int   // the round whose entries to read
}

// correctionWrite runs a correction at the caller's table, reading the
// journal entries ref names in the write's first round trip.
func (s *Service) correctionWrite(ctx context.Context, a Auth, k Key, ref correctRef, in CorrectionInput,
	do func(w *writer, reason string) (any, error)) (Reply, error) {
	reason, err := in.reason()
	if err != nil {
		return Reply{}, err
	}
	var journal []db.JournalEntry
	t := tokenTarget(a)
	t.also = func(b *db.Batch) {
		journal = nil
		b.JournalCorrectable(a.TableID, ref.entry, ref.round, &journal)
	}
	return s.writeAt(ctx, t, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("correct the history"); err != nil {
			return nil, err
		}
		w.journal = journal
		return do(w, reason)
	})
}

// TakeBack takes back the last action standing of round number, the
// table's latest: the round is replayed without it. Taking back the action
// that ended the round opens the round again and reverses its settlement.
func (s *Service) TakeBack(ctx context.Context, a Auth, k Key, number int, in CorrectionInput) (Reply, error) {
	return s.correctionWrite(ctx, a, k, correctRef{round: number}, in, func(w *writer, reason string) (any, error) {
		return w.takeBack(number, reason)
	})
}

func (w *writer) takeBack(number int, reason string) (RoundView, error) {
	if err := w.openTable(); err != nil {
		return RoundView{}, err
	}
	pr, err := w.st.latestRound(number, "its actions taken back")
	if err != nil {
		return RoundView{}, err
	}
	standing, err := standingActions(pr.actions)
	if err != nil {
		return RoundView{}, fmt.Errorf("%w: round %d: %w", ErrHistoryBroken, number, err)
	}
	if len(standing) == 0 {
		return RoundView{}, fmt.Errorf("%w: round %d has no action left to take back; to undo the round itself, reverse it", ErrNotCorrectable, number)
	}
	last := standing[len(standing)-1]
	seq := len(pr.actions) + 1
	byHost := w.who.byHost(last.Action.Player)
	ev, err := w.emit("round.voided", roundVoided{Round: number, Seq: seq, Voids: last.Seq, Player: last.Action.Player,
		Reason: reason, Reopened: pr.row.Status == db.RoundSettled, ByHost: &byHost})
	if err != nil {
		return RoundView{}, err
	}
	stored := db.Action{Round: number, Seq: seq, Action: game.Action{Player: last.Action.Player, Kind: actionVoid},
		EventSeq: ev.Seq, Voids: last.Seq, Reason: reason, ByHost: &byHost}
	if pr.row.Status == db.RoundSettled {
		if err := w.st.sameGameSeats(pr); err != nil {
			return RoundView{}, err
		}
		if err := w.reverseEntries(w.roundEntries(number, ledger.KindRoundSettle), reason); err != nil {
			return RoundView{}, err
		}
		w.history.Reopens = number
		pr.row.Status = db.RoundOpen
	}
	w.history.Round = number
	w.history.Actions = append(w.history.Actions, stored)
	pr.actions = append(pr.actions, stored)
	if err := pr.replay(w.st.rules()); err != nil {
		return RoundView{}, fmt.Errorf("%w: round %d: %w", ErrHistoryBroken, number, err)
	}
	return pr.liveView(w.who), nil
}

// roundVoided is the payload of round.voided: a correction (action seq of
// the round) took back action voids of player, and, when that action had
// ended the round, opened it again. ByHost is as a round.action's: the
// host's phone, the only one that corrects, took back an action of a
// player other than its own seat (nil in events recorded before it was
// kept).
type roundVoided struct {
	Player   game.PlayerID `json:"player"`
	Reason   string        `json:"reason,omitempty"`
	Reopened bool          `json:"reopened,omitempty"`
	Round    int           `json:"round"`
	Seq      int           `json:"seq"`
	Voids    int           `json:"voids"`
	ByHost   *bool         `json:"byHost,omitempty"`
}

// ReverseRound reverses round number, the table's latest, whether it is
// being played or settled: each of its movements of money is reversed and
// the game is as it was before the round, which may then be played again
// (as the next round).
func (s *Service) ReverseRound(ctx context.Context, a Auth, k Key, number int, in CorrectionInput) (Reply, error) {
	return s.correctionWrite(ctx, a, k, correctRef{round: number}, in, func(w *writer, reason string) (any, error) {
		return w.reverseRound(number, reason)
	})
}

func (w *writer) reverseRound(number int, reason string) (RoundView, error) {
	if err := w.openTable(); err != nil {
		return RoundView{}, err
	}
	pr, err := w.st.latestRound(number, "reversed")
	if err != nil {
		return RoundView{}, err
	}
	if err := w.st.sameGameSeats(pr); err != nil {
		return RoundView{}, err
	}
	if _, err := w.emit("round.reversed", roundReversed{Round: number, Reason: reason}); err != nil {
		return RoundView{}, err
	}
	entries := w.roundEntries(number, ledger.KindAnte, ledger.KindRoundSettle)
	slices.Reverse(entries) // the settlement first, then the antes
	if err := w.reverseEntries(entries, reason); err != nil {
		return RoundView{}, err
	}
	w.history.Voids = number
	pr.row.Status = db.RoundVoid
	return reversedView(pr), nil
}

// roundReversed is the payload of round.reversed.
type roundReversed struct {
	Reason string `json:"reason,omitempty"`
	Round  int    `json:"round"`
}

// latestRound is round number when it is the table's latest and not
// reversed: only it may be corrected (what was done since stands on it).
func (st *tableState) latestRound(number int, what string) (*playedRound, error) {
	if err := st.plays(db.GameDice); err != nil {
		return nil, err
	}
	pr := st.dice().last
	switch {
	case pr == nil || number < 1 || number > pr.row.Number:
		return nil, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, st.row.ID, number)
	case number != pr.row.Number:
		return nil, fmt.Errorf("%w: only the latest round (%d) can be %s; round %d has rounds after it", ErrNotCorrectable,
			pr.row.Number, what, number)
	case pr.row.Status == db.RoundVoid:
		return nil, fmt.Errorf("%w: round %d was reversed already", ErrNotCorrectable, number)
	}
	return pr, nil
}

// sameGameSeats refuses to put a game of rounds back to before round pr
// when players have joined or left since (once the game was won): the game
// would be under way again with players it did not begin with, and could
// neither go on nor let anyone join or leave.
func (st *tableState) sameGameSeats(pr *playedRound) error {
	g := pr.row.Game
	if st.rules().Goal.Kind == game.GoalRound || (g.Rounds == 0 && len(g.Playoff) == 0) || slices.Equal(st.seats(), g.Seats) {
		return nil
	}
	return fmt.Errorf("%w: players joined or left since round %d, and a game of rounds keeps the players it began with; "+
		"it can be corrected only with the players of round %d seated as they were", ErrNotCorrectable, pr.row.Number, pr.row.Number)
}

// How ReverseEntry takes each kind of movement (reversalOf).
const (
	reversedNever    = iota // not on its own: a bounty, a close-out, a roll-over, a reversal, an old round's payout
	reversedOpen            // at an open table (a buy-in)
	reversedAlways          // at a closed table too (a cash-out, a payment)
	reversedWithGame        // with the round or game that posted it (tableGame.ownMoney)
)

// reversalOf says how ReverseEntry takes a movement of kind k; every kind
// of ledger.Kinds is named here (a test checks it).
func reversalOf(k ledger.Kind) int {
	switch k {
	case ledger.KindDeposit:
		return reversedOpen
	case ledger.KindWithdrawal, ledger.KindSettlement:
		return reversedAlways
	case ledger.KindAnte, ledger.KindRoundSettle:
		return reversedWithGame
	case ledger.KindBounty, ledger.KindCloseOut, ledger.KindNight, ledger.KindReversal,
		ledger.KindPayout, ledger.KindSplit, ledger.KindCarry, ledger.KindPerPoint:
		return reversedNever
	}
	return -1
}

// ReverseEntry reverses the buy-in, cash-out or payment that ledger event
// seq recorded, with a movement of the same amounts the other way. Like a
// cash-out or a payment, its reversal is taken at a closed table too.
func (s *Service) ReverseEntry(ctx context.Context, a Auth, k Key, seq int64, in CorrectionInput) (Reply, error) {
	return s.correctionWrite(ctx, a, k, correctRef{entry: seq}, in, func(w *writer, reason string) (any, error) {
		var e *db.JournalEntry
		for i := range w.journal {
			if w.journal[i].EventSeq == seq && seq > 0 {
				e = &w.journal[i]
			}
		}
		if e == nil {
			return nil, fmt.Errorf("%w: no movement of money of table %d was recorded by event %d", ErrNotFound, w.st.row.ID, seq)
		}
		switch reversalOf(ledger.Kind(e.Kind)) {
		case reversedOpen:
			if err := w.openTable(); err != nil {
				return nil, err
			}
		case reversedAlways:
		case reversedWithGame:
			return nil, w.st.game.ownMoney(*e)
		default:
			return nil, fmt.Errorf("%w: event %d (%s) is not a buy-in, cash-out or payment; only those are reversed on their own", ErrNotCorrectable, seq, e.Kind)
		}
		if by, ok := ledger.Reversed(w.journal)[seq]; ok {
			return nil, fmt.Errorf("%w: event %d's movement of money was reversed already, by event %d", ErrNotCorrectable, seq, by)
		}
		if err := w.reverseEntries([]db.JournalEntry{*e}, reason); err != nil {
			return nil, err
		}
		return balancesView(w.st.row, ledger.Sheet(w.st.row.Currency, w.books().Accounts(), w.st.players)), nil
	})
}

// roundEntries are round number's journal entries of the given kinds, in
// the order they were posted.
func (w *writer) roundEntries(number int, kinds ...ledger.Kind) []db.JournalEntry {
	var out []db.JournalEntry
	for _, e := range w.journal {
		if e.Round == number && slices.Contains(kinds, ledger.Kind(e.Kind)) {
			out = append(out, e)
		}
	}
	return out
}

// reverseEntries posts the reversal of each entry, in order; an entry
// reversed already is left as it is (a round's settlement reversed when its
// last action was taken back), and one that cannot be reversed on these
// books (a player at a no-overdraft table who no longer has the money)
// refuses the whole correction.
func (w *writer) reverseEntries(entries []db.JournalEntry, reason string) error {
	reversed := ledger.Reversed(w.journal)
	for _, e := range entries {
		if _, ok := reversed[e.EventSeq]; ok || len(e.Postings) == 0 {
			continue // undone already, or moved nothing (a pot carried)
		}
		if err := w.post(ledger.Reversal(e, reason)); err != nil {
			return err
		}
	}
	return nil
}

// reversedView is a reversed round as anyone may see it: its cups are
// lifted, however far it was played.
func reversedView(pr *playedRound) RoundView {
	state := pr.round.State()
	var res *game.Result
	if r, over := pr.round.Result(); over {
		res = &r
	}
	return roundView(pr.row.Number, len(pr.actions), statusReversed, state, res)
}
