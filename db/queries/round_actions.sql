-- name: ActionInsert :exec
-- ActionInsert stores a request's actions in one statement. Each action's
-- dice and rethrow arrive as array literals ('{6,5,4}'), one per action.
INSERT INTO round_actions (table_id, round_id, seq, player_id, kind, dice, rethrow, path, event_seq)
SELECT @table_id, r.id, unnest(@seqs::int[]), unnest(@player_ids::bigint[]), unnest(@kinds::text[]),
       unnest(@dice::text[])::int[], unnest(@rethrows::text[])::int[], unnest(@paths::text[]), unnest(@event_seqs::bigint[])
FROM rounds r WHERE r.table_id = @table_id AND r.number = @round;

-- name: ActionListLatest :many
-- ActionListLatest is the actions of the table's latest round, in order.
SELECT a.* FROM round_actions a
WHERE a.table_id = @table_id
  AND a.round_id = (SELECT r.id FROM rounds r WHERE r.table_id = @table_id ORDER BY r.number DESC LIMIT 1)
ORDER BY a.seq;

-- name: ActionListByRound :many
SELECT a.* FROM round_actions a
WHERE a.table_id = @table_id
  AND a.round_id = (SELECT r.id FROM rounds r WHERE r.table_id = @table_id AND r.number = @number)
ORDER BY a.seq;

-- name: ActionListByTable :many
SELECT r.number AS round, a.* FROM round_actions a
JOIN rounds r ON r.table_id = a.table_id AND r.id = a.round_id
WHERE a.table_id = @table_id
ORDER BY r.number, a.seq;
