package play

import (
	"context"
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// PlayerView is a seat as the API shows it.
type PlayerView struct {
	ID      int64      `json:"id"`
	Name    string     `json:"name"`
	Seat    int        `json:"seat"`
	Claimed bool       `json:"claimed"`
	LeftAt  *time.Time `json:"leftAt,omitempty"`
}

func playerView(p db.Player) PlayerView {
	return PlayerView{ID: p.ID, Name: p.Name, Seat: p.Seat, Claimed: p.ClaimedAt != nil, LeftAt: p.LeftAt}
}

// TableView is a table as the API shows it.
type TableView struct {
	ID           int64        `json:"id"`
	Name         string       `json:"name"`
	Ruleset      game.Ruleset `json:"ruleset"`
	Currency     string       `json:"currency"`
	NoOverdraft  bool         `json:"noOverdraft"`
	Status       string       `json:"status"`
	JoinCode     string       `json:"joinCode,omitempty"`
	Players      []PlayerView `json:"players"`
	Pot          int64        `json:"pot"`
	CurrentRound int          `json:"currentRound,omitempty"`
	RoundsPlayed int          `json:"roundsPlayed"`
	Game         *GameView    `json:"game,omitempty"`
	CreatedAt    time.Time    `json:"createdAt"`
	ClosedAt     *time.Time   `json:"closedAt,omitempty"`
}

// GameView is the running state of a game of rounds (Scarne).
type GameView struct {
	Totals  []TotalView `json:"totals"`
	Over    bool        `json:"over"`
	Winner  int64       `json:"winner,omitempty"`
	Playoff []int64     `json:"playoff,omitempty"`
}

// TotalView is a player's points in a game of rounds.
type TotalView struct {
	Player int64 `json:"player"`
	Total  int64 `json:"total"`
}

// Table reads a table as viewer may see it: the join code is shown to the
// host and players, not to the auditor.
func Table(ctx context.Context, q db.DBTX, tableID int64, viewer Principal) (TableView, error) {
	st, err := load(ctx, q, tableID)
	if err != nil {
		return TableView{}, err
	}
	return st.view(ctx, q, viewer)
}

func (st *tableState) view(ctx context.Context, q db.DBTX, viewer Principal) (TableView, error) {
	t := st.table
	v := TableView{ID: t.ID, Name: t.Name, Ruleset: st.rs, Currency: t.Currency, NoOverdraft: t.NoOverdraft,
		Status: t.Status, Players: []PlayerView{}, CreatedAt: t.CreatedAt, ClosedAt: t.ClosedAt}
	if viewer.Role != RoleAudit {
		v.JoinCode = t.JoinCode
	}
	for _, p := range st.players {
		v.Players = append(v.Players, playerView(p))
	}
	sheet, err := ledger.Balances(ctx, q, t.ID)
	if err != nil {
		return TableView{}, err
	}
	v.Pot = sheet.Pot
	if r := st.last; r != nil {
		v.RoundsPlayed = r.row.Number
		if r.row.Status == db.RoundOpen {
			v.CurrentRound, v.RoundsPlayed = r.row.Number, r.row.Number-1
		}
	}
	if st.rs.Goal.Kind != game.GoalRound && st.game != nil {
		gv := &GameView{Totals: []TotalView{}, Over: st.game.Over()}
		for _, tot := range st.game.Totals() {
			gv.Totals = append(gv.Totals, TotalView{Player: pid(tot.Player), Total: tot.Points})
		}
		if res, ok := st.game.Result(); ok {
			gv.Winner = pid(res.Winner)
		}
		gv.Playoff = pids(st.game.Playoff())
		v.Game = gv
	}
	return v, nil
}

// RoundView is a round as the API shows it to one viewer.
type RoundView struct {
	Number      int          `json:"number"`
	Status      string       `json:"status"`
	Players     []int64      `json:"players"`
	Playoff     bool         `json:"playoff,omitempty"`
	Declared    int          `json:"declared,omitempty"`
	Declarer    int64        `json:"declarer,omitempty"`
	Turn        int64        `json:"turn,omitempty"`
	Next        *game.Next   `json:"next,omitempty"`
	Point       *int         `json:"point,omitempty"`
	Hammer      int64        `json:"hammer,omitempty"`
	Pot         int64        `json:"pot"`
	Claimable   int64        `json:"claimableAutomatic,omitempty"`
	MayLiftCups bool         `json:"mayLiftCups,omitempty"`
	Turns       []TurnView   `json:"turns"`
	Result      *ResultView  `json:"result,omitempty"`
	Game        *GameEndView `json:"game,omitempty"`
	setup       game.RoundSetup
}

// TurnView is one player's part of a round.
type TurnView struct {
	Player       int64        `json:"player"`
	Status       string       `json:"status"`
	Outcome      game.Outcome `json:"outcome"`
	Revealed     bool         `json:"revealed,omitempty"`
	AutomaticWon bool         `json:"automaticWon,omitempty"`
}

// ResultView is a settled round's result.
type ResultView struct {
	Kind       string         `json:"kind"`
	Scores     []ScoreView    `json:"scores"`
	Winners    []int64        `json:"winners"`
	Playoff    []int64        `json:"playoff,omitempty"`
	Automatic  bool           `json:"automatic,omitempty"`
	Settlement SettlementView `json:"settlement"`
}

// ScoreView is one player's score in a result.
type ScoreView struct {
	Player    int64 `json:"player"`
	Qualified bool  `json:"qualified"`
	Score     int   `json:"score"`
	Automatic bool  `json:"automatic,omitempty"`
	Forfeited bool  `json:"forfeited,omitempty"`
}

// SettlementView is the money of a round, as the engine decided it.
type SettlementView struct {
	Antes     []AmountView  `json:"antes"`
	PotBefore int64         `json:"potBefore"`
	Payouts   []AmountView  `json:"payouts"`
	CarryOver int64         `json:"carryOver"`
	Remainder int64         `json:"remainder"`
	PerPoint  []PaymentView `json:"perPoint"`
}

// AmountView is an amount for one player.
type AmountView struct {
	Player int64 `json:"player"`
	Amount int64 `json:"amount"`
}

// PaymentView is money from one player to another.
type PaymentView struct {
	From   int64 `json:"from"`
	To     int64 `json:"to"`
	Amount int64 `json:"amount"`
}

// GameEndView is the end of a game of rounds, shown on the round that ended it.
type GameEndView struct {
	Winner     int64          `json:"winner"`
	Totals     []TotalView    `json:"totals"`
	Settlement SettlementView `json:"settlement"`
}

// liveView is a round being played as who may see it. The host records for
// everyone (one phone at the table is a common way to play), so the host is
// also told whose closed automatic may still be claimed, though not its dice.
func liveView(number int, r *game.Round, who Principal) RoundView {
	v := roundView(number, "playing", r.View(viewerOf(who)), nil)
	if who.Role == RoleHost {
		v.Claimable = pid(r.State().Claimable)
	}
	return v
}

func roundView(number int, status string, st game.RoundState, res *game.Result) RoundView {
	v := RoundView{Number: number, Status: status, Players: []int64{}, Playoff: st.Playoff, Declared: st.Declared,
		Declarer: pid(st.Declarer), Turn: pid(st.Turn), Point: st.Point, Hammer: pid(st.Hammer), Pot: st.Pot,
		Claimable: pid(st.Claimable), MayLiftCups: st.MayLiftCups, Turns: []TurnView{}}
	if !st.Over {
		next := st.Next
		v.Next = &next
	}
	for _, p := range st.Players {
		v.Players = append(v.Players, pid(p.Player))
		v.Turns = append(v.Turns, TurnView{Player: pid(p.Player), Status: string(p.Status), Outcome: p.Outcome,
			Revealed: p.Revealed, AutomaticWon: p.AutomaticWon})
	}
	if res != nil {
		rv := resultView(*res)
		v.Result = &rv
	}
	return v
}

func resultView(res game.Result) ResultView {
	v := ResultView{Kind: string(res.Kind), Scores: []ScoreView{}, Winners: pids(res.Winners),
		Playoff: pids(res.Playoff), Automatic: res.Automatic, Settlement: settlementView(res.Settlement)}
	for _, s := range res.Scores {
		v.Scores = append(v.Scores, ScoreView{Player: pid(s.Player), Qualified: s.Qualified, Score: s.Score,
			Automatic: s.Automatic, Forfeited: s.Forfeited})
	}
	return v
}

func settlementView(s game.Settlement) SettlementView {
	v := SettlementView{Antes: amounts(s.Antes), PotBefore: s.PotBefore, Payouts: amounts(s.Payouts),
		CarryOver: s.CarryOver, Remainder: s.Remainder, PerPoint: []PaymentView{}}
	for _, p := range s.PerPoint {
		v.PerPoint = append(v.PerPoint, PaymentView{From: pid(p.From), To: pid(p.To), Amount: p.Amount})
	}
	return v
}

func amounts(in []game.Amount) []AmountView {
	out := make([]AmountView, 0, len(in))
	for _, a := range in {
		out = append(out, AmountView{Player: pid(a.Player), Amount: a.Amount})
	}
	return out
}

// sid is a player id as the engine sees it; pid is the way back.
func sid(id int64) game.PlayerID { return game.PlayerID(id) }

func pid(p game.PlayerID) int64 { return int64(p) }

func pids(in []game.PlayerID) []int64 {
	out := make([]int64, 0, len(in))
	for _, s := range in {
		out = append(out, pid(s))
	}
	return out
}
