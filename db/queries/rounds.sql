-- name: RoundInsert :exec
INSERT INTO rounds (table_id, number, players, carried_pot, ante, declared, declarer, playoff, roll_off, game)
VALUES (@table_id, @number, @players, @carried_pot, @ante, @declared, @declarer, @playoff, @roll_off, @game);

-- name: RoundLatest :one
SELECT * FROM rounds WHERE table_id = @table_id ORDER BY number DESC LIMIT 1;

-- name: RoundLatestChanged :one
-- RoundLatestChanged is RoundLatest when the table's chain head is no
-- longer the given one, and no row when it is.
SELECT * FROM rounds WHERE table_id = @table_id
  AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = @table_id AND t.event_seq = @head_seq AND t.event_hash = @head_hash)
ORDER BY number DESC LIMIT 1;

-- name: RoundGet :one
SELECT * FROM rounds WHERE table_id = @table_id AND number = @number;

-- name: RoundList :many
SELECT * FROM rounds WHERE table_id = @table_id ORDER BY number;

-- name: RoundPage :many
SELECT * FROM rounds WHERE table_id = @table_id AND number > @after ORDER BY number LIMIT @max;
