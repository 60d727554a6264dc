package db

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// JournalTransaction is one movement of money: a row of the journal and its
// postings, which sum to zero.
type JournalTransaction struct {
	ID        int64
	TableID   int64
	Kind      string
	RoundID   *int64
	Memo      string
	Metadata  json.RawMessage
	CreatedAt time.Time
	Postings  []Posting
}

// Posting is one line of a journal transaction: an amount added to (or,
// negative, taken from) one account.
type Posting struct {
	ID            int64
	TransactionID int64
	AccountID     int64
	AccountKind   string
	PlayerID      *int64
	Amount        int64
}

// JournalInsertParams describe a new journal transaction.
type JournalInsertParams struct {
	TableID  int64
	Kind     string
	RoundID  *int64
	Memo     string
	Metadata json.RawMessage
	Postings []PostingParams
}

// PostingParams is one posting to write.
type PostingParams struct {
	AccountID int64
	Amount    int64
}

// JournalInsert writes a journal transaction and its postings in one
// statement. The database moves the balances as the postings land and checks
// at commit that they sum to zero; an unbalanced transaction therefore fails
// at Commit with ErrUnbalanced (see SentinelFor), not here.
func JournalInsert(ctx context.Context, q DBTX, p JournalInsertParams) (JournalTransaction, error) {
	meta := p.Metadata
	if meta == nil {
		meta = json.RawMessage(`{}`)
	}
	accounts := make([]int64, len(p.Postings))
	amounts := make([]int64, len(p.Postings))
	for i, ps := range p.Postings {
		accounts[i], amounts[i] = ps.AccountID, ps.Amount
	}
	t := JournalTransaction{TableID: p.TableID, Kind: p.Kind, RoundID: p.RoundID, Memo: p.Memo, Metadata: meta}
	err := q.QueryRow(ctx, `
		WITH t AS (
			INSERT INTO journal_transactions (table_id, kind, round_id, memo, metadata)
			VALUES ($1, $2, $3, $4, $5) RETURNING id, created_at
		), p AS (
			INSERT INTO postings (transaction_id, table_id, account_id, amount)
			SELECT t.id, $1, u.a, u.m FROM t, unnest($6::bigint[], $7::bigint[]) WITH ORDINALITY AS u(a, m, n)
			ORDER BY u.n
		)
		SELECT id, created_at FROM t`,
		p.TableID, p.Kind, p.RoundID, p.Memo, meta, accounts, amounts).Scan(&t.ID, &t.CreatedAt)
	if err != nil {
		return JournalTransaction{}, fmt.Errorf("write %s transaction at table %d: %w", p.Kind, p.TableID, interpretError(err))
	}
	for _, ps := range p.Postings {
		t.Postings = append(t.Postings, Posting{TransactionID: t.ID, AccountID: ps.AccountID, Amount: ps.Amount})
	}
	return t, nil
}

// JournalList returns a table's journal in order, each transaction with its
// postings (in the order they were written).
func JournalList(ctx context.Context, q DBTX, tableID int64) ([]JournalTransaction, error) {
	rows, err := q.Query(ctx, `
		SELECT id, table_id, kind, round_id, memo, metadata, created_at
		FROM journal_transactions WHERE table_id = $1 ORDER BY id`, tableID)
	if err != nil {
		return nil, fmt.Errorf("journal of table %d: %w", tableID, interpretError(err))
	}
	txns, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (JournalTransaction, error) {
		var t JournalTransaction
		err := row.Scan(&t.ID, &t.TableID, &t.Kind, &t.RoundID, &t.Memo, &t.Metadata, &t.CreatedAt)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("journal of table %d: %w", tableID, interpretError(err))
	}
	rows, err = q.Query(ctx, `
		SELECT p.id, p.transaction_id, p.account_id, a.kind, a.player_id, p.amount
		FROM postings p JOIN accounts a ON a.id = p.account_id
		WHERE p.table_id = $1 ORDER BY p.transaction_id, p.id`, tableID)
	if err != nil {
		return nil, fmt.Errorf("postings of table %d: %w", tableID, interpretError(err))
	}
	postings, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Posting, error) {
		var p Posting
		err := row.Scan(&p.ID, &p.TransactionID, &p.AccountID, &p.AccountKind, &p.PlayerID, &p.Amount)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("postings of table %d: %w", tableID, interpretError(err))
	}
	byID := make(map[int64]*JournalTransaction, len(txns))
	for i := range txns {
		byID[txns[i].ID] = &txns[i]
	}
	for _, p := range postings {
		if t := byID[p.TransactionID]; t != nil {
			t.Postings = append(t.Postings, p)
		}
	}
	return txns, nil
}
