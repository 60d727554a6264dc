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

-- name: RoyaleGameLatestSince :one
-- RoyaleGameLatestSince is RoyaleGameLatest for a writer that keeps the
-- game as it was at chain head since (db.Batch.RoyaleLatestSince): while
-- the table's head is still since, it reads no setup and no actions, only
-- how many actions the game has and how many of them do not read (their
-- columns and their body disagree), which the writer checks against the
-- game it kept. Once the head has moved it reads what RoyaleGameLatest
-- reads.
SELECT g.table_id, g.number, g.event_seq, g.created_at,
       (CASE WHEN h.kept THEN NULL ELSE g.setup END)::jsonb AS setup,
       CASE WHEN h.kept THEN '[]'::jsonb ELSE
           coalesce((SELECT jsonb_agg(jsonb_build_object('seq', a.seq, 'player', a.player_id, 'kind', a.kind,
                                                         'action', a.action, 'byHost', a.by_host,
                                                         'eventSeq', a.event_seq, 'createdAt', a.created_at)
                                      ORDER BY a.seq)
                     FROM royale_actions a WHERE a.table_id = @table_id AND a.game = g.number), '[]')::jsonb
       END AS actions,
       c.action_count, c.unread
FROM royale_games g,
     (SELECT EXISTS (SELECT 1 FROM tables t WHERE t.id = @table_id AND t.event_seq = @head_seq AND t.event_hash = @head_hash) AS kept) h,
     LATERAL (SELECT count(*) AS action_count,
                     count(*) FILTER (WHERE a.kind IS DISTINCT FROM a.action ->> 'kind'
                                         OR a.player_id IS DISTINCT FROM coalesce((a.action ->> 'player')::bigint, 0)) AS unread
              FROM royale_actions a WHERE a.table_id = @table_id AND a.game = g.number) c
WHERE g.table_id = @table_id
ORDER BY g.number DESC LIMIT 1;
