package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// This file rebuilds a table from what is stored: the latest round resumed
// from its stored game state for requests, or every round replayed from
// the first for the audit and the history.

// storedSetup is what a round row keeps as its setup: the seats when it
// began, how the first player was found (roll-off), the game's state just
// before the round (so that the next request resumes from here instead of
// replaying the whole night) and the engine's setup.
type storedSetup struct {
	Seats   []game.PlayerID     `json:"seats"`
	First   game.PlayerID       `json:"first,omitempty"`
	RollOff []game.RollOffThrow `json:"rollOff,omitempty"`
	Game    game.GameState      `json:"game"`
	Round   game.RoundSetup     `json:"round"`
}

// playedRound is a stored round rebuilt by the engine.
type playedRound struct {
	row     db.Round
	setup   storedSetup
	round   *game.Round
	actions []db.RoundAction
}

// tableState is a table rebuilt from its stored rounds.
type tableState struct {
	table   db.Table
	rs      game.Ruleset
	players []db.Player
	last    *playedRound   // the latest round, nil before round 1
	rounds  []*playedRound // every round, only when loaded by loadReplayed
	game    *game.Game     // after the last settled round; nil before round 1
}

// current is the round being played, or nil.
func (st *tableState) current() *playedRound {
	if st.last != nil && st.last.row.Status == db.RoundOpen {
		return st.last
	}
	return nil
}

// load rebuilds a table for reading and writing from its latest round: the
// game resumes from the state stored with that round, and the round is
// replayed from its actions (or, once settled, moves the game on by its
// stored result, which the engine produced when it was settled and every
// audit replays again). A request therefore costs the same on the first
// round of the night as on the five hundredth.
func load(ctx context.Context, q db.DBTX, tableID int64) (*tableState, error) {
	st, err := loadTableRow(ctx, q, tableID)
	if err != nil {
		return nil, err
	}
	row, err := db.RoundLatest(ctx, q, tableID)
	if errors.Is(err, db.ErrNotFound) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	pr := &playedRound{row: row}
	if err := json.Unmarshal(row.Setup, &pr.setup); err != nil {
		return nil, fmt.Errorf("round %d: unreadable setup: %w", row.Number, err)
	}
	if st.game, err = game.ResumeGame(st.rs, pr.setup.Game); err != nil {
		return nil, fmt.Errorf("%w: round %d: stored game state: %w", ErrHistoryBroken, row.Number, err)
	}
	if err := st.enter(pr); err != nil {
		return nil, fmt.Errorf("%w: round %d: %w", ErrHistoryBroken, row.Number, err)
	}
	if row.Status == db.RoundOpen {
		if pr.actions, err = db.RoundActionList(ctx, q, row.ID); err != nil {
			return nil, err
		}
		if err := pr.replay(st.rs); err != nil {
			return nil, fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, row.Number, err)
		}
	} else {
		var stored storedResult
		if err := json.Unmarshal(row.Result, &stored); err != nil {
			return nil, fmt.Errorf("round %d: unreadable result: %w", row.Number, err)
		}
		if err := st.game.Record(stored.Round); err != nil {
			return nil, fmt.Errorf("%w: round %d: %w", ErrHistoryBroken, row.Number, err)
		}
	}
	st.last = pr
	return st, nil
}

// loadReplayed rebuilds a table by replaying every round's actions through
// the engine from the first round on, for the audit and the history. A
// stored round, setup or game state that the replay does not reproduce is
// an error: the data was changed behind the engine's back.
func loadReplayed(ctx context.Context, q db.DBTX, tableID int64) (*tableState, error) {
	st, err := loadTableRow(ctx, q, tableID)
	if err != nil {
		return nil, err
	}
	rows, err := db.RoundList(ctx, q, tableID)
	if err != nil {
		return nil, err
	}
	actions, err := db.RoundActionListByTable(ctx, q, tableID)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		pr := &playedRound{row: row, actions: actions[row.ID]}
		if err := json.Unmarshal(row.Setup, &pr.setup); err != nil {
			return nil, fmt.Errorf("round %d: unreadable setup: %w", row.Number, err)
		}
		if err := st.replayNext(pr); err != nil {
			return nil, fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, row.Number, err)
		}
		st.rounds = append(st.rounds, pr)
		st.last = pr
	}
	return st, nil
}

// loadTableRow reads the table, its rules and its players.
func loadTableRow(ctx context.Context, q db.DBTX, tableID int64) (*tableState, error) {
	t, err := db.TableGet(ctx, q, tableID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, fmt.Errorf("%w: no table %d", ErrNotFound, tableID)
	}
	if err != nil {
		return nil, err
	}
	st := &tableState{table: t}
	if st.rs, err = ruleset(t); err != nil {
		return nil, err
	}
	if st.players, err = db.PlayerList(ctx, q, tableID); err != nil {
		return nil, err
	}
	return st, nil
}

// replayNext moves the replayed game to the round, checks the stored game
// state and setup against it, replays the round's actions and, if it was
// settled, records its result.
func (st *tableState) replayNext(pr *playedRound) error {
	if err := st.positionGame(pr.setup); err != nil {
		return err
	}
	snap, err := st.game.Snapshot()
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(normalize(snap), normalize(pr.setup.Game)) {
		return fmt.Errorf("stored game state %+v, but the replay gives %+v", pr.setup.Game, snap)
	}
	if err := st.enter(pr); err != nil {
		return err
	}
	if err := pr.replay(st.rs); err != nil {
		return err
	}
	if pr.row.Status != db.RoundSettled {
		return nil
	}
	res, ok := pr.round.Result()
	if !ok {
		return errors.New("stored as settled, but the round is not over")
	}
	return st.game.Record(res)
}

// enter sets the game up for the round and checks that the stored setup is
// the one the rules give.
func (st *tableState) enter(pr *playedRound) error {
	want, err := st.game.NextRound()
	if err != nil {
		return err
	}
	want.Declared = pr.setup.Round.Declared
	if !sameSetup(want, pr.setup.Round) {
		return fmt.Errorf("stored setup %+v, but the rules give %+v", pr.setup.Round, want)
	}
	return nil
}

// replay rebuilds the round from its setup and actions.
func (pr *playedRound) replay(rs game.Ruleset) error {
	r, err := game.NewRound(rs, pr.setup.Round)
	if err != nil {
		return err
	}
	for _, a := range pr.actions {
		var ga game.Action
		if err := json.Unmarshal(a.Payload, &ga); err != nil {
			return fmt.Errorf("action %d: %w", a.Seq, err)
		}
		if err := r.Apply(ga); err != nil {
			return fmt.Errorf("action %d: %w", a.Seq, err)
		}
	}
	pr.round = r
	return nil
}

// positionGame makes the game for the seats a round began with: the first
// round starts the game, later ones reseat it if players came or went.
func (st *tableState) positionGame(s storedSetup) error {
	if st.game == nil {
		g, err := game.NewGame(st.rs, s.Seats, s.First)
		st.game = g
		return err
	}
	if slices.Equal(st.game.Seats(), s.Seats) {
		return nil
	}
	return st.game.Reseat(s.Seats)
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
			out = append(out, sid(p.ID))
		}
	}
	return out
}

// lockAndLoad is how every change to a table's play begins: the table row
// locked first (see db.TableLock), refused if closed, then rebuilt.
func lockAndLoad(ctx context.Context, tx pgx.Tx, tableID int64) (*tableState, error) {
	if _, err := lockOpenTable(ctx, tx, tableID); err != nil {
		return nil, err
	}
	return load(ctx, tx, tableID)
}
