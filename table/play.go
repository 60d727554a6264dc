package table

import (
	"fmt"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// tableGame is the seam between the service and the game a table plays:
// everything that differs from one game to another is one of its methods.
// The table row names its game (db.Table.Game, migration 13); gameOf
// chooses the implementation once per request, as the table's state is
// rebuilt, and nothing else in the package asks which game a table plays.
// docs/adding-a-game.md says what adding a game takes.
type tableGame interface {
	// resume rebuilds the game's latest state from what a request read;
	// stored says whether the state kept from this instance's last write
	// is the one l, read at the same chain head, holds (cache.go).
	resume(l db.Loaded) error
	stored(l db.Loaded) bool
	// refusal is how the table is described to a request of another
	// game's ("plays Battleship Royale, which has games, not rounds").
	refusal() string
	// underway refuses to seat or unseat anyone while the game keeps the
	// players it began with.
	underway() error
	// leaving refuses player p's leaving the table while they play;
	// freeing refuses freeing their seat; claiming refuses a phone's
	// claiming it.
	leaving(p db.Player) error
	freeing(p db.Player) error
	claiming(p db.Player) error
	// closing refuses closing the table while a game is played; played are
	// then the players of the last round or game, in the order the pot
	// goes back to them (nil when none was played).
	closing() error
	played() []game.PlayerID
	// view adds the game's part to the table's view.
	view(v *TableView)
	// ownMoney is the refusal to reverse on its own a movement of money
	// (an ante or a settlement) that the game posted.
	ownMoney(e db.JournalEntry) error
	// auditReads queues what the audit reads of the game's history, and
	// audit checks it; checkpointed says whether a sealed checkpoint may
	// vouch for the game's history (auditfast.go).
	auditReads(b *db.Batch, h *auditHistory)
	audit(au *audit, h *auditHistory, q AuditQuery) *replayed
	checkpointed() bool
}

// gameOf is the implementation of the game the table plays. A game the
// service does not know is an error of the stored history.
func gameOf(st *tableState) (tableGame, error) {
	switch st.row.Game {
	case db.GameDice:
		return &diceGame{st: st, diceState: diceState{rules: st.rules()}}, nil
	case db.GameRoyale:
		return &royaleTable{st: st}, nil
	case db.GameCrew:
		return &crewGame{st: st}, nil
	}
	return nil, fmt.Errorf("%w: table %d plays %q, a game this server does not know", ErrHistoryBroken, st.row.ID, st.row.Game)
}

// newState is a table's state before its game is resumed.
func newState(row db.Table, players []db.Player, accounts []db.Account) (*tableState, error) {
	st := &tableState{row: row, players: players, accounts: accounts}
	var err error
	st.game, err = gameOf(st)
	return st, err
}

// dice is a dice table's game state; at a table of another game, or one
// whose game is not yet known, it is empty (no round played).
func (st *tableState) dice() *diceState {
	if d, ok := st.game.(*diceGame); ok {
		return &d.diceState
	}
	return &diceState{rules: st.rules()}
}

// royale is a Battleship Royale table's latest game; nil before its
// first, and at a table of another game.
func (st *tableState) royale() *royaleGame {
	if r, ok := st.game.(*royaleTable); ok {
		return r.latest
	}
	return nil
}

// plays refuses a request of another game than the table's.
func (st *tableState) plays(g string) error {
	if st.row.Game != g {
		return fmt.Errorf("%w: table %d %s", ErrWrongGame, st.row.ID, st.game.refusal())
	}
	return nil
}
