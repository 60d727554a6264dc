package ledger

import (
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// PlayerBalance is a player's position at a table: positive means the table
// owes them, negative means they owe the table.
type PlayerBalance struct {
	PlayerID game.PlayerID `json:"playerId"`
	Name     string        `json:"name"`
	Seat     int           `json:"seat"`
	Left     bool          `json:"left,omitempty"`
	Balance  int64         `json:"balance"`
}

// BalanceSheet is every balance of a table. Players + Pot + World is always
// zero.
type BalanceSheet struct {
	Currency string          `json:"currency"`
	Players  []PlayerBalance `json:"players"`
	Pot      int64           `json:"pot"`
	World    int64           `json:"world"`
}

// Sheet is a table's balance sheet, listing every player ever seated (by
// seat), those who left included.
func Sheet(currency string, accounts []db.Account, players []db.Player) BalanceSheet {
	sheet := BalanceSheet{Currency: currency, Players: make([]PlayerBalance, 0, len(players))}
	byPlayer := make(map[game.PlayerID]int64, len(accounts))
	for _, a := range accounts {
		switch a.Kind {
		case db.AccountPot:
			sheet.Pot = a.Balance
		case db.AccountWorld:
			sheet.World = a.Balance
		case db.AccountPlayer:
			byPlayer[a.Player] = a.Balance
		}
	}
	for _, p := range players {
		sheet.Players = append(sheet.Players, PlayerBalance{PlayerID: p.ID, Name: p.Name, Seat: p.Seat,
			Left: p.LeftAt != nil, Balance: byPlayer[p.ID]})
	}
	return sheet
}

// Total is the sum of every balance, which the books keep at zero.
func (s BalanceSheet) Total() int64 {
	total := s.Pot + s.World
	for _, p := range s.Players {
		total += p.Balance
	}
	return total
}
