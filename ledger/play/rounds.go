package play

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

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
	st, err := lockAndLoad(ctx, tx, who.TableID)
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
	case setup.Declarer != 0 && in.Declared == nil:
		return RoundView{}, fmt.Errorf("%w: this progressive round needs the declared score of its declarer (player %s)", ErrInvalid, setup.Declarer)
	case setup.Declarer == 0 && in.Declared != nil:
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
func rollOff(seats []game.PlayerID, in []RollOffThrowInput) (game.PlayerID, []game.RollOffThrow, error) {
	if len(in) == 0 {
		return 0, nil, fmt.Errorf("%w: this table starts with a roll-off: send every player's five dice as rollOff (players tied for lowest throw again)", ErrInvalid)
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
func viewerOf(p Principal) game.PlayerID {
	if p.Role == RolePlayer {
		return sid(p.PlayerID)
	}
	return 0
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
