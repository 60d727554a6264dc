-- name: TableNextID :one
-- TableNextID takes the id of a table about to be made, which its tokens
-- carry.
SELECT nextval(pg_get_serial_sequence('tables', 'id'))::bigint AS id;

-- name: TableInsert :one
-- TableInsert makes a table, under an id from TableNextID
-- (TableAccountsInsert opens its pot and its bank, JoinCodeInsert its
-- code).
INSERT INTO tables (id, name, ruleset, currency, join_code, host_token_hash, audit_token_hash, no_overdraft, royale, game, crew)
OVERRIDING SYSTEM VALUE
VALUES (@id, @name, @ruleset, @currency, @join_code, @host_token_hash, @audit_token_hash, @no_overdraft, @royale, @game, @crew)
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

-- name: TableLockKept :exec
-- TableLockKept locks a table for a write that an instance decided on the
-- state it kept of the table (table/cache.go), and fails unless the table
-- row is the version TableAppend returned after that instance's last
-- write (row_version, the row's xmin: any change to the row, by a write or
-- by hand, makes a new version) and the round in play is the one whose
-- number and actions actions_digest describes (db.ActionsDigest; '' with
-- no round). The rest of the kept state (players, accounts, older rounds)
-- is trusted to the row's chain head, which every write moves. The
-- caller's token (token_hash) must still be the host's, the auditor's or a
-- player's, as TableLockAs asks: a token revoked by hand locks nothing. A
-- row that a concurrent writer changed while this one waited for the lock
-- fails it too (FOR UPDATE compares the row's newest version).
SELECT tally_expect((SELECT count(*) FROM (SELECT 1 FROM tables t WHERE t.id = @table_id AND t.xmin::text = @row_version::text
                                             AND (t.host_token_hash = @token_hash OR t.audit_token_hash = @token_hash
                                                  OR EXISTS (SELECT 1 FROM players p WHERE p.table_id = @table_id AND p.token_hash = @token_hash))
                                           FOR UPDATE OF t) k), 1, 'the table as this instance kept it'),
       tally_expect(CASE WHEN coalesce((
           SELECT md5(r.number || ':' || coalesce((
               SELECT string_agg(concat_ws('|', a.seq, coalesce(a.event_seq, 0), coalesce(a.voids, 0),
                                           octet_length(a.reason) || ':' || a.reason, coalesce(a.by_host::text, ''),
                                           a.player_id, a.kind,
                                           CASE WHEN a.kind = 'roll' THEN a.dice::text || a.rethrow::text || octet_length(a.path) || ':' || a.path
                                                ELSE '' END),
                                 E'\n' ORDER BY a.seq)
               FROM round_actions a WHERE a.table_id = @table_id AND a.round_id = r.id), ''))
           FROM rounds r WHERE r.table_id = @table_id ORDER BY r.number DESC LIMIT 1), '') = @actions_digest::text
           THEN 1 ELSE 0 END, 1, 'the round in play as this instance kept it');

-- name: TableLockKeptRoyale :exec
-- TableLockKeptRoyale is TableLockKept at a Battleship Royale table: the
-- game in play is checked as RoyaleGameLatestSince checks it, by its
-- number, the event that started it, how many actions it has and that
-- every one of them reads (its columns and body agree); game is
-- 'number:event:actions:0', '' with no game.
SELECT tally_expect((SELECT count(*) FROM (SELECT 1 FROM tables t WHERE t.id = @table_id AND t.xmin::text = @row_version::text
                                             AND (t.host_token_hash = @token_hash OR t.audit_token_hash = @token_hash
                                                  OR EXISTS (SELECT 1 FROM players p WHERE p.table_id = @table_id AND p.token_hash = @token_hash))
                                           FOR UPDATE OF t) k), 1, 'the table as this instance kept it'),
       tally_expect(CASE WHEN coalesce((
           SELECT g.number || ':' || g.event_seq || ':' || c.action_count || ':' || c.unread
           FROM royale_games g,
                LATERAL (SELECT count(*) AS action_count,
                                count(*) FILTER (WHERE a.kind IS DISTINCT FROM a.action ->> 'kind'
                                                    OR a.player_id IS DISTINCT FROM coalesce((a.action ->> 'player')::bigint, 0)) AS unread
                         FROM royale_actions a WHERE a.table_id = @table_id AND a.game = g.number) c
           WHERE g.table_id = @table_id
           ORDER BY g.number DESC LIMIT 1), '') = @game::text
           THEN 1 ELSE 0 END, 1, 'the Battleship Royale game as this instance kept it');

-- name: TableAppend :one
-- TableAppend writes, in one statement, what a write adds to a table's
-- history: its rounds' new actions and finished turns, its audit events,
-- the round it settles, reopens or reverses, the table's new chain head (sealed) and round
-- count, and the answer to its Idempotency-Key. at is when the write
-- happened, by the service's clock: when the round it settles or reverses
-- ended, and when the key's answer was given. The statement fails (and
-- the transaction with it) when the round it writes to is missing or the
-- round it settles is not open. Every part names the one table, and each
-- insert takes its table id from a row of that table (the round, the
-- table row), so that on Citus each part runs on the table's shard as it
-- is written (an INSERT ... SELECT from a row of the same table).
WITH actions AS (
    INSERT INTO round_actions (table_id, round_id, seq, player_id, kind, dice, rethrow, path, event_seq, voids, reason, by_host)
    SELECT r.table_id, r.id, a.seq, a.player, a.kind, a.dice::int[], a.rethrow::int[], a.path, a.event,
           nullif(a.voids, 0), a.reason, a.by_host
    FROM rounds r,
         (SELECT unnest(@action_seqs::int[]) AS seq, unnest(@action_players::bigint[]) AS player,
                 unnest(@action_kinds::text[]) AS kind, unnest(@action_dice::text[]) AS dice,
                 unnest(@action_rethrows::text[]) AS rethrow, unnest(@action_paths::text[]) AS path,
                 unnest(@action_events::bigint[]) AS event, unnest(@action_voids::int[]) AS voids,
                 unnest(@action_reasons::text[]) AS reason, unnest(@action_by_host::boolean[]) AS by_host) a
    WHERE r.table_id = @table_id AND r.number = @round
    RETURNING 1
), turns AS (
    INSERT INTO turns (table_id, round_id, seq, player_id, qualified, score, cargo, automatic, stood, action_seq)
    SELECT r.table_id, r.id, u.seq, u.player, u.qualified, u.score, u.cargo::int[], u.automatic, u.stood, u.action_seq
    FROM rounds r,
         (SELECT unnest(@turn_seqs::int[]) AS seq, unnest(@turn_players::bigint[]) AS player,
                 unnest(@turn_action_seqs::int[]) AS action_seq,
                 unnest(@turn_qualified::boolean[]) AS qualified, unnest(@turn_scores::int[]) AS score,
                 unnest(@turn_cargo::text[]) AS cargo, unnest(@turn_automatic::boolean[]) AS automatic,
                 unnest(@turn_stood::boolean[]) AS stood) u
    WHERE r.table_id = @table_id AND r.number = @round
    RETURNING 1
), changed AS (
    -- The round the write settles, reopens or reverses (at most one of
    -- each), in one UPDATE: each part of a statement costs its start-up.
    UPDATE rounds AS s SET status = c.status,
        settled_at = CASE WHEN c.status = 'open' THEN NULL ELSE @at::timestamptz END
    FROM (VALUES (@settles::int, 'settled', 'open', 'open'), (@reopens::int, 'open', 'settled', 'settled'),
                 (@voids::int, 'void', 'open', 'settled')) AS c (number, status, was, or_was)
    WHERE s.table_id = @table_id AND c.number > 0 AND s.number = c.number AND s.status IN (c.was, c.or_was)
    RETURNING s.status
), events AS (
    INSERT INTO events (table_id, seq, kind, payload, created_at, prev_hash, hash, seal)
    SELECT t.id, e.seq, e.kind, e.payload::jsonb, @created_at::timestamptz, e.prev_hash, e.hash, e.seal
    FROM tables t,
         (SELECT unnest(@event_seqs::bigint[]) AS seq, unnest(@event_kinds::text[]) AS kind,
                 unnest(@event_payloads::text[]) AS payload, unnest(@event_prev_hashes::bytea[]) AS prev_hash,
                 unnest(@event_hashes::bytea[]) AS hash, unnest(@event_seals::bytea[]) AS seal) e
    WHERE t.id = @table_id
), head AS (
    UPDATE tables AS t SET event_seq = @head_seq::bigint, event_hash = @head_hash::bytea, head_seal = @head_seal::bytea,
        rounds = @rounds::int
    WHERE t.id = @table_id
    RETURNING t.xmin::text AS version
), answer AS (
    INSERT INTO idempotency_keys (table_id, scope, key, request_hash, response_status, response_body, response_content_type,
                                  created_at)
    SELECT t.id, @scope::text, @key::text, @request_hash::bytea, @response_status::int,
           @response_body::bytea, @response_content_type::text, @at::timestamptz
    FROM tables t WHERE t.id = @table_id AND @key::text <> ''
)
SELECT tally_expect(n.actions, coalesce(cardinality(@action_seqs::int[]), 0), 'actions of the round'),
       tally_expect(n.turns, coalesce(cardinality(@turn_seqs::int[]), 0), 'turns of the round'),
       tally_expect(n.settled, CASE WHEN @settles::int > 0 THEN 1 ELSE 0 END, 'an open round to settle'),
       tally_expect(n.reopened, CASE WHEN @reopens::int > 0 THEN 1 ELSE 0 END, 'a settled round to reopen'),
       tally_expect(n.voided, CASE WHEN @voids::int > 0 THEN 1 ELSE 0 END, 'a round to reverse'),
       (SELECT h.version FROM head h)::text AS row_version
FROM (SELECT count(*) FILTER (WHERE w.part = 'action') AS actions, count(*) FILTER (WHERE w.part = 'turn') AS turns,
             count(*) FILTER (WHERE w.part = 'settled') AS settled, count(*) FILTER (WHERE w.part = 'open') AS reopened,
             count(*) FILTER (WHERE w.part = 'void') AS voided
      FROM (SELECT 'action' AS part FROM actions UNION ALL SELECT 'turn' FROM turns
            UNION ALL SELECT status FROM changed) w) n;

-- name: TableNotify :exec
-- TableNotify announces a change to the tally processes listening (every
-- instance's db.Listener), when the transaction commits. It reads no table,
-- so with distributed tables it runs where the listeners are (the
-- coordinator), not on the shard that holds the table.
SELECT pg_notify(@channel::text, @message::text);

-- name: TableClose :exec
WITH closed AS (
    UPDATE tables SET status = 'closed', closed_at = @closed_at WHERE id = @id AND status = 'open'
    RETURNING 1
)
SELECT tally_expect(count(*), 1, 'an open table to close') FROM closed;

-- name: TableUnitValueSet :exec
-- TableUnitValueSet sets (or, with NULLs, clears) what one of the table's
-- units is worth.
UPDATE tables SET unit_currency = sqlc.narg(unit_currency), unit_minor = sqlc.narg(unit_minor) WHERE id = @id;
