-- name: TurnListByTable :many
SELECT r.number AS round, t.* FROM turns t
JOIN rounds r ON r.table_id = t.table_id AND r.id = t.round_id
WHERE t.table_id = @table_id
ORDER BY r.number, t.seq, t.action_seq;
