package table

import (
	"context"
	"fmt"

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
	Player game.PlayerID `json:"player"`
	Dice   []int         `json:"dice"`
}

// StartRound opens the table's next round and posts its antes.
func (s *Service) StartRound(ctx context.Context, a Auth, k Key, in StartRoundInput) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mayWrite(); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		return w.startRound(in)
	})
}

func (w *writer) startRound(in StartRoundInput) (RoundView, error) {
	st := w.st
	if cur := st.current(); cur != nil {
		return RoundView{}, fmt.Errorf("%w: round %d is still being played", ErrRoundPlaying, cur.row.Number)
	}
	seats := st.seats()
	if len(seats) < 2 {
		return RoundView{}, fmt.Errorf("%w: a round needs at least two players at the table, not %d", ErrInvalid, len(seats))
	}
	row := db.Round{Number: w.rounds + 1, Status: db.RoundOpen}
	if st.game == nil && st.rules().Start == game.StartRollOff {
		var err error
		if row.RollOff, err = rollOff(seats, in.RollOff); err != nil {
			return RoundView{}, err
		}
	} else if len(in.RollOff) > 0 {
		return RoundView{}, fmt.Errorf("%w: a roll-off is only thrown before the first round of a roll-off table", ErrInvalid)
	}
	row.Game.Seats = seats
	if err := st.positionGame(row); err != nil {
		return RoundView{}, err
	}
	var err error
	if row.Game, err = st.game.Snapshot(); err != nil {
		return RoundView{}, err
	}
	setup, err := st.game.NextRound()
	if err != nil {
		return RoundView{}, err
	}
	switch {
	case setup.Declarer != 0 && in.Declared == nil:
		return RoundView{}, fmt.Errorf("%w: this progressive round needs the declared score of its declarer (player %d)", ErrInvalid, setup.Declarer)
	case setup.Declarer == 0 && in.Declared != nil:
		return RoundView{}, fmt.Errorf("%w: only a progressive pot's round has a declared score", ErrInvalid)
	case in.Declared != nil:
		setup.Declared = *in.Declared
	}
	round, err := game.NewRound(st.rules(), setup)
	if err != nil {
		return RoundView{}, err
	}
	row.Setup = setup
	w.out.RoundInsert(st.row.ID, row)
	w.rounds = row.Number
	if antes := round.Antes(); len(antes) > 0 {
		if err := w.post(ledger.Antes(row.Number, antes)); err != nil {
			return RoundView{}, err
		}
	}
	if _, err := w.emit("round.started", roundStarted{Round: row.Number, Setup: setup, Game: row.Game, RollOff: row.RollOff}); err != nil {
		return RoundView{}, err
	}
	return liveView(row.Number, round, w.who), nil
}

// roundStarted is the payload of round.started: the round's setup and the
// game's state before it.
type roundStarted struct {
	Game    game.GameState      `json:"game"`
	RollOff []game.RollOffThrow `json:"rollOff,omitempty"`
	Round   int                 `json:"round"`
	Setup   game.RoundSetup     `json:"setup"`
}

// rollOff judges the roll-off throws.
func rollOff(seats []game.PlayerID, in []RollOffThrowInput) ([]game.RollOffThrow, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("%w: this table starts with a roll-off: send every player's five dice as rollOff (players tied for lowest throw again)", ErrInvalid)
	}
	throws := make([]game.RollOffThrow, 0, len(in))
	for _, t := range in {
		throws = append(throws, game.RollOffThrow{Player: t.Player, Dice: t.Dice})
	}
	_, err := game.ResolveRollOff(seats, throws)
	return throws, err
}

// ActionInput is one action as the API receives it.
type ActionInput struct {
	Player  game.PlayerID   `json:"player"`
	Kind    game.ActionKind `json:"kind"`
	Dice    []int           `json:"dice,omitempty"`
	Rethrow []int           `json:"rethrow,omitempty"`
	Path    string          `json:"path,omitempty"`
}

// Act records one action in the round being played.
func (s *Service) Act(ctx context.Context, a Auth, k Key, number int, in ActionInput) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if in.Player == 0 {
			in.Player = w.who.Player
		}
		if in.Player == 0 {
			return nil, fmt.Errorf("%w: say whose action it is (player)", ErrInvalid)
		}
		act := game.Action{Player: in.Player, Kind: in.Kind}
		switch in.Kind {
		case game.ActionRoll:
			act.Roll = &game.Roll{Dice: in.Dice, Rethrow: in.Rethrow, Path: in.Path}
		default:
			if len(in.Dice) > 0 || len(in.Rethrow) > 0 || in.Path != "" {
				return nil, fmt.Errorf("%w: only a roll has dice, rethrow or path", ErrInvalid)
			}
		}
		return w.record(number, in.Player, []game.Action{act}, nil)
	})
}

// TurnInput is a whole turn as the API receives it.
type TurnInput struct {
	Player game.PlayerID `json:"player"`
	Rolls  []game.Roll   `json:"rolls"`
	Stand  bool          `json:"stand,omitempty"`
}

// SubmitTurn records a player's whole turn at once: the turn must not have
// started, and it is judged as a whole before any of it is stored.
func (s *Service) SubmitTurn(ctx context.Context, a Auth, k Key, number int, in TurnInput) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if in.Player == 0 {
			in.Player = w.who.Player
		}
		if in.Player == 0 {
			return nil, fmt.Errorf("%w: say whose turn it is (player)", ErrInvalid)
		}
		actions := make([]game.Action, 0, len(in.Rolls)+1)
		for i := range in.Rolls {
			actions = append(actions, game.Action{Player: in.Player, Kind: game.ActionRoll, Roll: &in.Rolls[i]})
		}
		return w.record(number, in.Player, actions, &game.TurnInput{Rolls: in.Rolls, Stand: in.Stand})
	})
}

// record applies actions of one player to round number, all or nothing:
// every action is judged by the engine before any is stored, and a round
// they finish is settled in the same transaction. whole, when set, is the
// whole-turn submission the actions came from.
func (w *writer) record(number int, player game.PlayerID, actions []game.Action, whole *game.TurnInput) (RoundView, error) {
	if err := w.who.mayActFor(player); err != nil {
		return RoundView{}, err
	}
	if err := w.openTable(); err != nil {
		return RoundView{}, err
	}
	st := w.st
	pr, err := st.playing(number)
	if err != nil {
		return RoundView{}, err
	}
	if _, err := st.player(player); err != nil {
		return RoundView{}, err
	}
	before := pr.round.State()
	if whole != nil {
		if actions, err = wholeTurn(st.rules(), pr.round, player, actions, *whole); err != nil {
			return RoundView{}, err
		}
	} else {
		for _, a := range actions {
			if err := pr.round.Apply(a); err != nil {
				return RoundView{}, err
			}
		}
	}
	w.recordTurns(pr, before)
	stored := make([]db.Action, len(actions))
	for i, a := range actions {
		seq := len(pr.actions) + i + 1
		ev, err := w.emit("round.action", roundAction{Round: number, Seq: seq, Action: a})
		if err != nil {
			return RoundView{}, err
		}
		stored[i] = db.Action{Round: number, Seq: seq, Action: a, EventSeq: ev.Seq}
	}
	w.history.Round = number
	w.history.Actions = append(w.history.Actions, stored...)
	pr.actions = append(pr.actions, stored...)
	res, over := pr.round.Result()
	if !over {
		return liveView(number, pr.round, w.who), nil
	}
	end, err := w.settle(pr, res)
	if err != nil {
		return RoundView{}, err
	}
	v := roundView(number, statusSettled, pr.round.State(), &res)
	v.Game = end
	return v, nil
}

// roundAction is the payload of round.action.
type roundAction struct {
	Action game.Action `json:"action"`
	Round  int         `json:"round"`
	Seq    int         `json:"seq"`
}

// wholeTurn judges a whole turn: as a turn first (so its errors name the
// roll), then as the player's part of the round, adding the implied stand.
func wholeTurn(rs game.Ruleset, r *game.Round, player game.PlayerID, actions []game.Action, whole game.TurnInput) ([]game.Action, error) {
	if _, err := game.ValidateTurn(rs, whole); err != nil {
		return nil, err
	}
	for _, ps := range r.State().Players {
		if ps.Player == player && len(ps.Outcome.Rolls) > 0 {
			return nil, fmt.Errorf("%w: player %d's turn has already started; record the rest throw by throw", ErrInvalid, player)
		}
	}
	for _, a := range actions {
		if err := r.Apply(a); err != nil {
			return nil, err
		}
	}
	state := r.State()
	if !state.Over && state.Turn == player && state.Next.MayStand {
		stand := game.Action{Player: player, Kind: game.ActionStand}
		if err := r.Apply(stand); err != nil {
			return nil, err
		}
		actions = append(actions, stand)
	}
	return actions, nil
}

// recordTurns queues the turns that these actions finished: each player's
// outcome, in play order, as the engine judged it. The audit checks every
// one against a replay.
func (w *writer) recordTurns(pr *playedRound, before game.RoundState) {
	for i, ps := range pr.round.State().Players {
		if ps.Status != game.StatusDone || before.Players[i].Status == game.StatusDone {
			continue
		}
		w.history.Turns = append(w.history.Turns, db.TurnOf(pr.row.Number, i+1, ps.Player, ps.Outcome))
	}
}

// settle records a finished round in the game and posts its money as the
// engine decided it: the round's settlement, or the game's when the round
// won a game of rounds.
func (w *writer) settle(pr *playedRound, res game.Result) (*game.GameResult, error) {
	st := w.st
	if err := st.game.Record(res); err != nil {
		return nil, err
	}
	money := res.Settlement
	var end *game.GameResult
	if gr, ok := st.game.Result(); ok && st.game.Over() && st.rules().Goal.Kind != game.GoalRound {
		money, end = gr.Settlement, &gr
	}
	if pot := w.books().Balance(ledger.Pot); pot != money.PotBefore {
		return nil, fmt.Errorf("%w: the pot holds %d, but round %d's settlement is of a pot of %d", ErrHistoryBroken,
			pot, pr.row.Number, money.PotBefore)
	}
	if err := w.post(ledger.RoundSettlement(pr.row.Number, money, memo(res, end))); err != nil {
		return nil, err
	}
	w.history.Settles = pr.row.Number
	pr.row.Status = db.RoundSettled
	if _, err := w.emit("round.settled", roundSettled{Round: pr.row.Number, Result: res, Game: end}); err != nil {
		return nil, err
	}
	return end, nil
}

// roundSettled is the payload of round.settled: the engine's result, and
// the game's when the round won a game of rounds.
type roundSettled struct {
	Game   *game.GameResult `json:"game,omitempty"`
	Result game.Result      `json:"result"`
	Round  int              `json:"round"`
}

// memo says in words what a round's money did, for the statement.
func memo(res game.Result, gr *game.GameResult) string {
	if gr != nil {
		return "game won by player " + gr.Winner.String()
	}
	switch res.Kind {
	case game.ResultWin:
		if res.Automatic {
			return "automatic"
		}
		return "won"
	case game.ResultSplit:
		return "split among the tied winners"
	case game.ResultTie:
		return "one tie, all tie: the pot carries"
	case game.ResultNoQualify:
		return "nobody put to sea: the pot carries"
	case game.ResultRefund:
		return "nobody put to sea: the pot is returned"
	case game.ResultNoWinner:
		return "nobody hit the declared score: the pot carries"
	case game.ResultPlayoff:
		return "tied: playoff"
	}
	return string(res.Kind)
}

// Round reads one round as the caller may see it: live, with other players'
// sealed rolls hidden, or settled, with everything revealed.
func (s *Service) Round(ctx context.Context, a Auth, number int) (RoundView, error) {
	var row db.Round
	var actions []db.Action
	r, who, err := s.read(ctx, a, func(b *db.Batch) {
		b.RoundGet(a.TableID, number, &row)
		b.ActionListByRound(a.TableID, number, &actions)
	})
	if err != nil {
		return RoundView{}, err
	}
	if row.Number == 0 {
		return RoundView{}, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, a.TableID, number)
	}
	st := &tableState{row: r.row}
	if err := st.resume(row, actions); err != nil {
		return RoundView{}, err
	}
	return st.last.view(who, st.game)
}

// Rounds reads every round of the table, oldest first, each replayed.
func (s *Service) Rounds(ctx context.Context, a Auth) ([]RoundView, error) {
	var rounds []db.Round
	var actions []db.Action
	r, who, err := s.read(ctx, a, func(b *db.Batch) {
		b.RoundList(a.TableID, &rounds)
		b.ActionListByTable(a.TableID, &actions)
	})
	if err != nil {
		return nil, err
	}
	out := make([]RoundView, 0, len(rounds))
	byRound := map[int][]db.Action{}
	for _, a := range actions {
		byRound[a.Round] = append(byRound[a.Round], a)
	}
	for _, row := range rounds {
		// Each round resumes from its own stored state: the history shows
		// what was played; the audit is what checks the rounds chain up.
		one := &tableState{row: r.row}
		if err := one.resume(row, byRound[row.Number]); err != nil {
			return nil, err
		}
		v, err := one.last.view(who, one.game)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// view is a round as who may see it; g is the game after it, which tells
// whether a settled round won a game of rounds.
func (pr *playedRound) view(who Principal, g *game.Game) (RoundView, error) {
	if pr.row.Status == db.RoundOpen {
		return liveView(pr.row.Number, pr.round, who), nil
	}
	res, _ := pr.round.Result() // resume checked that a settled round is over
	v := roundView(pr.row.Number, statusSettled, pr.round.State(), &res)
	if gr, ok := g.Result(); ok && g.Over() && !pr.row.Game.Over {
		v.Game = &gr
	}
	return v, nil
}
