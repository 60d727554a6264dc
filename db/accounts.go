package db

import (
	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// Account kinds: one account per player, and per table one pot and one
// world account (the bank: cash coming in and going out).
const (
	AccountPlayer = "player"
	AccountPot    = "pot"
	AccountWorld  = "world"
)

// Account is a ledger account and its balance, which the database keeps
// equal to the sum of its postings. Player is set for player accounts.
type Account struct {
	ID      int64
	Kind    string
	Player  game.PlayerID
	Balance int64
}

// AccountList queues reading every account of a table, by id. Accounts are
// made with their table (the pot and the bank) and their player, so a
// writer holding the table's lock reads every account it may post to.
func (b *Batch) AccountList(tableID int64, out *[]Account) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.AccountList(b.ctx, q, tableID)
		*out = toAccounts(rows)
		return err
	})
}

// toAccounts converts account rows.
func toAccounts(rows []dbsqlc.Account) []Account {
	out := make([]Account, len(rows))
	for i, r := range rows {
		out[i] = Account{ID: r.ID, Kind: r.Kind, Player: playerOf(r.PlayerID), Balance: r.Balance}
	}
	return out
}

// playerOf is a nullable player id column as the engine's id (0 for none).
func playerOf(id *int64) game.PlayerID {
	if id == nil {
		return 0
	}
	return game.PlayerID(*id)
}
