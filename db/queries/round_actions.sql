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

-- name: ActionListByRoundPage :many
-- ActionListByRoundPage is the actions of the rounds RoundPage reads with
-- the same arguments, by round.
SELECT r.number AS round, a.* FROM round_actions a
JOIN rounds r ON r.table_id = a.table_id AND r.id = a.round_id
WHERE a.table_id = @table_id
  AND a.round_id IN (SELECT p.id FROM rounds p WHERE p.table_id = @table_id AND p.number > @after ORDER BY p.number LIMIT @max)
ORDER BY r.number, a.seq;
