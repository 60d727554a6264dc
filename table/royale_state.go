package table

import (
	"fmt"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
)

// This file rebuilds a Battleship Royale game from what is stored (its
// setup and every accepted action, replayed through the engine) and shows
// it as each token may see it.

// royaleGame is a stored game rebuilt by the engine.
type royaleGame struct {
	row     db.RoyaleGame
	game    *royale.Game
	actions []db.RoyaleAction
}

// replayRoyale rebuilds a game from its setup and actions; one that no
// longer replays is ErrHistoryBroken.
func replayRoyale(g db.RoyaleGame, actions []db.RoyaleAction) (*royaleGame, error) {
	eng, err := royale.NewGame(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("%w: game %d does not start again: %w", ErrHistoryBroken, g.Number, err)
	}
	for _, a := range actions {
		if _, err := eng.Apply(a.Action); err != nil {
			return nil, fmt.Errorf("%w: game %d's action %d does not replay: %w", ErrHistoryBroken, g.Number, a.Seq, err)
		}
	}
	return &royaleGame{row: g, game: eng, actions: actions}, nil
}

// resumeRoyale rebuilds a Battleship Royale table's latest game.
func (st *tableState) resumeRoyale(latest db.RoyaleGame, actions []db.RoyaleAction) error {
	if latest.Number == 0 {
		return nil
	}
	g, err := replayRoyale(latest, actions)
	st.royale = g
	return err
}

// royalePlaying is the Battleship Royale game being played, or nil.
func (st *tableState) royalePlaying() *royaleGame {
	if st.royale != nil && st.royale.game.Phase() != royale.PhaseOver {
		return st.royale
	}
	return nil
}

// royaleTable refuses the Battleship Royale requests of a dice table.
func (st *tableState) royaleTable() error {
	if st.row.Royale == nil {
		return fmt.Errorf("%w: table %d plays the dice games, not Battleship Royale", ErrWrongGame, st.row.ID)
	}
	return nil
}

// diceTable refuses the dice requests of a Battleship Royale table.
func (st *tableState) diceTable() error {
	if st.row.Royale != nil {
		return fmt.Errorf("%w: table %d plays Battleship Royale, which has games, not rounds", ErrWrongGame, st.row.ID)
	}
	return nil
}

// royaleGameAt is game number of the table: the latest, the only one a
// write acts on.
func (st *tableState) royaleGameAt(number int) (*royaleGame, error) {
	if err := st.royaleTable(); err != nil {
		return nil, err
	}
	g := st.royale
	if g == nil || g.row.Number != number {
		return nil, fmt.Errorf("%w: table %d has no game %d being played", ErrNotFound, st.row.ID, number)
	}
	return g, nil
}

// RoyaleView is a Battleship Royale game as one token may see it: what the
// whole table sees, and a player's own hand, fleet and salt. Held is what
// the host sees of the players it keeps a fleet for (below).
type RoyaleView struct {
	Number int `json:"number"`
	royale.View
	Held []HeldFleet `json:"held,omitempty"`
}

// HeldFleet is the hand or fleet of a player without a phone, which the
// host keeps for them.
type HeldFleet struct {
	Player game.PlayerID      `json:"player"`
	Hand   royale.Fleet       `json:"hand,omitempty"`
	Fleet  []royale.FleetCard `json:"fleet,omitempty"`
}

// view is the game as who may see it. A player sees their own hand and
// fleet; the auditor sees what the whole table sees. The host sees, besides,
// the hand and fleet of a player it holds: one whose seat no phone has
// claimed (the host chooses their fleet for them, and the app says so
// first), or whose fleet the host chose. Nobody sees another's fleet
// otherwise, the host included, until its cards sink or the game ends.
func (st *tableState) royaleView(g *royaleGame, who Principal) RoyaleView {
	v := RoyaleView{Number: g.row.Number, View: g.game.View(who.viewer())}
	if who.Role != RoleHost || g.game.Phase() == royale.PhaseOver {
		return v
	}
	for _, p := range g.row.Setup.Players {
		if !st.holds(g, p) {
			continue
		}
		own := g.game.View(p)
		v.Held = append(v.Held, HeldFleet{Player: p, Hand: own.Hand, Fleet: own.Fleet})
	}
	return v
}

// holds says whether the host holds player's fleet in game g: the seat has
// no phone, or the host chose the fleet. A seat cannot be freed while its
// player is in a game (Release), so a fleet a phone chose never becomes
// the host's to see.
func (st *tableState) holds(g *royaleGame, player game.PlayerID) bool {
	for _, a := range g.actions {
		if a.Action.Player == player && a.ByHost && (a.Action.Kind == royale.ActKeep || a.Action.Kind == royale.ActEnter) {
			return true
		}
	}
	p, err := st.player(player)
	return err == nil && p.ClaimedAt == nil
}

// inRoyaleGame refuses a change to player's seat while they play a game.
func (st *tableState) inRoyaleGame(player game.PlayerID, what string) error {
	g := st.royalePlaying()
	if g == nil {
		return nil
	}
	for _, p := range g.row.Setup.Players {
		if p == player {
			return fmt.Errorf("%w: player %d is in game %d: %s once it ends or the host abandons it", ErrRoundPlaying, player, g.row.Number, what)
		}
	}
	return nil
}
