-- name: TableNextID :one
-- TableNextID takes the id of a table about to be made, which its tokens
-- carry.
SELECT nextval(pg_get_serial_sequence('tables', 'id'))::bigint AS id;

-- name: TableInsert :one
-- TableInsert makes a table, under an id from TableNextID
-- (TableAccountsInsert opens its pot and its bank, JoinCodeInsert its
-- code).
INSERT INTO tables (id, name, ruleset, currency, join_code, host_token_hash, audit_token_hash, no_overdraft)
OVERRIDING SYSTEM VALUE
VALUES (@id, @name, @ruleset, @currency, @join_code, @host_token_hash, @audit_token_hash, @no_overdraft)
RETURNING *;

-- name: TableAccountsInsert :exec
-- TableAccountsInsert opens a new table's pot and its bank (the world
-- account).
INSERT INTO accounts (table_id, kind) VALUES (@table_id, 'pot'), (@table_id, 'world');

-- name: TableLock :one
SELECT * FROM tables WHERE id = @id FOR UPDATE;

-- name: TableLockAs :one
-- TableLockAs is TableLock for the holder of a token whose hash is
-- token_hash, if it is the host's, the auditor's or a player's of that
-- table: a token the table does not know reads no row and locks nothing,
-- so it cannot hold up the table's writers.
SELECT t.* FROM tables t
WHERE t.id = @id AND (t.host_token_hash = @token_hash OR t.audit_token_hash = @token_hash
                      OR EXISTS (SELECT 1 FROM players p WHERE p.table_id = @id AND p.token_hash = @token_hash))
FOR UPDATE OF t;

-- name: TableGet :one
SELECT * FROM tables WHERE id = @id;

-- name: TableAppend :exec
-- TableAppend writes, in one statement, what a write adds to a table's
-- history: its rounds' new actions and finished turns, its audit events,
-- the round it settles, the table's new chain head (sealed) and round
-- count, and the answer to its Idempotency-Key. The statement fails (and
-- the transaction with it) when the round it writes to is missing or the
-- round it settles is not open. Every part names the one table, so that
-- the statement runs on one shard when tables are distributed.
WITH actions AS (
    INSERT INTO round_actions (table_id, round_id, seq, player_id, kind, dice, rethrow, path, event_seq)
    SELECT r.table_id, r.id, unnest(@action_seqs::int[]), unnest(@action_players::bigint[]), unnest(@action_kinds::text[]),
           unnest(@action_dice::text[])::int[], unnest(@action_rethrows::text[])::int[], unnest(@action_paths::text[]),
           unnest(@action_events::bigint[])
    FROM rounds r WHERE r.table_id = @table_id AND r.number = @round
    RETURNING 1
), turns AS (
    INSERT INTO turns (table_id, round_id, seq, player_id, qualified, score, cargo, automatic, stood)
    SELECT r.table_id, r.id, unnest(@turn_seqs::int[]), unnest(@turn_players::bigint[]), unnest(@turn_qualified::boolean[]),
           unnest(@turn_scores::int[]), unnest(@turn_cargo::text[])::int[], unnest(@turn_automatic::boolean[]),
           unnest(@turn_stood::boolean[])
    FROM rounds r WHERE r.table_id = @table_id AND r.number = @round
    RETURNING 1
), settled AS (
    UPDATE rounds AS s SET status = 'settled', settled_at = now()
    WHERE s.table_id = @table_id AND s.number = @settles::int AND s.status = 'open'
    RETURNING s.id
), events AS (
    INSERT INTO events (table_id, seq, kind, payload, created_at, prev_hash, hash, seal)
    SELECT @table_id, unnest(@event_seqs::bigint[]), unnest(@event_kinds::text[]), unnest(@event_payloads::text[])::jsonb,
           @created_at, unnest(@event_prev_hashes::bytea[]), unnest(@event_hashes::bytea[]), unnest(@event_seals::bytea[])
), head AS (
    UPDATE tables AS t SET event_seq = @head_seq::bigint, event_hash = @head_hash::bytea, head_seal = @head_seal::bytea,
        rounds = @rounds::int
    WHERE t.id = @table_id
), answer AS (
    INSERT INTO idempotency_keys (table_id, scope, key, request_hash, response_status, response_body, response_content_type)
    SELECT @table_id, @scope::text, @key::text, @request_hash::bytea, @response_status::int,
           @response_body::bytea, @response_content_type::text
    WHERE @key::text <> ''
)
SELECT tally_expect((SELECT count(*) FROM actions), coalesce(cardinality(@action_seqs::int[]), 0), 'actions of the round'),
       tally_expect((SELECT count(*) FROM turns), coalesce(cardinality(@turn_seqs::int[]), 0), 'turns of the round'),
       tally_expect((SELECT count(*) FROM settled), CASE WHEN @settles::int > 0 THEN 1 ELSE 0 END, 'an open round to settle');

-- name: TableNotify :exec
-- TableNotify announces a change to the tally processes listening (every
-- instance's db.Listener), when the transaction commits. It reads no table,
-- so with distributed tables it runs where the listeners are (the
-- coordinator), not on the shard that holds the table.
SELECT pg_notify(@channel::text, @message::text);

-- name: TableClose :exec
WITH closed AS (
    UPDATE tables SET status = 'closed', closed_at = now() WHERE id = @id AND status = 'open'
    RETURNING 1
)
SELECT tally_expect(count(*), 1, 'an open table to close') FROM closed;
