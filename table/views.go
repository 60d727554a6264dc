package table

import (
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/pay"
)

// This file is what the service answers with: the shapes openapi.yaml
// describes. Engine values (a turn's outcome, a result, a settlement) are
// shown as the engine gives them.

// PlayerView is a seat.
type PlayerView struct {
	ID      game.PlayerID `json:"id"`
	Name    string        `json:"name"`
	Seat    int           `json:"seat"`
	Claimed bool          `json:"claimed"`
	// ClaimedAt is when a phone joined as this player with the join code:
	// the host phone tells the host of every new one.
	ClaimedAt *time.Time `json:"claimedAt,omitempty"`
	LeftAt    *time.Time `json:"leftAt,omitempty"`
	// Member is, at a crew's night, the crew member this player is.
	Member game.PlayerID `json:"member,omitempty"`
	// Host marks the host's own seat: the host plays it from the host's
	// phone, and no phone joins as it with the code.
	Host bool `json:"host,omitempty"`
}

func playerView(p db.Player) PlayerView {
	return PlayerView{ID: p.ID, Name: p.Name, Seat: p.Seat, Claimed: p.ClaimedAt != nil, ClaimedAt: p.ClaimedAt, LeftAt: p.LeftAt,
		Member: p.Member, Host: p.Host}
}

// TableView is a table.
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
	// Royale is set at a Battleship Royale table.
	Royale    *RoyaleSummary `json:"royale,omitempty"`
	CreatedAt time.Time      `json:"createdAt"`
	ClosedAt  *time.Time     `json:"closedAt,omitempty"`
	// Kind is "crew" for a crew, which plays no rounds (crews.go); Crew is
	// the crew a night was made for.
	Kind string `json:"kind,omitempty"`
	Crew int64  `json:"crew,omitempty"`
	// UnitValue is what one unit is worth, when the host said.
	UnitValue *UnitValueView `json:"unitValue,omitempty"`
}

// GameView is the running state of a game of rounds (Scarne).
type GameView struct {
	Totals  []game.Total    `json:"totals"`
	Over    bool            `json:"over"`
	Winner  game.PlayerID   `json:"winner,omitempty"`
	Playoff []game.PlayerID `json:"playoff,omitempty"`
}

// RoyaleSummary is a Battleship Royale table's options and games: the
// number of the game being played (0 for none) and how many have ended.
type RoyaleSummary struct {
	Options royale.Options `json:"options"`
	Current int            `json:"currentGame,omitempty"`
	Games   int            `json:"gamesPlayed"`
}

// view is the table as viewer may see it: the join code is shown to the
// host and players, not to the auditor.
func (st *tableState) view(viewer Principal) TableView {
	t := st.row
	v := TableView{ID: t.ID, Name: t.Name, Ruleset: t.Rules, Currency: t.Currency, NoOverdraft: t.NoOverdraft,
		Status: t.Status, Players: make([]PlayerView, 0, len(st.players)), CreatedAt: t.CreatedAt, ClosedAt: t.ClosedAt,
		Crew: t.Crew, UnitValue: unitValueView(t)}
	if viewer.Role != RoleAudit {
		v.JoinCode = t.JoinCode
	}
	for _, p := range st.players {
		v.Players = append(v.Players, playerView(p))
	}
	for _, a := range st.accounts {
		if a.Kind == db.AccountPot {
			v.Pot = a.Balance
		}
	}
	st.game.view(&v)
	return v
}

// RoundView is a round as one viewer may see it.
type RoundView struct {
	Number int    `json:"number"`
	Status string `json:"status"`
	// Actions is how many actions the round has recorded, take-backs
	// included: a phone sends it back as an action's seen (seen.go).
	Actions     int                `json:"actions"`
	Players     []game.PlayerID    `json:"players"`
	Playoff     bool               `json:"playoff,omitempty"`
	Declared    int                `json:"declared,omitempty"`
	Declarer    game.PlayerID      `json:"declarer,omitempty"`
	Turn        game.PlayerID      `json:"turn,omitempty"`
	Next        *game.Next         `json:"next,omitempty"`
	Point       *int               `json:"point,omitempty"`
	Hammer      game.PlayerID      `json:"hammer,omitempty"`
	Pot         int64              `json:"pot"`
	Claimable   game.PlayerID      `json:"claimableAutomatic,omitempty"`
	MayLiftCups bool               `json:"mayLiftCups,omitempty"`
	Turns       []game.PlayerState `json:"turns"`
	Result      *game.Result       `json:"result,omitempty"`
	Game        *game.GameResult   `json:"game,omitempty"`
}

// The round statuses a RoundView shows.
const (
	statusPlaying  = "playing"
	statusSettled  = "settled"
	statusReversed = "reversed" // reversed by the host (corrections.go)
)

// liveView is a round being played as who may see it. The host sees what
// the whole table sees, its own seat's closed rolls besides, though it
// records for everyone: being told whose closed automatic may still be
// claimed would tell it a 6-6 under the cup. It is told only of one it
// recorded itself (hostThrew), whose dice it typed, and which it may
// claim for that player (mayClaimFor).
func (pr *playedRound) liveView(who Principal) RoundView {
	st := pr.round.View(who.viewer())
	if c := pr.round.Claimable(); who.Role == RoleHost && c != 0 && pr.hostThrew(c) {
		st.Claimable = c
	}
	return roundView(pr.row.Number, len(pr.actions), statusPlaying, st, nil)
}

// hostThrew says whether the host's phone recorded player's latest throw
// standing in the round for them (db.Action.ByHost). A throw stored before
// the table kept it (nil) is not known to be the host's: it is not.
func (pr *playedRound) hostThrew(player game.PlayerID) bool {
	standing, err := standingActions(pr.actions)
	if err != nil {
		return false
	}
	for i := len(standing) - 1; i >= 0; i-- {
		if a := standing[i]; a.Action.Player == player && a.Action.Kind == game.ActionRoll {
			return a.ByHost != nil && *a.ByHost
		}
	}
	return false
}

// roundView is a round of number that has recorded actions, in state st.
func roundView(number, actions int, status string, st game.RoundState, res *game.Result) RoundView {
	v := RoundView{Number: number, Actions: actions, Status: status, Players: make([]game.PlayerID, 0, len(st.Players)), Playoff: st.Playoff,
		Declared: st.Declared, Declarer: st.Declarer, Turn: st.Turn, Point: st.Point, Hammer: st.Hammer, Pot: st.Pot,
		Claimable: st.Claimable, MayLiftCups: st.MayLiftCups, Turns: st.Players, Result: res}
	if !st.Over {
		next := st.Next
		v.Next = &next
	}
	for _, p := range st.Players {
		v.Players = append(v.Players, p.Player)
	}
	return v
}

// BalancesView is a table's balance sheet, with the world account called
// the bank.
type BalancesView struct {
	Currency string                 `json:"currency"`
	Pot      int64                  `json:"pot"`
	Bank     int64                  `json:"bank"`
	Players  []ledger.PlayerBalance `json:"players"`
	// Value is what a unit is worth, when the host said (payments.go);
	// Worth is then each player's balance in that currency, in the order
	// of Players.
	Value *UnitValueView `json:"value,omitempty"`
	Worth []*pay.Money   `json:"worth,omitempty"`
}

func balancesView(row db.Table, sheet ledger.BalanceSheet) BalancesView {
	v := BalancesView{Currency: sheet.Currency, Pot: sheet.Pot, Bank: sheet.World, Players: sheet.Players, Value: unitValueView(row)}
	if v.Value != nil {
		v.Worth = make([]*pay.Money, len(sheet.Players))
		for i, p := range sheet.Players {
			v.Worth[i] = worth(row, p.Balance)
		}
	}
	return v
}

// SettleUpView is a settle-up plan with who owes whom in plain words and,
// for each payment, its worth and how the payee likes to be paid
// (settleup.go); and the table's payment claims.
type SettleUpView struct {
	ledger.SettlePlan
	Owes      []string       `json:"owes"`
	Value     *UnitValueView `json:"value,omitempty"`
	Transfers []TransferView `json:"transfers"`
	Claims    []ClaimView    `json:"claims"`
}
