package db

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Round statuses.
const (
	RoundOpen    = "open"
	RoundSettled = "settled"
	RoundVoid    = "void"
)

// Round is one round at a table: its setup (who plays, in which order, the
// declared score...) and, once settled, its result, both as the engine's
// JSON.
type Round struct {
	ID        int64
	TableID   int64
	Number    int
	Setup     json.RawMessage
	Status    string
	Result    json.RawMessage
	CreatedAt time.Time
	SettledAt *time.Time
}

// RoundAction is one accepted action of a round (a roll, a stand, a claim),
// stored in order so the round can be replayed through the engine.
type RoundAction struct {
	RoundID   int64
	Seq       int
	PlayerID  *int64
	Kind      string
	Payload   json.RawMessage
	CreatedAt time.Time
}

const roundColumns = `id, table_id, number, setup, status, result, created_at, settled_at`

// scanRound reads one row selected with roundColumns.
func scanRound(row pgx.Row) (Round, error) {
	var r Round
	err := row.Scan(&r.ID, &r.TableID, &r.Number, &r.Setup, &r.Status, &r.Result, &r.CreatedAt, &r.SettledAt)
	return r, interpretError(err)
}

// RoundInsert opens the table's next round (numbered from 1). Call it with
// the table locked (TableLock) so two rounds cannot take one number.
func RoundInsert(ctx context.Context, q DBTX, tableID int64, setup json.RawMessage) (Round, error) {
	if setup == nil {
		setup = json.RawMessage(`{}`)
	}
	r, err := scanRound(q.QueryRow(ctx, `
		INSERT INTO rounds (table_id, number, setup)
		SELECT $1, coalesce(max(number), 0) + 1, $2 FROM rounds WHERE table_id = $1
		RETURNING `+roundColumns, tableID, setup))
	if err != nil {
		return Round{}, fmt.Errorf("open round at table %d: %w", tableID, err)
	}
	return r, nil
}

// RoundGet reads a round by id.
func RoundGet(ctx context.Context, q DBTX, id int64) (Round, error) {
	r, err := scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds WHERE id = $1`, id))
	if err != nil {
		return Round{}, fmt.Errorf("round %d: %w", id, err)
	}
	return r, nil
}

// RoundLatest reads the table's highest-numbered round; ErrNotFound when
// none has been played.
func RoundLatest(ctx context.Context, q DBTX, tableID int64) (Round, error) {
	r, err := scanRound(q.QueryRow(ctx, `
		SELECT `+roundColumns+` FROM rounds WHERE table_id = $1 ORDER BY number DESC LIMIT 1`, tableID))
	if err != nil {
		return Round{}, fmt.Errorf("latest round of table %d: %w", tableID, err)
	}
	return r, nil
}

// RoundFinish records an open round's result and new status (settled or
// void). A round that is not open is ErrNotFound.
func RoundFinish(ctx context.Context, q DBTX, id int64, status string, result json.RawMessage) (Round, error) {
	r, err := scanRound(q.QueryRow(ctx, `
		UPDATE rounds SET status = $2, result = $3, settled_at = now()
		WHERE id = $1 AND status = 'open'
		RETURNING `+roundColumns, id, status, result))
	if err != nil {
		return Round{}, fmt.Errorf("finish round %d: %w", id, err)
	}
	return r, nil
}

// TurnInsert records a player's finished turn in a round.
func TurnInsert(ctx context.Context, q DBTX, roundID, playerID int64, seq int, outcome json.RawMessage) error {
	_, err := q.Exec(ctx, `INSERT INTO turns (round_id, player_id, seq, outcome) VALUES ($1, $2, $3, $4)`,
		roundID, playerID, seq, outcome)
	if err != nil {
		return fmt.Errorf("record turn %d of round %d: %w", seq, roundID, interpretError(err))
	}
	return nil
}

// RoundActionAppend stores the round's next action and returns it with its
// sequence number. Call it with the table locked so sequence numbers are
// gap-free.
func RoundActionAppend(ctx context.Context, q DBTX, roundID int64, playerID *int64, kind string, payload json.RawMessage) (RoundAction, error) {
	if payload == nil {
		payload = json.RawMessage(`{}`)
	}
	var a RoundAction
	err := q.QueryRow(ctx, `
		INSERT INTO round_actions (round_id, seq, player_id, kind, payload)
		SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4 FROM round_actions WHERE round_id = $1
		RETURNING round_id, seq, player_id, kind, payload, created_at`,
		roundID, playerID, kind, payload).Scan(&a.RoundID, &a.Seq, &a.PlayerID, &a.Kind, &a.Payload, &a.CreatedAt)
	if err != nil {
		return RoundAction{}, fmt.Errorf("append %s to round %d: %w", kind, roundID, interpretError(err))
	}
	return a, nil
}

// RoundActionList returns a round's actions in the order they were accepted.
func RoundActionList(ctx context.Context, q DBTX, roundID int64) ([]RoundAction, error) {
	rows, err := q.Query(ctx, `
		SELECT round_id, seq, player_id, kind, payload, created_at
		FROM round_actions WHERE round_id = $1 ORDER BY seq`, roundID)
	if err != nil {
		return nil, fmt.Errorf("actions of round %d: %w", roundID, interpretError(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (RoundAction, error) {
		var a RoundAction
		err := row.Scan(&a.RoundID, &a.Seq, &a.PlayerID, &a.Kind, &a.Payload, &a.CreatedAt)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("actions of round %d: %w", roundID, interpretError(err))
	}
	return out, nil
}
