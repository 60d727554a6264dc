-- name: RoyaleActionListByGame :many
SELECT * FROM royale_actions WHERE table_id = @table_id AND game = @game ORDER BY seq;

-- name: RoyaleActionListByTable :many
-- RoyaleActionListByTable is every action of the table's games, by game.
SELECT * FROM royale_actions WHERE table_id = @table_id ORDER BY game, seq;

-- name: RoyaleActionAppend :exec
-- RoyaleActionAppend writes a write's actions of one game, in one
-- statement that fails (and the transaction with it) when the game is
-- missing. The insert takes its table id from the game's row, so that on
-- Citus it runs on the table's shard.
WITH added AS (
    INSERT INTO royale_actions (table_id, game, seq, player_id, kind, action, by_host, event_seq)
    SELECT g.table_id, g.number, u.seq, u.player, u.kind, u.action::jsonb, u.by_host, u.event
    FROM royale_games g,
         (SELECT unnest(@seqs::int[]) AS seq, unnest(@players::bigint[]) AS player,
                 unnest(@kinds::text[]) AS kind, unnest(@actions::text[]) AS action,
                 unnest(@by_host::boolean[]) AS by_host, unnest(@events::bigint[]) AS event) u
    WHERE g.table_id = @table_id AND g.number = @game
    RETURNING 1
)
SELECT tally_expect((SELECT count(*) FROM added), coalesce(cardinality(@seqs::int[]), 0), 'actions of the game');
