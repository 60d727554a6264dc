-- name: CheckpointGet :one
SELECT * FROM audit_checkpoints WHERE table_id = @table_id;

-- name: CheckpointPut :exec
-- CheckpointPut keeps a table's latest checkpoint, made by an audit that
-- found everything in order.
INSERT INTO audit_checkpoints (table_id, seq, hash, round, rows, state, seal)
VALUES (@table_id, @seq, @hash, @round, @rows, @state, @seal)
ON CONFLICT (table_id) DO UPDATE
SET seq = excluded.seq, hash = excluded.hash, round = excluded.round, rows = excluded.rows,
    state = excluded.state, seal = excluded.seal, created_at = now();
