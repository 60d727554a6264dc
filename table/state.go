package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// This file rebuilds a table from what is stored: the latest round resumed
// from its stored game state for requests, or every round replayed from
// the first for the audit and the history.

// tableState is a table as a request sees it: what every table has, and
// the game it plays (play.go), which keeps that game's own state.
type tableState struct {
	row      db.Table
	players  []db.Player
	accounts []db.Account
	game     tableGame
}

// diceState is a dice table's game as rebuilt from its rounds: the latest
// resumed from its stored game state for a request, or every round
// replayed from the first for the audit and the history.
type diceState struct {
	rules  game.Ruleset
	last   *playedRound   // the latest round, nil before round 1
	rounds []*playedRound // every round, only when replayed from the first
	// game is the table's game: after the latest round when it is settled,
	// waiting on it while it is played; nil before round 1.
	game *game.Game
}

// playedRound is a stored round rebuilt by the engine.
type playedRound struct {
	row     db.Round
	round   *game.Round
	actions []db.Action
	// gameResult is set, in a replay from the first round, on the round
	// that won a game of rounds.
	gameResult *game.GameResult
}

// rules are the table's rules.
func (st *tableState) rules() game.Ruleset { return st.row.Rules }

// current is the round being played, or nil.
func (st *diceState) current() *playedRound {
	if st.last != nil && st.last.row.Status == db.RoundOpen {
		return st.last
	}
	return nil
}

// resume rebuilds the game from the latest round: the game resumes from the
// state stored with the round, and the round is replayed from its actions;
// a settled round then moves the game on by its result.
func (st *diceState) resume(latest db.Round, actions []db.Action) error {
	if latest.Number == 0 {
		return nil
	}
	pr := &playedRound{row: latest, actions: actions}
	g, err := game.ResumeGame(st.rules, latest.Game)
	if err != nil {
		return fmt.Errorf("%w: round %d: stored game state: %w", ErrHistoryBroken, latest.Number, err)
	}
	st.game = g
	if err := st.play(pr); err != nil {
		return fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, latest.Number, err)
	}
	st.last = pr
	return nil
}

// replayAll rebuilds the table by replaying every round's actions through
// the engine from the first round on, for the audit and the history. A
// stored game state or setup that the replay does not reproduce is an
// error: the data was changed behind the engine's back.
func (st *diceState) replayAll(rounds []db.Round, actions []db.Action) error {
	byRound := map[int][]db.Action{}
	for _, a := range actions {
		byRound[a.Round] = append(byRound[a.Round], a)
	}
	for _, row := range rounds {
		pr := &playedRound{row: row, actions: byRound[row.Number]}
		if err := st.replayNext(pr); err != nil {
			return fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, row.Number, err)
		}
		st.rounds = append(st.rounds, pr)
		st.last = pr
	}
	return nil
}

// replayNext moves the replayed game to the round, checks the stored game
// state and setup against it, replays the round's actions and, if it was
// settled, records its result.
func (st *diceState) replayNext(pr *playedRound) error {
	if err := st.positionGame(pr.row); err != nil {
		return err
	}
	snap, err := st.game.Snapshot()
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(normalize(snap), normalize(pr.row.Game)) {
		return fmt.Errorf("stored game state %+v, but the replay gives %+v", pr.row.Game, snap)
	}
	if err := st.play(pr); err != nil {
		return err
	}
	pr.gameResult = wonGame(st.game, pr)
	return nil
}

// play sets the game up for a stored round, replays the round's actions
// and, when it is stored as settled, records its result in the game.
func (st *diceState) play(pr *playedRound) error {
	if err := st.enter(pr); err != nil {
		return err
	}
	if err := pr.replay(st.rules); err != nil {
		return err
	}
	if pr.row.Status == db.RoundVoid {
		// A reversed round leaves the game as it was before it.
		g, err := game.ResumeGame(st.rules, pr.row.Game)
		st.game = g
		return err
	}
	if pr.row.Status != db.RoundSettled {
		return nil
	}
	res, ok := pr.round.Result()
	if !ok {
		return errors.New("stored as settled, but its actions do not end it")
	}
	return st.game.Record(res)
}

// wonGame is the game's result when round pr, settled and recorded in g,
// won a game of rounds (the game is over now and was not when the round
// began), or nil.
func wonGame(g *game.Game, pr *playedRound) *game.GameResult {
	if gr, ok := g.Result(); ok && !pr.row.Game.Over {
		return &gr
	}
	return nil
}

// positionGame makes the game for the seats a round began with (its stored
// game state's): the first round starts the game, with the roll-off's
// winner first at a roll-off table; later ones reseat it if players came or
// went.
func (st *diceState) positionGame(r db.Round) error {
	seats := r.Game.Seats
	if st.game == nil {
		var first game.PlayerID
		if st.rules.Start == game.StartRollOff {
			var err error
			if first, err = game.ResolveRollOff(seats, r.RollOff); err != nil {
				return err
			}
		}
		g, err := game.NewGame(st.rules, seats, first)
		st.game = g
		return err
	}
	if slices.Equal(st.game.Seats(), seats) {
		return nil
	}
	return st.game.Reseat(seats)
}

// enter sets the game up for the round and checks that the stored setup is
// the one the rules give (with the declared score the declarer called).
func (st *diceState) enter(pr *playedRound) error {
	want, err := st.game.NextRound()
	if err != nil {
		return err
	}
	want.Declared = pr.row.Setup.Declared
	if !sameSetup(want, pr.row.Setup) {
		return fmt.Errorf("stored setup %+v, but the rules give %+v", pr.row.Setup, want)
	}
	return nil
}

// replay rebuilds the round from its setup and the actions not taken back.
func (pr *playedRound) replay(rs game.Ruleset) error {
	standing, err := standingActions(pr.actions)
	if err != nil {
		return err
	}
	pr.round, err = replayRound(rs, pr.row.Setup, standing)
	return err
}

// replayRound is a round rebuilt from its setup and the given actions.
func replayRound(rs game.Ruleset, setup game.RoundSetup, actions []db.Action) (*game.Round, error) {
	r, err := game.NewRound(rs, setup)
	if err != nil {
		return nil, err
	}
	for _, a := range actions {
		if err := r.Apply(a.Action); err != nil {
			return nil, fmt.Errorf("action %d: %w", a.Seq, err)
		}
	}
	return r, nil
}

// standingActions are a round's stored actions less those taken back and
// the corrections that took them back. A correction may only take back the
// last action standing when it was made.
func standingActions(actions []db.Action) ([]db.Action, error) {
	var out []db.Action
	for _, a := range actions {
		if a.Action.Kind != actionVoid {
			out = append(out, a)
			continue
		}
		if len(out) == 0 || out[len(out)-1].Seq != a.Voids {
			return nil, fmt.Errorf("action %d takes back action %d, which was not the last action standing", a.Seq, a.Voids)
		}
		out = out[:len(out)-1]
	}
	return out, nil
}

func sameSetup(a, b game.RoundSetup) bool {
	return slices.Equal(a.Players, b.Players) && a.CarriedPot == b.CarriedPot && a.Ante == b.Ante &&
		a.Declared == b.Declared && a.Declarer == b.Declarer && a.Playoff == b.Playoff
}

// seats are the players still at the table, clockwise (by seat number).
func (st *tableState) seats() []game.PlayerID {
	var out []game.PlayerID
	for _, p := range st.players {
		if p.LeftAt == nil {
			out = append(out, p.ID)
		}
	}
	return out
}

// player is a player of the table, those who left included.
func (st *tableState) player(id game.PlayerID) (db.Player, error) {
	for _, p := range st.players {
		if p.ID == id {
			return p, nil
		}
	}
	return db.Player{}, fmt.Errorf("%w: player %d does not sit at table %d", ErrNotFound, id, st.row.ID)
}

// playing is round number, which must be the one being played.
func (st *tableState) playing(number int) (*playedRound, error) {
	if err := st.plays(db.GameDice); err != nil {
		return nil, err
	}
	d := st.dice()
	if d.last == nil || number < 1 || number > d.last.row.Number {
		return nil, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, st.row.ID, number)
	}
	if pr := d.current(); pr != nil && pr.row.Number == number {
		return pr, nil
	}
	if d.last.row.Number == number && d.last.row.Status == db.RoundVoid {
		return nil, fmt.Errorf("%w: round %d was reversed; start a new round", ErrNoRound, number)
	}
	return nil, fmt.Errorf("%w: round %d is already settled", ErrNoRound, number)
}

// normalize round-trips a value through JSON so that nil and empty lists
// compare equal.
func normalize(v any) any {
	raw, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}
