-- name: TurnInsert :exec
INSERT INTO turns (table_id, round_id, seq, player_id, qualified, score, cargo, automatic, stood)
SELECT @table_id, r.id, @seq, @player_id, @qualified, @score, @cargo, @automatic, @stood
FROM rounds r WHERE r.table_id = @table_id AND r.number = @round;

-- name: TurnListByTable :many
SELECT r.number AS round, t.* FROM turns t
JOIN rounds r ON r.table_id = t.table_id AND r.id = t.round_id
WHERE t.table_id = @table_id
ORDER BY r.number, t.seq;
