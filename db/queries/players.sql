-- name: PlayerInsert :one
-- PlayerInsert seats a player (PlayerAccountInsert opens their account);
-- host marks the host's own seat, which is claimed as it is made.
INSERT INTO players (table_id, name, seat, token_hash, claimed_at, member, host)
VALUES (@table_id, @name, @seat, @token_hash, CASE WHEN @claimed::boolean THEN now() END, @member, @host)
RETURNING *;

-- name: PlayerAccountInsert :exec
-- PlayerAccountInsert opens the account of the player PlayerInsert has
-- just seated, in the same session: currval is the id the players'
-- sequence gave it. (Reading the player back instead, an INSERT ... SELECT,
-- would run on every shard on Citus.)
INSERT INTO accounts (table_id, kind, player_id)
VALUES (@table_id, 'player', currval(pg_catalog.pg_get_serial_sequence('public.players', 'id')));

-- name: PlayerList :many
SELECT * FROM players WHERE table_id = @table_id ORDER BY seat, id;

-- name: PlayerListChanged :many
-- PlayerListChanged is PlayerList when the table's chain head is no longer
-- the given one, and nothing when it is (a writer's cached state still
-- holds: TableLoadChanged).
SELECT * FROM players WHERE table_id = @table_id
  AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = @table_id AND t.event_seq = @head_seq AND t.event_hash = @head_hash)
ORDER BY seat, id;

-- name: PlayerClaim :exec
WITH claimed AS (
    UPDATE players SET token_hash = @token_hash, claimed_at = now()
    WHERE table_id = @table_id AND id = @id AND claimed_at IS NULL AND left_at IS NULL
    RETURNING 1
)
SELECT tally_expect(count(*), 1, 'an unclaimed seat to claim') FROM claimed;

-- name: PlayerRelease :exec
WITH released AS (
    UPDATE players SET token_hash = @token_hash, claimed_at = NULL
    WHERE table_id = @table_id AND id = @id AND claimed_at IS NOT NULL AND left_at IS NULL
    RETURNING 1
)
SELECT tally_expect(count(*), 1, 'a claimed seat to release') FROM released;

-- name: PlayerLeave :exec
WITH gone AS (
    UPDATE players SET left_at = now() WHERE table_id = @table_id AND id = @id AND left_at IS NULL
    RETURNING 1
)
SELECT tally_expect(count(*), 1, 'a seated player to leave') FROM gone;
