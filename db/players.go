package db

import (
	"context"
	"fmt"
	"time"
)

// Player is a person seated at a table. A player who left keeps the row,
// because their postings and turns refer to it.
type Player struct {
	ID        int64
	TableID   int64
	Name      string
	Seat      int
	TokenHash []byte
	JoinedAt  time.Time
	LeftAt    *time.Time
	// ClaimedAt is when a phone joined as this player; nil for a seat the
	// host made that nobody has claimed yet.
	ClaimedAt *time.Time
}

// PlayerInsertParams are the caller-chosen columns of a new player.
type PlayerInsertParams struct {
	TableID   int64
	Name      string
	Seat      int
	TokenHash []byte
}

const playerColumns = `id, table_id, name, seat, token_hash, joined_at, left_at, claimed_at`

// scanPlayer reads one row selected with playerColumns.
func scanPlayer(row interface{ Scan(...any) error }) (Player, error) {
	var p Player
	err := row.Scan(&p.ID, &p.TableID, &p.Name, &p.Seat, &p.TokenHash, &p.JoinedAt, &p.LeftAt, &p.ClaimedAt)
	return p, interpretError(err)
}

// PlayerInsert seats a player. A seat or name (case-insensitive) already
// taken by a player still at the table is ErrConflict.
func PlayerInsert(ctx context.Context, q DBTX, p PlayerInsertParams) (Player, error) {
	pl, err := scanPlayer(q.QueryRow(ctx, `
		INSERT INTO players (table_id, name, seat, token_hash) VALUES ($1, $2, $3, $4)
		RETURNING `+playerColumns, p.TableID, p.Name, p.Seat, p.TokenHash))
	if err != nil {
		return Player{}, fmt.Errorf("seat player %q at table %d: %w", p.Name, p.TableID, err)
	}
	return pl, nil
}

// PlayerGet reads a player by id.
func PlayerGet(ctx context.Context, q DBTX, id int64) (Player, error) {
	p, err := scanPlayer(q.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE id = $1`, id))
	if err != nil {
		return Player{}, fmt.Errorf("player %d: %w", id, err)
	}
	return p, nil
}

// PlayerGetByTokenHash finds the player a token belongs to.
func PlayerGetByTokenHash(ctx context.Context, q DBTX, hash []byte) (Player, error) {
	p, err := scanPlayer(q.QueryRow(ctx, `SELECT `+playerColumns+` FROM players WHERE token_hash = $1`, hash))
	if err != nil {
		return Player{}, fmt.Errorf("player by token: %w", err)
	}
	return p, nil
}

// PlayerList lists a table's players by seat, including those who left.
func PlayerList(ctx context.Context, q DBTX, tableID int64) ([]Player, error) {
	rows, err := q.Query(ctx, `SELECT `+playerColumns+` FROM players WHERE table_id = $1 ORDER BY seat, id`, tableID)
	if err != nil {
		return nil, fmt.Errorf("list players of table %d: %w", tableID, interpretError(err))
	}
	defer rows.Close()
	var out []Player
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return nil, fmt.Errorf("list players of table %d: %w", tableID, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list players of table %d: %w", tableID, interpretError(err))
	}
	return out, nil
}

// PlayerLeave records that a player left the table, freeing the seat.
func PlayerLeave(ctx context.Context, q DBTX, id int64) (Player, error) {
	p, err := scanPlayer(q.QueryRow(ctx, `
		UPDATE players SET left_at = now() WHERE id = $1 AND left_at IS NULL
		RETURNING `+playerColumns, id))
	if err != nil {
		return Player{}, fmt.Errorf("player %d leaves: %w", id, err)
	}
	return p, nil
}
