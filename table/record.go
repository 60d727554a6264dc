package table

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// This file is play: an action or a whole turn judged by the engine and
// recorded, and the round it finishes settled as the engine decided.

// ActionInput is one action as the API receives it.
type ActionInput struct {
	Player  game.PlayerID   `json:"player"`
	Kind    game.ActionKind `json:"kind"`
	Dice    []int           `json:"dice,omitempty"`
	Rethrow []int           `json:"rethrow,omitempty"`
	Path    string          `json:"path,omitempty"`
	// Seen, when sent, is how many actions the round had recorded (its
	// view's actions) when the phone drew what was tapped: the action is
	// refused if the round has recorded more since (seen.go).
	Seen *uint `json:"seen,omitempty"`
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
		return w.record(number, in.Player, in.Seen, []game.Action{act}, nil)
	})
}

// TurnInput is a whole turn as the API receives it.
type TurnInput struct {
	Player game.PlayerID `json:"player"`
	Rolls  []game.Roll   `json:"rolls"`
	Stand  bool          `json:"stand,omitempty"`
	// Seen is as ActionInput's: the turn is refused if the round has
	// recorded more actions since.
	Seen *uint `json:"seen,omitempty"`
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
		return w.record(number, in.Player, in.Seen, actions, &game.TurnInput{Rolls: in.Rolls, Stand: in.Stand})
	})
}

// record applies actions of one player to round number, all or nothing:
// every action is judged by the engine before any is stored, and a round
// they finish is settled in the same transaction. seen, when set, is how
// many of the round's actions the phone had seen (seenRound). whole, when
// set, is the whole-turn submission the actions came from.
func (w *writer) record(number int, player game.PlayerID, seen *uint, actions []game.Action, whole *game.TurnInput) (RoundView, error) {
	if err := w.who.mayActFor(player); err != nil {
		return RoundView{}, err
	}
	if err := w.openTable(); err != nil {
		return RoundView{}, err
	}
	if err := w.seenRound(number, seen); err != nil {
		return RoundView{}, err
	}
	w.keep = true // the round's actions and result, and the books, move st as they are stored
	st := w.st
	pr, err := st.playing(number)
	if err != nil {
		return RoundView{}, err
	}
	if _, err := st.player(player); err != nil {
		return RoundView{}, err
	}
	if len(actions) == 1 && actions[0].Kind == game.ActionClaimAutomatic {
		if err := w.who.mayClaimFor(player, pr.hostThrew(player)); err != nil {
			return RoundView{}, err
		}
	}
	before := pr.round.State()
	if err := turnOver(before, number, player, actions, whole != nil); err != nil {
		return RoundView{}, err
	}
	viewer := w.who.viewer()
	sealed := pr.round.SealsFrom(viewer)
	if whole != nil {
		if actions, err = wholeTurn(st.rules(), pr.round, player, viewer, actions, *whole); err != nil {
			return RoundView{}, err
		}
	} else {
		for _, a := range actions {
			if err := pr.round.ApplyAs(viewer, a); err != nil {
				return RoundView{}, err
			}
		}
	}
	w.recordTurns(pr, before, len(pr.actions)+len(actions))
	byHost := w.who.byHost(player)
	stored := make([]db.Action, len(actions))
	for i, a := range actions {
		seq := len(pr.actions) + i + 1
		ev, err := w.emit("round.action", roundAction{Round: number, Seq: seq, Action: a, Nonce: newNonce(a), ByHost: &byHost})
		if err != nil {
			return RoundView{}, err
		}
		stored[i] = db.Action{Round: number, Seq: seq, Action: a, EventSeq: ev.Seq, ByHost: &byHost}
	}
	w.history.Round = number
	w.history.Actions = append(w.history.Actions, stored...)
	pr.actions = append(pr.actions, stored...)
	res, over := pr.round.Result()
	if !over {
		return pr.liveView(w.who), nil
	}
	end, err := w.settle(pr, res)
	if errors.Is(err, ErrInsufficientFunds) && sealed {
		return RoundView{}, errSealedSettlement
	}
	if err != nil {
		return RoundView{}, err
	}
	v := roundView(number, len(pr.actions), statusSettled, pr.round.State(), &res)
	v.Game = end
	return v, nil
}

// turnOver refuses a whole turn, or a throw or stand, of a player whose
// turn in the round is over: the turn was recorded already, and sent again
// under a new Idempotency-Key (a second phone, a retry that lost its key).
// The answer is the same whatever was sent, so that it tells nothing of
// throws still sealed under the cup. Claiming a closed automatic is the
// one action left to a player whose turn is over; the engine judges it.
func turnOver(before game.RoundState, number int, player game.PlayerID, actions []game.Action, whole bool) error {
	for _, ps := range before.Players {
		if ps.Player != player || ps.Status != game.StatusDone {
			continue
		}
		if whole || actions[0].Kind == game.ActionRoll || actions[0].Kind == game.ActionStand {
			return fmt.Errorf("%w: player %d's turn in round %d is over; nothing was recorded again (read the round to see the turn)",
				ErrTurnRecorded, player, number)
		}
	}
	return nil
}

// errSealedSettlement refuses, at a no-overdraft table, the end of a round
// whose per-point payments a player cannot pay, to a caller from whom some
// of its throws are still sealed: who owes how much is made of the sealed
// scores, so the refusal names neither the player nor the amount, and says
// the same whatever is under the cup.
var errSealedSettlement = fmt.Errorf("%w: this would end the round, but its per-point payments would take a player below zero, "+
	"which this table does not allow; who owes how much is made of throws still under the cup, so it is not said here. "+
	"Nothing was recorded: take buy-ins, then send it again", ErrInsufficientFunds)

// roundAction is the payload of round.action. A throw's carries a random
// nonce: the event's hash, which every phone sees as the chain's head,
// then says nothing about dice still under the cup (without it, trying the
// few possible faces against the hash would find them). ByHost says
// whether the host's phone recorded it for a player other than the host's
// own seat (db.Action.ByHost): every new event says, true or false; events
// recorded before it was kept do not (nil).
type roundAction struct {
	Nonce  string      `json:"nonce,omitempty"`
	Action game.Action `json:"action"`
	Round  int         `json:"round"`
	Seq    int         `json:"seq"`
	ByHost *bool       `json:"byHost,omitempty"`
}

// wholeTurn judges a whole turn: as a turn first (so its errors name the
// roll), then as the player's part of the round recorded by viewer, adding
// the implied stand.
func wholeTurn(rs game.Ruleset, r *game.Round, player, viewer game.PlayerID, actions []game.Action, whole game.TurnInput) ([]game.Action, error) {
	if _, err := game.ValidateTurn(rs, whole); err != nil {
		return nil, err
	}
	for _, ps := range r.State().Players {
		if ps.Player == player && len(ps.Outcome.Rolls) > 0 {
			return nil, fmt.Errorf("%w: player %d's turn has already started; record the rest throw by throw", ErrInvalid, player)
		}
	}
	for _, a := range actions {
		if err := r.ApplyAs(viewer, a); err != nil {
			return nil, err
		}
	}
	state := r.State()
	if !state.Over && state.Turn == player && state.Next.MayStand {
		stand := game.Action{Player: player, Kind: game.ActionStand}
		if err := r.ApplyAs(viewer, stand); err != nil {
			return nil, err
		}
		actions = append(actions, stand)
	}
	return actions, nil
}

// recordTurns queues the turns that these actions finished, the last of
// which is action seq: each player's outcome, in play order, as the engine
// judged it. The audit checks every one against a replay.
func (w *writer) recordTurns(pr *playedRound, before game.RoundState, seq int) {
	for i, ps := range pr.round.State().Players {
		if ps.Status != game.StatusDone || before.Players[i].Status == game.StatusDone {
			continue
		}
		t := db.TurnOf(pr.row.Number, i+1, ps.Player, ps.Outcome)
		t.ActionSeq = seq
		w.history.Turns = append(w.history.Turns, t)
	}
}

// settle records a finished round in the game and posts its money as the
// engine decided it: the round's settlement, or the game's when the round
// won a game of rounds.
func (w *writer) settle(pr *playedRound, res game.Result) (*game.GameResult, error) {
	d := w.st.dice()
	if err := d.game.Record(res); err != nil {
		return nil, err
	}
	money := res.Settlement
	end := wonGame(d.game, pr)
	if end != nil {
		money = end.Settlement
	}
	if pot := w.books().Balance(ledger.Pot); pot != money.PotBefore {
		return nil, fmt.Errorf("%w: the pot holds %d, but round %d's settlement is of a pot of %d", ErrHistoryBroken,
			pot, pr.row.Number, money.PotBefore)
	}
	if err := w.post(ledger.RoundSettlement(pr.row.Number, money, memo(res, end))); err != nil {
		return nil, err
	}
	w.history.Settles = pr.row.Number
	at := w.now
	pr.row.Status, pr.row.SettledAt = db.RoundSettled, &at
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

// newNonce is 128 random bits (hex) for a throw's event, none for other
// actions.
func newNonce(a game.Action) string {
	if a.Kind != game.ActionRoll {
		return ""
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
