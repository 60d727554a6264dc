package db

import (
	"context"
	"encoding/json"
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

// RoundActionListByTable returns every action of a table's rounds, grouped
// by round id and in order within each round, in one query.
func RoundActionListByTable(ctx context.Context, q DBTX, tableID int64) (map[int64][]RoundAction, error) {
	rows, err := q.Query(ctx, `
		SELECT a.round_id, a.seq, a.player_id, a.kind, a.payload, a.created_at
		FROM round_actions a JOIN rounds r ON r.id = a.round_id
		WHERE r.table_id = $1 ORDER BY a.round_id, a.seq`, tableID)
	if err != nil {
		return nil, fmt.Errorf("actions of table %d: %w", tableID, interpretError(err))
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (RoundAction, error) {
		var a RoundAction
		err := row.Scan(&a.RoundID, &a.Seq, &a.PlayerID, &a.Kind, &a.Payload, &a.CreatedAt)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("actions of table %d: %w", tableID, interpretError(err))
	}
	out := map[int64][]RoundAction{}
	for _, a := range list {
		out[a.RoundID] = append(out[a.RoundID], a)
	}
	return out, nil
}

// RoundGetByNumber reads a table's round by its number.
func RoundGetByNumber(ctx context.Context, q DBTX, tableID int64, number int) (Round, error) {
	r, err := scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds WHERE table_id = $1 AND number = $2`, tableID, number))
	if err != nil {
		return Round{}, fmt.Errorf("round %d of table %d: %w", number, tableID, err)
	}
	return r, nil
}

// Turn is a finished turn's outcome as recorded when it ended.
type Turn struct {
	RoundID  int64
	PlayerID int64
	Seq      int
	Outcome  json.RawMessage
}

// TurnList returns a round's recorded turns in play order.
func TurnList(ctx context.Context, q DBTX, roundID int64) ([]Turn, error) {
	rows, err := q.Query(ctx, `SELECT round_id, player_id, seq, outcome FROM turns WHERE round_id = $1 ORDER BY seq`, roundID)
	if err != nil {
		return nil, fmt.Errorf("turns of round %d: %w", roundID, interpretError(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Turn, error) {
		var t Turn
		err := row.Scan(&t.RoundID, &t.PlayerID, &t.Seq, &t.Outcome)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("turns of round %d: %w", roundID, interpretError(err))
	}
	return out, nil
}

// PlayerRelease frees a claimed seat: the phone that claimed it loses its
// token (tokenHash is a fresh hash of a token nobody holds) and the seat can
// be claimed again. A seat not claimed, or left, is ErrNotFound.
func PlayerRelease(ctx context.Context, q DBTX, id int64, tokenHash []byte) (Player, error) {
	p, err := scanPlayer(q.QueryRow(ctx, `
		UPDATE players SET token_hash = $2, claimed_at = NULL
		WHERE id = $1 AND claimed_at IS NOT NULL AND left_at IS NULL
		RETURNING `+playerColumns, id, tokenHash))
	if err != nil {
		return Player{}, fmt.Errorf("release seat of player %d: %w", id, err)
	}
	return p, nil
}

// TurnListByTable returns every recorded turn of a table's rounds, grouped
// by round id and in play order, in one query.
func TurnListByTable(ctx context.Context, q DBTX, tableID int64) (map[int64][]Turn, error) {
	rows, err := q.Query(ctx, `
		SELECT t.round_id, t.player_id, t.seq, t.outcome
		FROM turns t JOIN rounds r ON r.id = t.round_id
		WHERE r.table_id = $1 ORDER BY t.round_id, t.seq`, tableID)
	if err != nil {
		return nil, fmt.Errorf("turns of table %d: %w", tableID, interpretError(err))
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Turn, error) {
		var t Turn
		err := row.Scan(&t.RoundID, &t.PlayerID, &t.Seq, &t.Outcome)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("turns of table %d: %w", tableID, interpretError(err))
	}
	out := map[int64][]Turn{}
	for _, t := range list {
		out[t.RoundID] = append(out[t.RoundID], t)
	}
	return out, nil
}
