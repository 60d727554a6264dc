package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
)

// Bank stands for the world account wherever a player id is expected: in
// settle-up plans and settlement payments. Player ids start at 1, so 0 is
// never a player.
const Bank int64 = 0

// Kind names a journal transaction's movement.
type Kind string

// The movement kinds, as stored in journal_transactions.kind.
const (
	KindAnte        Kind = "ante"
	KindPayout      Kind = "payout"
	KindSplit       Kind = "split"
	KindCarry       Kind = "carry"
	KindPerPoint    Kind = "per_point"
	KindDeposit     Kind = "deposit"
	KindWithdrawal  Kind = "withdrawal"
	KindSettlement  Kind = "settlement"
	KindCloseOut    Kind = "close_out"
	KindRoundSettle Kind = "round_settle"
)

// Transaction is a journal transaction as the ledger reports it.
type Transaction struct {
	ID        int64          `json:"id"`
	TableID   int64          `json:"tableId"`
	Kind      Kind           `json:"kind"`
	RoundID   *int64         `json:"roundId,omitempty"`
	Memo      string         `json:"memo,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt time.Time      `json:"createdAt"`
	Postings  []Posting      `json:"postings"`
}

// Posting is one line of a Transaction.
type Posting struct {
	AccountID int64  `json:"accountId"`
	Account   string `json:"account"`            // "player", "pot" or "world"
	PlayerID  int64  `json:"playerId,omitempty"` // set for player accounts
	Name      string `json:"name,omitempty"`     // the player's name, in statements
	Amount    int64  `json:"amount"`
}

// line is a posting before it is written: an account role and an amount.
type line struct {
	ref    db.AccountRef
	amount int64
}

// playerRef, potRef and worldRef name accounts by role.
func playerRef(id int64) db.AccountRef { return db.AccountRef{Kind: db.AccountPlayer, PlayerID: id} }

var (
	potRef   = db.AccountRef{Kind: db.AccountPot}
	worldRef = db.AccountRef{Kind: db.AccountWorld}
)

// partyRef is the account of a settle-up party: a player, or the world
// account for Bank.
func partyRef(id int64) db.AccountRef {
	if id == Bank {
		return worldRef
	}
	return playerRef(id)
}

// books is a table locked for writing, with the accounts a movement uses
// and the head of its audit log.
type books struct {
	table     db.Table
	accounts  map[db.AccountRef]db.Account
	lastEvent *db.Event
}

// lockBooks takes the locks every movement needs, always in this order:
// the table row FOR UPDATE first, which serializes all writers of one table
// (so audit sequence numbers are gap-free and balances are read and checked
// without a race), then the accounts FOR UPDATE sorted by id. Accounts are
// created on first use with INSERT ... ON CONFLICT DO NOTHING before they are
// locked. One fixed order for every writer means no two transactions can
// each hold a lock the other waits for. db.BooksLock does it all in one
// round trip.
func lockBooks(ctx context.Context, tx pgx.Tx, tableID int64, allowClosed bool, refs ...db.AccountRef) (*books, error) {
	locked, err := db.BooksLock(ctx, tx, tableID, uniqueRefs(refs))
	switch {
	case errors.Is(err, db.ErrNotFound) && locked.Table.ID == 0:
		return nil, fmt.Errorf("%w: %d", ErrTableNotFound, tableID)
	case errors.Is(err, db.ErrNotFound):
		// The database's own words (a foreign key) mean nothing to a
		// player; name the players asked for instead.
		var players []int64
		for _, r := range refs {
			if r.Kind == db.AccountPlayer {
				players = append(players, r.PlayerID)
			}
		}
		return nil, fmt.Errorf("%w: not every one of players %v sits at table %d", ErrUnknownPlayer, players, tableID)
	case err != nil:
		return nil, err
	}
	if locked.Table.Status == db.TableClosed && !allowClosed {
		return nil, fmt.Errorf("%w: table %d", ErrTableClosed, tableID)
	}
	b := &books{table: locked.Table, accounts: make(map[db.AccountRef]db.Account, len(locked.Accounts)), lastEvent: locked.LastEvent}
	for _, a := range locked.Accounts {
		ref := db.AccountRef{Kind: a.Kind}
		if a.PlayerID != nil {
			ref.PlayerID = *a.PlayerID
		}
		b.accounts[ref] = a
	}
	return b, nil
}

// uniqueRefs drops repeated account references.
func uniqueRefs(refs []db.AccountRef) []db.AccountRef {
	out := make([]db.AccountRef, 0, len(refs))
	for _, r := range refs {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// balance is the locked balance of an account (0 if it has none yet).
func (b *books) balance(ref db.AccountRef) int64 { return b.accounts[ref].Balance }

// entry is a movement ready to be written.
type entry struct {
	kind    Kind
	roundID *int64
	memo    string
	meta    map[string]any
	lines   []line
}

// write checks an entry against the table's rules, then writes its journal
// transaction and appends the matching audit event. Nothing is written when
// a check fails. Lines on one account are merged.
func (b *books) write(ctx context.Context, tx pgx.Tx, e entry) (Transaction, error) {
	merged := mergeLines(e.lines)
	if err := b.checkFunds(ctx, tx, merged); err != nil {
		return Transaction{}, err
	}
	params := db.JournalInsertParams{TableID: b.table.ID, Kind: string(e.kind), RoundID: e.roundID, Memo: e.memo}
	if e.meta != nil {
		raw, err := json.Marshal(e.meta)
		if err != nil {
			return Transaction{}, fmt.Errorf("encode %s metadata: %w", e.kind, err)
		}
		params.Metadata = raw
	}
	t := Transaction{TableID: b.table.ID, Kind: e.kind, RoundID: e.roundID, Memo: e.memo, Metadata: e.meta}
	for _, l := range merged {
		acct := b.accounts[l.ref]
		params.Postings = append(params.Postings, db.PostingParams{AccountID: acct.ID, Amount: l.amount})
		t.Postings = append(t.Postings, Posting{AccountID: acct.ID, Account: l.ref.Kind, PlayerID: l.ref.PlayerID, Amount: l.amount})
	}
	row, err := db.JournalInsert(ctx, tx, params)
	if err != nil {
		return Transaction{}, err
	}
	t.ID, t.CreatedAt = row.ID, row.CreatedAt
	for _, l := range merged {
		acct := b.accounts[l.ref]
		acct.Balance += l.amount
		b.accounts[l.ref] = acct
	}
	ev, err := appendAfter(ctx, tx, b.table.ID, b.lastEvent, "ledger."+string(e.kind), eventPayload(t))
	if err != nil {
		return Transaction{}, err
	}
	b.lastEvent = &ev
	return t, nil
}

// mergeLines sums the lines of each account, keeping first-seen order and
// dropping accounts whose lines cancel out.
func mergeLines(lines []line) []line {
	var out []line
	for _, l := range lines {
		i := slices.IndexFunc(out, func(o line) bool { return o.ref == l.ref })
		if i < 0 {
			out = append(out, l)
		} else {
			out[i].amount += l.amount
		}
	}
	return slices.DeleteFunc(out, func(l line) bool { return l.amount == 0 })
}

// checkFunds refuses, at a no_overdraft table, lines that would take a
// player below zero; and, at every table, lines that would overdraw the pot
// (the pot is the players' money in the middle and cannot owe anyone) or
// take any account beyond MaxBalance.
func (b *books) checkFunds(ctx context.Context, tx pgx.Tx, lines []line) error {
	for _, l := range lines {
		after := b.balance(l.ref) + l.amount
		if after > MaxBalance || after < -MaxBalance {
			return fmt.Errorf("%w: %s would hold %d %s, beyond the limit of %d either side of zero",
				ErrInvalidAmount, accountName(l.ref), after, b.table.Currency, MaxBalance)
		}
		if l.amount >= 0 || after >= 0 {
			continue
		}
		switch {
		case l.ref == potRef:
			return fmt.Errorf("%w: the pot holds %d, cannot pay out %d", ErrPotEmpty, b.balance(l.ref), -l.amount)
		case l.ref.Kind == db.AccountPlayer && b.table.NoOverdraft:
			name := fmt.Sprintf("player %d", l.ref.PlayerID)
			if p, err := db.PlayerGet(ctx, tx, l.ref.PlayerID); err == nil {
				name = p.Name
			}
			return fmt.Errorf("%w: %s has %d %s, not the %d this needs; nobody may go below zero at this table (a buy-in adds to a balance)",
				ErrInsufficientFunds, name, b.balance(l.ref), b.table.Currency, -l.amount)
		}
	}
	return nil
}

// accountName names an account in an error: "player 7", "the pot", "the
// bank".
func accountName(ref db.AccountRef) string {
	switch ref.Kind {
	case db.AccountPot:
		return "the pot"
	case db.AccountWorld:
		return "the bank"
	}
	return fmt.Sprintf("player %d", ref.PlayerID)
}

// eventPayload is what the audit log records of a transaction.
func eventPayload(t Transaction) map[string]any {
	postings := make([]map[string]any, len(t.Postings))
	for i, p := range t.Postings {
		account := p.Account
		if p.Account == db.AccountPlayer {
			account = fmt.Sprintf("player:%d", p.PlayerID)
		}
		postings[i] = map[string]any{"account": account, "amount": p.Amount}
	}
	payload := map[string]any{"transaction": t.ID, "postings": postings}
	if t.RoundID != nil {
		payload["round"] = *t.RoundID
	}
	if t.Memo != "" {
		payload["memo"] = t.Memo
	}
	if len(t.Metadata) > 0 {
		payload["metadata"] = t.Metadata
	}
	return payload
}
