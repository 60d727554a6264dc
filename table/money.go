package table

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// Balances reads the table's balance sheet.
func (s *Service) Balances(ctx context.Context, a Auth) (BalancesView, error) {
	r, _, err := s.read(ctx, a, readPlan{accounts: true})
	if err != nil {
		return BalancesView{}, err
	}
	return balancesView(r.row, ledger.Sheet(r.row.Currency, r.Accounts, r.Players)), nil
}

// Statement reads the table's journal, every transaction with its postings.
func (s *Service) Statement(ctx context.Context, a Auth) ([]ledger.Transaction, error) {
	var journal []db.JournalEntry
	r, _, err := s.read(ctx, a, readPlan{history: func(b *db.Batch) { b.JournalList(a.TableID, &journal) }})
	if err != nil {
		return nil, err
	}
	return ledger.Statement(a.TableID, journal, r.Players)
}

// LedgerPage is one page of a table's journal, oldest first; Next is the
// cursor of the next page, empty on the last.
type LedgerPage struct {
	Transactions []ledger.Transaction `json:"transactions"`
	Next         string               `json:"next,omitempty"`
}

// Ledger reads at most limit transactions of the table's journal after the
// one whose id is after, each with its postings. The cursor is the last
// transaction's id, so a page never shifts when money moves meanwhile.
func (s *Service) Ledger(ctx context.Context, a Auth, after int64, limit int) (LedgerPage, error) {
	var journal []db.JournalEntry
	r, _, err := s.read(ctx, a, readPlan{history: func(b *db.Batch) {
		// One more than a page says whether there is a next page.
		b.JournalPage(a.TableID, after, limit+1, &journal)
	}})
	if err != nil {
		return LedgerPage{}, err
	}
	var page LedgerPage
	if len(journal) > limit {
		journal = journal[:limit]
		page.Next = strconv.FormatInt(journal[limit-1].ID, 10)
	}
	page.Transactions, err = ledger.Statement(a.TableID, journal, r.Players)
	return page, err
}

// StatementCSV is the table's journal as a spreadsheet (ledger.WriteCSV).
func (s *Service) StatementCSV(ctx context.Context, a Auth) ([]byte, error) {
	statement, err := s.Statement(ctx, a)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = ledger.WriteCSV(&buf, statement)
	return buf.Bytes(), err
}

// CashInput is a buy-in or a cash-out.
type CashInput struct {
	Player game.PlayerID `json:"player"`
	Amount int64         `json:"amount"`
}

// Deposit records a player's buy-in; the host, who holds the bank, does.
func (s *Service) Deposit(ctx context.Context, a Auth, k Key, in CashInput) (Reply, error) {
	return s.cash(ctx, a, k, "record a buy-in", in, ledger.Deposit, false)
}

// Withdraw records a player's cash-out, which a closed table still takes.
func (s *Service) Withdraw(ctx context.Context, a Auth, k Key, in CashInput) (Reply, error) {
	return s.cash(ctx, a, k, "record a cash-out", in, ledger.Withdrawal, true)
}

func (s *Service) cash(ctx context.Context, a Auth, k Key, what string, in CashInput,
	entry func(game.PlayerID, int64) (ledger.Entry, error), closedToo bool) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost(what); err != nil {
			return nil, err
		}
		if err := w.nightOver(); err != nil {
			return nil, err
		}
		if !closedToo {
			if err := w.openTable(); err != nil {
				return nil, err
			}
		}
		if _, err := w.st.player(in.Player); err != nil {
			return nil, err
		}
		e, err := entry(in.Player, in.Amount)
		if err != nil {
			return nil, err
		}
		e.Meta = w.who.recorded()
		return w.postAndShow(e)
	})
}

// PaymentInput is a settlement payment: from paid to amount in cash.
// Either side may be the bank (0).
type PaymentInput struct {
	From   game.PlayerID `json:"from"`
	To     game.PlayerID `json:"to"`
	Amount int64         `json:"amount"`
}

// Pay records a settlement payment, by the host or by the player who
// received the money (so nobody can wipe out their own debt by saying they
// paid). A closed table still takes them: that is when people settle up.
func (s *Service) Pay(ctx context.Context, a Auth, k Key, in PaymentInput) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.nightOver(); err != nil {
			return nil, err
		}
		switch p := w.who; {
		case p.Role == RoleHost:
		case p.Role == RolePlayer && p.Player == in.To:
		case p.Role == RolePlayer:
			return nil, fmt.Errorf("%w: a payment is recorded by the host or by the player who received it", ErrForbidden)
		default:
			return nil, errAuditReadsOnly
		}
		for _, id := range []game.PlayerID{in.From, in.To} {
			if id == ledger.Bank {
				continue
			}
			if _, err := w.st.player(id); err != nil {
				return nil, err
			}
		}
		e, err := ledger.Payment(in.From, in.To, in.Amount)
		if err != nil {
			return nil, err
		}
		e.Meta = w.who.recorded()
		return w.postAndShow(e)
	})
}

// recordedMeta is the journal metadata of money a person records by hand
// (buy-ins, cash-outs, payments): who recorded it, "host" or "player:7",
// which History shows beside the movement.
type recordedMeta struct {
	RecordedBy string `json:"recordedBy"`
}

// recorded is the metadata of a movement p records.
func (p Principal) recorded() recordedMeta {
	if p.Role == RolePlayer {
		return recordedMeta{RecordedBy: "player:" + p.Player.String()}
	}
	return recordedMeta{RecordedBy: string(p.Role)}
}

// postAndShow posts an entry and answers with the balances after it.
func (w *writer) postAndShow(e ledger.Entry) (BalancesView, error) {
	if err := w.post(e); err != nil {
		return BalancesView{}, err
	}
	return balancesView(w.st.row, ledger.Sheet(w.st.row.Currency, w.books().Accounts(), w.st.players)), nil
}
