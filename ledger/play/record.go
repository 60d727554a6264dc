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

// record applies actions of one player to round number, all or nothing:
// every action is judged by the engine before any is stored, and a round
// they finish is settled in the same transaction. whole, when set, is the
// whole-turn submission the actions came from.
func record(ctx context.Context, tx pgx.Tx, who Principal, number int, player int64, actions []game.Action, whole *game.TurnInput) (RoundView, error) {
	if err := who.mayActFor(player); err != nil {
		return RoundView{}, err
	}
	st, err := lockAndLoad(ctx, tx, who.TableID)
	if err != nil {
		return RoundView{}, err
	}
	pr, err := st.playing(number)
	if err != nil {
		return RoundView{}, err
	}
	if _, err := tablePlayer(ctx, tx, who.TableID, player); err != nil {
		return RoundView{}, err
	}
	before := pr.round.State()
	if whole != nil {
		if actions, err = st.wholeTurn(pr, player, actions, *whole); err != nil {
			return RoundView{}, err
		}
	} else {
		for _, a := range actions {
			if err := pr.round.Apply(a); err != nil {
				return RoundView{}, err
			}
		}
	}
	if err := recordTurns(ctx, tx, pr, before); err != nil {
		return RoundView{}, err
	}
	for _, a := range actions {
		payload, err := json.Marshal(a)
		if err != nil {
			return RoundView{}, err
		}
		stored, err := db.RoundActionAppend(ctx, tx, pr.row.ID, &player, string(a.Kind), payload)
		if err != nil {
			return RoundView{}, err
		}
		if _, err := ledger.AppendEvent(ctx, tx, who.TableID, "round.action", map[string]any{
			"round": number, "seq": stored.Seq, "action": a}); err != nil {
			return RoundView{}, err
		}
	}
	res, over := pr.round.Result()
	if !over {
		return liveView(number, pr.round, who), nil
	}
	end, err := settle(ctx, tx, st, pr, res)
	if err != nil {
		return RoundView{}, err
	}
	v := roundView(number, "settled", pr.round.State(), &res)
	v.Game = end
	return v, nil
}

// playing is round number, which must be the one being played.
func (st *tableState) playing(number int) (*playedRound, error) {
	if st.last == nil || number < 1 || number > st.last.row.Number {
		return nil, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, st.table.ID, number)
	}
	if pr := st.current(); pr != nil && pr.row.Number == number {
		return pr, nil
	}
	return nil, fmt.Errorf("%w: round %d is already settled", ErrNoRound, number)
}

// wholeTurn judges a whole turn: as a turn first (so its errors name the
// roll), then as the player's part of the round, adding the implied stand.
func (st *tableState) wholeTurn(pr *playedRound, player int64, actions []game.Action, whole game.TurnInput) ([]game.Action, error) {
	if _, err := game.ValidateTurn(st.rs, whole); err != nil {
		return nil, err
	}
	for _, ps := range pr.round.State().Players {
		if ps.Player == sid(player) && len(ps.Outcome.Rolls) > 0 {
			return nil, fmt.Errorf("%w: player %d's turn has already started; record the rest throw by throw", ErrInvalid, player)
		}
	}
	for _, a := range actions {
		if err := pr.round.Apply(a); err != nil {
			return nil, err
		}
	}
	state := pr.round.State()
	if !state.Over && state.Turn == sid(player) && state.Next.MayStand {
		stand := game.Action{Player: sid(player), Kind: game.ActionStand}
		if err := pr.round.Apply(stand); err != nil {
			return nil, err
		}
		actions = append(actions, stand)
	}
	return actions, nil
}

// storedResult is what a settled round row keeps as its result.
type storedResult struct {
	Round game.Result      `json:"round"`
	Game  *game.GameResult `json:"game,omitempty"`
}

// settle records a finished round in the game and moves its money as the
// engine decided, as one journal transaction; the ledger's postings are
// checked against the engine's settlement before anything commits.
func settle(ctx context.Context, tx pgx.Tx, st *tableState, pr *playedRound, res game.Result) (*GameEndView, error) {
	if err := st.game.Record(res); err != nil {
		return nil, err
	}
	money := res.Settlement
	stored := storedResult{Round: res}
	var end *GameEndView
	if gr, ok := st.game.Result(); ok && st.game.Over() && st.rs.Goal.Kind != game.GoalRound {
		money = gr.Settlement
		stored.Game = &gr
		end = &GameEndView{Winner: pid(gr.Winner), Settlement: settlementView(gr.Settlement), Totals: []TotalView{}}
		for _, t := range gr.Totals {
			end.Totals = append(end.Totals, TotalView{Player: pid(t.Player), Total: t.Points})
		}
	}
	in := ledger.RoundSettlement{TableID: st.table.ID, RoundID: pr.row.ID, Memo: memo(res, stored.Game)}
	for _, p := range money.Payouts {
		in.Winners = append(in.Winners, pid(p.Player))
	}
	for _, p := range money.PerPoint {
		in.PerPoint = append(in.PerPoint, ledger.Payment{From: pid(p.From), To: pid(p.To), Amount: p.Amount})
	}
	txn, err := ledger.RoundSettle(ctx, tx, in)
	if err != nil {
		return nil, err
	}
	if err := checkPostings(txn, money); err != nil {
		return nil, fmt.Errorf("round %d: %w", pr.row.Number, err)
	}
	raw, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	if pr.row, err = db.RoundFinish(ctx, tx, pr.row.ID, db.RoundSettled, raw); err != nil {
		return nil, err
	}
	if _, err := ledger.AppendEvent(ctx, tx, st.table.ID, "round.settled", map[string]any{
		"round": pr.row.Number, "result": stored, "transaction": txn.ID}); err != nil {
		return nil, err
	}
	return end, nil
}

// checkPostings confirms that the ledger moved exactly the engine's money:
// each player's net posting equals their payouts and per-point receipts
// minus their per-point payments.
func checkPostings(txn ledger.Transaction, s game.Settlement) error {
	want := map[int64]int64{}
	for _, p := range s.Payouts {
		want[pid(p.Player)] += p.Amount
	}
	for _, p := range s.PerPoint {
		want[pid(p.From)] -= p.Amount
		want[pid(p.To)] += p.Amount
	}
	got := map[int64]int64{}
	for _, p := range txn.Postings {
		if p.PlayerID != 0 {
			got[p.PlayerID] += p.Amount
		}
	}
	for id, amt := range want {
		if got[id] != amt {
			return fmt.Errorf("ledger moved %d for player %d, the engine decided %d", got[id], id, amt)
		}
		delete(got, id)
	}
	for id, amt := range got {
		if amt != 0 {
			return fmt.Errorf("ledger moved %d for player %d, the engine decided nothing", amt, id)
		}
	}
	return nil
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

// recordTurns writes the turns that these actions finished into the turns
// table: each player's outcome, in play order, as the engine judged it.
// The audit checks every one against a replay.
func recordTurns(ctx context.Context, tx pgx.Tx, pr *playedRound, before game.RoundState) error {
	after := pr.round.State()
	for i, ps := range after.Players {
		if ps.Status != game.StatusDone || before.Players[i].Status == game.StatusDone {
			continue
		}
		outcome, err := json.Marshal(ps.Outcome)
		if err != nil {
			return err
		}
		if err := db.TurnInsert(ctx, tx, pr.row.ID, pid(ps.Player), i+1, outcome); err != nil {
			return err
		}
	}
	return nil
}
