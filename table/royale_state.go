package table

import (
	"fmt"
	"slices"

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

// replayRoyale rebuilds a game from its setup and actions, under the rules
// it was set up with (royale.Game.Replay); one that no longer replays is
// ErrHistoryBroken. A hold is the table's, not the rules': the engine does
// not see it.
func replayRoyale(g db.RoyaleGame, actions []db.RoyaleAction) (*royaleGame, error) {
	eng, err := royale.NewGame(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("%w: game %d does not start again: %w", ErrHistoryBroken, g.Number, err)
	}
	for _, a := range actions {
		if a.Action.Kind == actHold {
			continue
		}
		if _, err := eng.Replay(a.Action); err != nil {
			return nil, fmt.Errorf("%w: game %d's action %d does not replay: %w", ErrHistoryBroken, g.Number, a.Seq, err)
		}
	}
	return &royaleGame{row: g, game: eng, actions: actions}, nil
}

// royaleTable is Battleship Royale (docs/royale.md) as a table plays it:
// games one after another, the latest rebuilt for a request
// (replayRoyale), each audited from its setup (royale_audit.go).
type royaleTable struct {
	st *tableState
	// latest is the table's latest game, when the request read it (and
	// there is one)
	latest *royaleGame
	// what the audit reads of the games (auditReads)
	games []db.RoyaleGame
	acts  []db.RoyaleAction
}

// resume rebuilds the table's latest game, when the request read it.
func (r *royaleTable) resume(l db.Loaded) error {
	if l.Game.Number == 0 {
		return nil
	}
	g, err := replayRoyale(l.Game, l.GameActions)
	r.latest = g
	return err
}

// stored: the latest game is the kept one, with as many actions as it was
// kept with, each of which reads (db.Batch.RoyaleLatestSince: its columns
// and body agree, as replaying it checks).
func (r *royaleTable) stored(l db.Loaded) bool {
	g := r.latest
	if g == nil {
		return l.Game.Number == 0
	}
	return l.Game.Number == g.row.Number && l.Game.EventSeq == g.row.EventSeq && l.GameActionCount == len(g.actions) &&
		l.GameUnread == 0
}

func (r *royaleTable) refusal() string { return "plays Battleship Royale, which has games, not rounds" }

// underway: players come and go between games, and sit out a game they
// do not play.
func (r *royaleTable) underway() error { return nil }

func (r *royaleTable) leaving(p db.Player) error { return r.st.inRoyaleGame(p.ID, "they can leave") }
func (r *royaleTable) freeing(p db.Player) error {
	return r.st.inRoyaleGame(p.ID, "their seat can be freed")
}
func (r *royaleTable) claiming(p db.Player) error {
	// The host has seen this seat's hand: a phone that claimed it now
	// would choose a fleet the host watches.
	if g := r.st.royalePlaying(); g != nil && g.holds(p.ID) {
		return fmt.Errorf("%w: the host holds %s's fleet in game %d (no phone); join as %s once the game ends", ErrRoundPlaying, p.Name, g.row.Number, p.Name)
	}
	return nil
}

func (r *royaleTable) closing() error {
	if g := r.st.royalePlaying(); g != nil {
		return fmt.Errorf("%w: finish or abandon game %d before closing the table", ErrRoundPlaying, g.row.Number)
	}
	return nil
}

// played are the players of the last game, in the order its rules hand
// money back.
func (r *royaleTable) played() []game.PlayerID {
	if r.latest == nil {
		return nil
	}
	return r.latest.row.Setup.ReturnOrder()
}

// view adds the options, the game being played and how many have ended.
func (r *royaleTable) view(v *TableView) {
	v.Royale = &RoyaleSummary{Options: *r.st.row.Royale}
	if g := r.latest; g != nil {
		v.Royale.Games = g.row.Number
		if g.game.Phase() != royale.PhaseOver {
			v.Royale.Current, v.Royale.Games = g.row.Number, g.row.Number-1
		}
	}
}

func (r *royaleTable) ownMoney(e db.JournalEntry) error {
	return fmt.Errorf("%w: event %d is a Battleship Royale game's money, which is not reversed on its own; "+
		"only buy-ins, cash-outs and payments are", ErrNotCorrectable, e.EventSeq)
}

// checkpointed: the games are replayed by every audit.
func (r *royaleTable) checkpointed() bool { return false }

// royaleSetUp checks a Battleship Royale table's options (the defaults
// where none are given) and puts them in its row.
func royaleSetUp(in NewTable, t *db.NewTable) error {
	if in.Preset != "" || in.Options != (game.Options{}) {
		return fmt.Errorf("%w: a Battleship Royale table has royale options, not a dice preset or dice options", ErrInvalid)
	}
	o, _ := valueOf(in.Royale)
	o = o.WithDefaults()
	if err := o.Check(); err != nil {
		return err
	}
	// A bounty is paid the moment a card sinks. A table where nobody may
	// go below zero would refuse the shot that sinks the card of a player
	// who cannot pay, and so tell the shooter which cell was that card's
	// last.
	if o.Bounty > 0 && in.NoOverdraft {
		return fmt.Errorf("%w: a bounty is paid as a card sinks, so it cannot be played where nobody may go below zero (noOverdraft): choose one", ErrInvalid)
	}
	t.Royale = &o
	return nil
}

// royalePlaying is the Battleship Royale game being played, or nil.
func (st *tableState) royalePlaying() *royaleGame {
	if g := st.royale(); g != nil && g.game.Phase() != royale.PhaseOver {
		return g
	}
	return nil
}

// royaleGameAt is game number of the table: the latest, the only one a
// write acts on.
func (st *tableState) royaleGameAt(number int) (*royaleGame, error) {
	if err := st.plays(db.GameRoyale); err != nil {
		return nil, err
	}
	g := st.royale()
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
	// Actions is how many actions the game has recorded, holds included:
	// a phone sends it back as an action's seen (seen.go).
	Actions int `json:"actions"`
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
// the hand and fleet of each player it holds (hold): a player without a
// phone, whose fleet the host chooses for them. Nobody sees another's fleet
// otherwise, the host included, until its cards sink or the game ends.
func (st *tableState) royaleView(g *royaleGame, who Principal) RoyaleView {
	v := RoyaleView{Number: g.row.Number, Actions: len(g.actions), View: g.game.View(who.viewer())}
	if who.Role != RoleHost || g.game.Phase() == royale.PhaseOver {
		return v
	}
	for _, p := range g.row.Setup.Players {
		if !g.holds(p) {
			continue
		}
		own := g.game.View(p)
		v.Held = append(v.Held, HeldFleet{Player: p, Hand: own.Hand, Fleet: own.Fleet})
	}
	return v
}

// actHold is the host taking a player's fleet into its hands: a player
// without a phone, whose fleet the host keeps or enters for them and then
// sees. It is recorded, and shown to the whole table, like an action, but
// it is the table's, not the rules': the engine never sees it.
const actHold royale.ActionKind = "hold"

// holds says whether the host holds player's fleet in game g.
func (g *royaleGame) holds(player game.PlayerID) bool {
	for _, a := range g.actions {
		if a.Action.Kind == actHold && a.Action.Player == player {
			return true
		}
	}
	return false
}

// hold checks that the host may take player's fleet: in the fleets phase,
// before the fleet is in, once, and only for a seat no phone holds (a
// seat cannot be freed while its player is in a game).
func (st *tableState) hold(g *royaleGame, player game.PlayerID) error {
	p, err := st.player(player)
	if err != nil {
		return err
	}
	switch {
	case !slices.Contains(g.row.Setup.Players, player):
		return fmt.Errorf("%w: %s does not play game %d", royale.ErrUnknownPlayer, p.Name, g.row.Number)
	case g.game.Phase() != royale.PhaseFleets:
		return fmt.Errorf("%w: the host holds a fleet only while the fleets are chosen", royale.ErrPhase)
	case g.holds(player):
		return fmt.Errorf("%w: the host holds %s's fleet already", ErrInvalid, p.Name)
	case p.Host:
		return fmt.Errorf("%w: %s's seat is the host's own: keep or enter that fleet as the player, with no hold", ErrInvalid, p.Name)
	case p.ClaimedAt != nil:
		return fmt.Errorf("%w: %s holds their seat on a phone: their fleet is theirs alone to choose and to see", ErrForbidden, p.Name)
	}
	for _, pv := range g.game.View(0).Players {
		if pv.Player == player && pv.Ready {
			return fmt.Errorf("%w: %s's fleet is chosen already", royale.ErrPhase, p.Name)
		}
	}
	return nil
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

// startedRoyale makes g, just started, the table's latest game.
func (st *tableState) startedRoyale(g *royaleGame) *royaleGame {
	if r, ok := st.game.(*royaleTable); ok {
		r.latest = g
	}
	return g
}
