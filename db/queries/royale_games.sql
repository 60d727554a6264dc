-- name: RoyaleGameInsert :exec
-- RoyaleGameInsert starts a Battleship Royale game at a table.
INSERT INTO royale_games (table_id, number, setup, event_seq)
VALUES (@table_id, @number, @setup, @event_seq);

-- name: RoyaleGameLatest :one
-- RoyaleGameLatest is the table's latest game with its actions, in order,
-- as one JSON array: one statement, which every write of every table
-- sends (a dice table has no game, and the index answers at once).
SELECT g.*,
       coalesce((SELECT jsonb_agg(jsonb_build_object('seq', a.seq, 'player', a.player_id, 'kind', a.kind,
                                                     'action', a.action, 'byHost', a.by_host,
                                                     'eventSeq', a.event_seq, 'createdAt', a.created_at)
                                  ORDER BY a.seq)
                 FROM royale_actions a WHERE a.table_id = @table_id AND a.game = g.number), '[]')::jsonb AS actions
FROM royale_games g WHERE g.table_id = @table_id ORDER BY g.number DESC LIMIT 1;

-- name: RoyaleGameGet :one
SELECT * FROM royale_games WHERE table_id = @table_id AND number = @number;

-- name: RoyaleGameList :many
-- RoyaleGameList is every game of the table, in order.
SELECT * FROM royale_games WHERE table_id = @table_id ORDER BY number;
