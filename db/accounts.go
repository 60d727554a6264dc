package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Account kinds: one account per player, and per table one pot and one
// world account (the bank: cash coming in and going out).
const (
	AccountPlayer = "player"
	AccountPot    = "pot"
	AccountWorld  = "world"
)

// Account is a ledger account and its balance, which the database keeps
// equal to the sum of its postings.
type Account struct {
	ID        int64
	TableID   int64
	Kind      string
	PlayerID  *int64
	Balance   int64
	CreatedAt time.Time
}

// AccountRef names an account by its role at a table: a kind, plus the
// player for player accounts (PlayerID is ignored for pot and world).
type AccountRef struct {
	Kind     string
	PlayerID int64
}

const accountColumns = `id, table_id, kind, player_id, balance, created_at`

// collectAccounts reads rows selected with accountColumns.
func collectAccounts(rows pgx.Rows) ([]Account, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Account, error) {
		var a Account
		err := row.Scan(&a.ID, &a.TableID, &a.Kind, &a.PlayerID, &a.Balance, &a.CreatedAt)
		return a, err
	})
}

// splitRefs separates the player ids from the house account kinds.
func splitRefs(refs []AccountRef) (kinds []string, players []int64) {
	for _, r := range refs {
		if r.Kind == AccountPlayer {
			players = append(players, r.PlayerID)
		} else {
			kinds = append(kinds, r.Kind)
		}
	}
	return kinds, players
}

// AccountsEnsure creates the accounts that do not exist yet. Accounts are
// created lazily, on first use, with INSERT ... ON CONFLICT DO NOTHING so
// that two writers creating the same account cannot fail each other. A
// player who is not seated at the table is ErrNotFound.
func AccountsEnsure(ctx context.Context, q DBTX, tableID int64, refs []AccountRef) error {
	kinds := make([]string, len(refs))
	players := make([]*int64, len(refs))
	for i, r := range refs {
		kinds[i] = r.Kind
		if r.Kind == AccountPlayer {
			players[i] = &refs[i].PlayerID
		}
	}
	_, err := q.Exec(ctx, `
		INSERT INTO accounts (table_id, kind, player_id)
		SELECT $1, k, p FROM unnest($2::text[], $3::bigint[]) AS u(k, p)
		ON CONFLICT DO NOTHING`, tableID, kinds, players)
	if err != nil {
		return fmt.Errorf("create accounts at table %d: %w", tableID, interpretError(err))
	}
	return nil
}

// AccountsLock locks the named accounts FOR UPDATE in ascending id order and
// returns them in that order. One fixed order for every writer means two
// transactions can never each hold an account the other waits for.
// Accounts that do not exist are simply absent from the result.
func AccountsLock(ctx context.Context, q DBTX, tableID int64, refs []AccountRef) ([]Account, error) {
	kinds, players := splitRefs(refs)
	rows, err := q.Query(ctx, `
		SELECT `+accountColumns+` FROM accounts
		WHERE table_id = $1 AND ((kind <> 'player' AND kind = ANY($2)) OR player_id = ANY($3))
		ORDER BY id FOR UPDATE`, tableID, kinds, players)
	if err != nil {
		return nil, fmt.Errorf("lock accounts at table %d: %w", tableID, interpretError(err))
	}
	accounts, err := collectAccounts(rows)
	if err != nil {
		return nil, fmt.Errorf("lock accounts at table %d: %w", tableID, interpretError(err))
	}
	return accounts, nil
}

// AccountList returns every account of a table, by id.
func AccountList(ctx context.Context, q DBTX, tableID int64) ([]Account, error) {
	rows, err := q.Query(ctx, `SELECT `+accountColumns+` FROM accounts WHERE table_id = $1 ORDER BY id`, tableID)
	if err != nil {
		return nil, fmt.Errorf("accounts of table %d: %w", tableID, interpretError(err))
	}
	accounts, err := collectAccounts(rows)
	if err != nil {
		return nil, fmt.Errorf("accounts of table %d: %w", tableID, interpretError(err))
	}
	return accounts, nil
}

// Books is what a ledger writer needs once it holds a table's locks: the
// table, the accounts it will post to, and the head of the audit log.
type Books struct {
	Table     Table
	Accounts  []Account // locked, in id order
	LastEvent *Event    // nil when the table has no events yet
}

// BooksLock takes a writer's locks in one round trip (a pipelined batch,
// executed in order): the table row FOR UPDATE first, then it creates the
// missing accounts (AccountsEnsure) and locks them FOR UPDATE in id order
// (AccountsLock), and reads the last audit event, which the table lock keeps
// current until the transaction ends. A missing table, or a player not
// seated at it, is ErrNotFound; Books.Table is zero only in the first case.
func BooksLock(ctx context.Context, tx pgx.Tx, tableID int64, refs []AccountRef) (Books, error) {
	kinds := make([]string, len(refs))
	players := make([]*int64, len(refs))
	for i, r := range refs {
		kinds[i] = r.Kind
		if r.Kind == AccountPlayer {
			players[i] = &refs[i].PlayerID
		}
	}
	lockKinds, lockPlayers := splitRefs(refs)
	var b Books
	batch := &pgx.Batch{}
	batch.Queue(`SELECT `+tableColumns+` FROM tables WHERE id = $1 FOR UPDATE`, tableID).QueryRow(func(row pgx.Row) error {
		t, err := scanTable(row)
		if err != nil {
			return fmt.Errorf("lock table %d: %w", tableID, err)
		}
		b.Table = t
		return nil
	})
	batch.Queue(`
		INSERT INTO accounts (table_id, kind, player_id)
		SELECT $1, k, p FROM unnest($2::text[], $3::bigint[]) AS u(k, p)
		ON CONFLICT DO NOTHING`, tableID, kinds, players).Exec(func(pgconn.CommandTag) error { return nil })
	batch.Queue(`
		SELECT `+accountColumns+` FROM accounts
		WHERE table_id = $1 AND ((kind <> 'player' AND kind = ANY($2)) OR player_id = ANY($3))
		ORDER BY id FOR UPDATE`, tableID, lockKinds, lockPlayers).Query(func(rows pgx.Rows) error {
		accts, err := collectAccounts(rows)
		b.Accounts = accts
		return err
	})
	batch.Queue(`SELECT `+eventColumns+` FROM events WHERE table_id = $1 ORDER BY seq DESC LIMIT 1`, tableID).QueryRow(func(row pgx.Row) error {
		e, err := scanEvent(row)
		if err == nil {
			b.LastEvent = &e
		}
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	})
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		if errors.Is(err, ErrNotFound) {
			return Books{Table: b.Table}, err
		}
		return Books{Table: b.Table}, fmt.Errorf("lock books of table %d: %w", tableID, interpretError(err))
	}
	return b, nil
}
