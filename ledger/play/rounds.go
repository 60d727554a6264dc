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
	"github.com/tally-dice/tally/ledger"
)

// storedSetup is what a round row keeps as its setup: the seats when it
// began, how the first player was found (roll-off), the game's state just
// before the round (so that the next request resumes from here instead of
// replaying the whole night) and the engine's setup.
type storedSetup struct {
	Seats   []string            `json:"seats"`
	First   string              `json:"first,omitempty"`
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
func (st *tableState) seats() []string {
	var out []string
	for _, p := range st.players {
		if p.LeftAt == nil {
			out = append(out, sid(p.ID))
		}
	}
	return out
}

// StartRoundInput is what starting a round may need: the declared score of a
// progressive pot, and the roll-off throws before a roll-off table's first
// round.
type StartRoundInput struct {
	Declared *int                `json:"declared,omitempty"`
	RollOff  []RollOffThrowInput `json:"rollOff,omitempty"`
}

// RollOffThrowInput is one roll-off throw, all five dice.
type RollOffThrowInput struct {
	Player int64 `json:"player"`
	Dice   []int `json:"dice"`
}

// StartRound opens the table's next round and posts its antes.
func StartRound(ctx context.Context, tx pgx.Tx, who Principal, in StartRoundInput) (RoundView, error) {
	if err := who.mayWrite(); err != nil {
		return RoundView{}, err
	}
	if _, err := lockOpenTable(ctx, tx, who.TableID); err != nil {
		return RoundView{}, err
	}
	st, err := load(ctx, tx, who.TableID)
	if err != nil {
		return RoundView{}, err
	}
	if cur := st.current(); cur != nil {
		return RoundView{}, fmt.Errorf("%w: round %d is still being played", ErrRoundPlaying, cur.row.Number)
	}
	seats := st.seats()
	if len(seats) < 2 {
		return RoundView{}, fmt.Errorf("%w: a round needs at least two players at the table, not %d", ErrInvalid, len(seats))
	}
	ss := storedSetup{Seats: seats}
	if st.game == nil && st.rs.Start == game.StartRollOff {
		if ss.First, ss.RollOff, err = rollOff(seats, in.RollOff); err != nil {
			return RoundView{}, err
		}
	} else if len(in.RollOff) > 0 {
		return RoundView{}, fmt.Errorf("%w: a roll-off is only thrown before the first round of a roll-off table", ErrInvalid)
	}
	if err := st.positionGame(ss); err != nil {
		return RoundView{}, err
	}
	if ss.Game, err = st.game.Snapshot(); err != nil {
		return RoundView{}, err
	}
	setup, err := st.game.NextRound()
	if err != nil {
		return RoundView{}, err
	}
	switch {
	case setup.Declarer != "" && in.Declared == nil:
		return RoundView{}, fmt.Errorf("%w: this progressive round needs the declared score of its declarer (player %s)", ErrInvalid, setup.Declarer)
	case setup.Declarer == "" && in.Declared != nil:
		return RoundView{}, fmt.Errorf("%w: only a progressive pot's round has a declared score", ErrInvalid)
	case in.Declared != nil:
		setup.Declared = *in.Declared
	}
	round, err := game.NewRound(st.rs, setup)
	if err != nil {
		return RoundView{}, err
	}
	ss.Round = setup
	raw, err := json.Marshal(ss)
	if err != nil {
		return RoundView{}, err
	}
	row, err := db.RoundInsert(ctx, tx, who.TableID, raw)
	if err != nil {
		return RoundView{}, err
	}
	if setup.Ante && st.rs.Ante > 0 {
		antes := make([]ledger.PlayerAmount, 0, len(setup.Players))
		for _, p := range setup.Players {
			antes = append(antes, ledger.PlayerAmount{PlayerID: pid(p), Amount: st.rs.Ante})
		}
		if _, err := ledger.Ante(ctx, tx, who.TableID, &row.ID, antes); err != nil {
			return RoundView{}, err
		}
	}
	if _, err := ledger.AppendEvent(ctx, tx, who.TableID, "round.started", map[string]any{
		"round": row.Number, "setup": ss}); err != nil {
		return RoundView{}, err
	}
	return liveView(row.Number, round, who), nil
}

// rollOff judges the roll-off throws and returns who goes first.
func rollOff(seats []string, in []RollOffThrowInput) (string, []game.RollOffThrow, error) {
	if len(in) == 0 {
		return "", nil, fmt.Errorf("%w: this table starts with a roll-off: send every player's five dice as rollOff (players tied for lowest throw again)", ErrInvalid)
	}
	throws := make([]game.RollOffThrow, 0, len(in))
	for _, t := range in {
		throws = append(throws, game.RollOffThrow{Player: sid(t.Player), Dice: t.Dice})
	}
	first, err := game.ResolveRollOff(seats, throws)
	return first, throws, err
}

// viewerOf is the engine's viewer for a principal: a player sees their own
// sealed rolls; the host and the auditor see what the whole table sees.
func viewerOf(p Principal) string {
	if p.Role == RolePlayer {
		return sid(p.PlayerID)
	}
	return ""
}

// ActionInput is one action as the API receives it.
type ActionInput struct {
	Player  int64           `json:"player"`
	Kind    game.ActionKind `json:"kind"`
	Dice    []int           `json:"dice,omitempty"`
	Rethrow []int           `json:"rethrow,omitempty"`
	Path    string          `json:"path,omitempty"`
}

// Act records one action in the round being played.
func Act(ctx context.Context, tx pgx.Tx, who Principal, number int, in ActionInput) (RoundView, error) {
	if in.Player == 0 {
		in.Player = who.PlayerID
	}
	if in.Player == 0 {
		return RoundView{}, fmt.Errorf("%w: say whose action it is (player)", ErrInvalid)
	}
	a := game.Action{Player: sid(in.Player), Kind: in.Kind}
	switch in.Kind {
	case game.ActionRoll:
		a.Roll = &game.Roll{Dice: in.Dice, Rethrow: in.Rethrow, Path: in.Path}
	default:
		if len(in.Dice) > 0 || len(in.Rethrow) > 0 || in.Path != "" {
			return RoundView{}, fmt.Errorf("%w: only a roll has dice, rethrow or path", ErrInvalid)
		}
	}
	return record(ctx, tx, who, number, in.Player, []game.Action{a}, nil)
}

// TurnInput is a whole turn as the API receives it.
type TurnInput struct {
	Player int64       `json:"player"`
	Rolls  []game.Roll `json:"rolls"`
	Stand  bool        `json:"stand,omitempty"`
}

// SubmitTurn records a player's whole turn at once: the turn must not have
// started, and it is judged as a whole before any of it is stored.
func SubmitTurn(ctx context.Context, tx pgx.Tx, who Principal, number int, in TurnInput) (RoundView, error) {
	if in.Player == 0 {
		in.Player = who.PlayerID
	}
	if in.Player == 0 {
		return RoundView{}, fmt.Errorf("%w: say whose turn it is (player)", ErrInvalid)
	}
	p := sid(in.Player)
	actions := make([]game.Action, 0, len(in.Rolls)+1)
	for i := range in.Rolls {
		actions = append(actions, game.Action{Player: p, Kind: game.ActionRoll, Roll: &in.Rolls[i]})
	}
	return record(ctx, tx, who, number, in.Player, actions, &game.TurnInput{Rolls: in.Rolls, Stand: in.Stand})
}
