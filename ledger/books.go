package ledger

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// Books are a table's accounts as read by a writer holding the table's
// lock: nobody else moves them until it commits, so the balances here are
// the balances, and an entry judged against them can be written as it is.
type Books struct {
	currency    string
	noOverdraft bool
	accounts    map[Account]db.Account
	names       map[game.PlayerID]string
}

// NewBooks are the books of a table from its accounts and players.
func NewBooks(t db.Table, accounts []db.Account, players []db.Player) *Books {
	b := &Books{currency: t.Currency, noOverdraft: t.NoOverdraft, accounts: make(map[Account]db.Account, len(accounts)),
		names: make(map[game.PlayerID]string, len(players))}
	for _, a := range accounts {
		b.accounts[Account{Kind: a.Kind, Player: a.Player}] = a
	}
	for _, p := range players {
		b.names[p.ID] = p.Name
	}
	return b
}

// Balance is an account's balance.
func (b *Books) Balance(a Account) int64 { return b.accounts[a].Balance }

// Posted is an entry that passed the checks: the journal entry to store and
// what the audit log records of it.
type Posted struct {
	Journal db.JournalEntry
	Event   Event
}

// Event is the payload of a ledger.<kind> audit event.
type Event struct {
	Memo     string         `json:"memo,omitempty"`
	Metadata any            `json:"metadata,omitempty"`
	Postings []EventPosting `json:"postings"`
	Round    int            `json:"round,omitempty"`
}

// EventPosting is one line of an audit event: "player:7", "pot" or "world".
type EventPosting struct {
	Account string `json:"account"`
	Amount  int64  `json:"amount"`
}

// Post checks an entry against the books and, if it may be written, moves
// the balances here and returns what to store. Lines on one account are
// merged first, so what counts is each account's net movement. Nothing
// changes when a check fails.
func (b *Books) Post(e Entry) (Posted, error) {
	lines := mergeLines(e.Lines)
	var sum int64
	for _, l := range lines {
		sum += l.Amount
		if _, ok := b.accounts[l.Account]; !ok {
			if l.Account.Kind == db.AccountPlayer {
				return Posted{}, fmt.Errorf("%w: player %d has no account at this table", ErrUnknownPlayer, l.Account.Player)
			}
			return Posted{}, fmt.Errorf("the table has no %s account", l.Account.Kind)
		}
	}
	if sum != 0 {
		return Posted{}, fmt.Errorf("%w: a %s entry's lines sum to %d", ErrUnbalanced, e.Kind, sum)
	}
	if err := b.checkFunds(lines); err != nil {
		return Posted{}, err
	}
	p := Posted{Journal: db.JournalEntry{Kind: string(e.Kind), Round: e.Round, Memo: e.Memo},
		Event: Event{Memo: e.Memo, Metadata: e.Meta, Round: e.Round, Postings: make([]EventPosting, 0, len(lines))}}
	if e.Meta != nil {
		meta, err := json.Marshal(e.Meta)
		if err != nil {
			return Posted{}, fmt.Errorf("%s metadata: %w", e.Kind, err)
		}
		p.Journal.Metadata = meta
	}
	for _, l := range lines {
		acct := b.accounts[l.Account]
		p.Journal.Postings = append(p.Journal.Postings, db.Posting{AccountID: acct.ID, Kind: acct.Kind, Player: acct.Player,
			Amount: l.Amount})
		p.Event.Postings = append(p.Event.Postings, EventPosting{Account: l.Account.String(), Amount: l.Amount})
		acct.Balance += l.Amount
		b.accounts[l.Account] = acct
	}
	return p, nil
}

// mergeLines sums the lines of each account, keeping first-seen order and
// dropping accounts whose lines cancel out.
func mergeLines(lines []Line) []Line {
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		if i := slices.IndexFunc(out, func(o Line) bool { return o.Account == l.Account }); i >= 0 {
			out[i].Amount += l.Amount
		} else {
			out = append(out, l)
		}
	}
	return slices.DeleteFunc(out, func(l Line) bool { return l.Amount == 0 })
}

// checkFunds refuses, at a no_overdraft table, lines that would take a
// player below zero; and, at every table, lines that would overdraw the pot
// (the pot is the players' money in the middle and cannot owe anyone) or
// take any account beyond MaxBalance.
func (b *Books) checkFunds(lines []Line) error {
	for _, l := range lines {
		have := b.Balance(l.Account)
		if l.Amount > MaxBalance || l.Amount < -MaxBalance || have+l.Amount > MaxBalance || have+l.Amount < -MaxBalance {
			return fmt.Errorf("%w: %s would hold %s, beyond the limit of %d either side of zero",
				ErrInvalidAmount, b.accountName(l.Account), Units(have+l.Amount, b.currency), MaxBalance)
		}
		if l.Amount >= 0 || have+l.Amount >= 0 {
			continue
		}
		switch {
		case l.Account == Pot:
			return fmt.Errorf("%w: the pot holds %d, cannot pay out %d", ErrPotEmpty, have, -l.Amount)
		case l.Account.Kind == db.AccountPlayer && b.noOverdraft:
			return fmt.Errorf("%w: %s has %s, not the %d this needs; nobody may go below zero at this table (a buy-in adds to a balance)",
				ErrInsufficientFunds, b.accountName(l.Account), Units(have, b.currency), -l.Amount)
		}
	}
	return nil
}

// accountName names an account in an error: the player's name, "the pot",
// "the bank".
func (b *Books) accountName(a Account) string {
	switch a.Kind {
	case db.AccountPot:
		return "the pot"
	case db.AccountWorld:
		return "the bank"
	}
	if name, ok := b.names[a.Player]; ok {
		return name
	}
	return "player " + a.Player.String()
}

// Accounts are the accounts as posted so far, by id.
func (b *Books) Accounts() []db.Account {
	out := make([]db.Account, 0, len(b.accounts))
	for _, a := range b.accounts {
		out = append(out, a)
	}
	slices.SortFunc(out, func(x, y db.Account) int { return int(x.ID - y.ID) })
	return out
}
