-- name: RoundInsert :exec
INSERT INTO rounds (table_id, number, players, carried_pot, ante, declared, declarer, playoff, roll_off, game)
VALUES (@table_id, @number, @players, @carried_pot, @ante, @declared, @declarer, @playoff, @roll_off, @game);

-- name: RoundLatest :one
SELECT * FROM rounds WHERE table_id = @table_id ORDER BY number DESC LIMIT 1;

-- name: RoundGet :one
SELECT * FROM rounds WHERE table_id = @table_id AND number = @number;

-- name: RoundList :many
SELECT * FROM rounds WHERE table_id = @table_id ORDER BY number;

-- name: RoundPage :many
SELECT * FROM rounds WHERE table_id = @table_id AND number > @after ORDER BY number LIMIT @max;
