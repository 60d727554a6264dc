package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The queries the table service (ledger/play) needs beyond the basics:
// finding a table by its host or audit token, claiming a seat, and listing
// a table's rounds.

// TableGetByHostTokenHash finds the table a host token belongs to.
func TableGetByHostTokenHash(ctx context.Context, q DBTX, hash []byte) (Table, error) {
	return scanTable(q.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE host_token_hash = $1`, hash))
}

// TableGetByAuditTokenHash finds the table an audit token belongs to.
func TableGetByAuditTokenHash(ctx context.Context, q DBTX, hash []byte) (Table, error) {
	return scanTable(q.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE audit_token_hash = $1`, hash))
}

// PlayerClaim gives a seat nobody has claimed yet a new token hash and marks
// it claimed. A seat already claimed, or left, is ErrNotFound.
func PlayerClaim(ctx context.Context, q DBTX, id int64, tokenHash []byte) (Player, error) {
	p, err := scanPlayer(q.QueryRow(ctx, `
		UPDATE players SET token_hash = $2, claimed_at = now()
		WHERE id = $1 AND claimed_at IS NULL AND left_at IS NULL
		RETURNING `+playerColumns, id, tokenHash))
	if err != nil {
		return Player{}, fmt.Errorf("claim seat of player %d: %w", id, err)
	}
	return p, nil
}

// RoundList returns a table's rounds, oldest first.
func RoundList(ctx context.Context, q DBTX, tableID int64) ([]Round, error) {
	rows, err := q.Query(ctx, `SELECT `+roundColumns+` FROM rounds WHERE table_id = $1 ORDER BY number`, tableID)
	if err != nil {
		return nil, fmt.Errorf("rounds of table %d: %w", tableID, interpretError(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Round, error) { return scanRound(row) })
	if err != nil {
		return nil, fmt.Errorf("rounds of table %d: %w", tableID, err)
	}
	return out, nil
}
