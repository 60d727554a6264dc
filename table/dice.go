package table

import (
	"fmt"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// diceGame is the dice games (docs/rules.md) as a table plays them: rounds
// played one after another, each resumed from the game state stored with
// it (state.go) and recorded action by action (record.go).
type diceGame struct {
	st *tableState
	diceState
	// what the audit reads of the rounds (auditReads)
	rounds  []db.Round
	actions []db.Action
	turns   []db.Turn
}

func (d *diceGame) resume(l db.Loaded) error { return d.diceState.resume(l.Latest, l.Actions) }

// stored: the latest round's actions, which a write reads whatever it
// keeps, are the ones the kept round was played from.
func (d *diceGame) stored(l db.Loaded) bool {
	var kept []db.Action
	if d.last != nil {
		kept = d.last.actions
	}
	return sameActions(kept, l.Actions)
}

func (d *diceGame) refusal() string { return "plays the dice games, not Battleship Royale" }

// underway refuses to seat or unseat anyone while the table's game of
// rounds is being played: from its first round until it is won, the game
// keeps the players it began with.
func (d *diceGame) underway() error {
	if d.rules.Goal.Kind == game.GoalRound || d.game == nil || d.game.Over() ||
		(d.current() == nil && !d.game.Begun()) { // its only rounds were reversed
		return nil
	}
	return fmt.Errorf("%w: nobody joins or leaves a game of rounds once it has begun, since the totals would no longer compare; wait until it is won", ErrGameUnderway)
}

// leaving refuses anyone's leaving while a round is played.
func (d *diceGame) leaving(p db.Player) error {
	if cur := d.current(); cur != nil {
		return fmt.Errorf("%w: %s can leave once round %d is settled", ErrRoundPlaying, p.Name, cur.row.Number)
	}
	return nil
}

// freeing and claiming a seat are refused by nothing of the dice games.
func (d *diceGame) freeing(db.Player) error  { return nil }
func (d *diceGame) claiming(db.Player) error { return nil }

func (d *diceGame) closing() error {
	if cur := d.current(); cur != nil {
		return fmt.Errorf("%w: finish round %d before closing the table", ErrRoundPlaying, cur.row.Number)
	}
	return nil
}

// played are the players of the last round, in play order: the leftover
// units of the pot go one each from its first player.
func (d *diceGame) played() []game.PlayerID {
	if d.last == nil {
		return nil
	}
	return d.last.row.Setup.Players
}

// view adds the rounds played, the round being played and, at a game of
// rounds, the game's running totals.
func (d *diceGame) view(v *TableView) {
	if r := d.last; r != nil {
		v.RoundsPlayed = r.row.Number
		if r.row.Status == db.RoundOpen {
			v.CurrentRound, v.RoundsPlayed = r.row.Number, r.row.Number-1
		}
	}
	if d.rules.Goal.Kind != game.GoalRound && d.game != nil {
		gv := &GameView{Totals: d.game.Totals(), Over: d.game.Over(), Playoff: d.game.Playoff()}
		if res, ok := d.game.Result(); ok {
			gv.Winner = res.Winner
		}
		v.Game = gv
	}
}

func (d *diceGame) ownMoney(e db.JournalEntry) error {
	return fmt.Errorf("%w: event %d is round %d's money: reverse the round, or take back its last action", ErrNotCorrectable, e.EventSeq, e.Round)
}

// checkpointed: a sealed checkpoint's digest covers the rounds' rows.
func (d *diceGame) checkpointed() bool { return true }

// diceSetUp refuses a dice table Battleship Royale's options: its rules
// are the preset and options newTableRow made its ruleset of.
func diceSetUp(in NewTable, _ *db.NewTable) error {
	if _, given := valueOf(in.Royale); given {
		return fmt.Errorf("%w: royale options are for a Battleship Royale table (game royale)", ErrInvalid)
	}
	return nil
}

// valueOf is what p points to, and whether it points to anything.
func valueOf[T any](p *T) (T, bool) {
	if p == nil {
		var zero T
		return zero, false
	}
	return *p, true
}
