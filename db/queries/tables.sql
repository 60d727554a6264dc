-- name: TableNextID :one
-- TableNextID takes the id of a table about to be made, which its tokens
-- carry.
SELECT nextval(pg_get_serial_sequence('tables', 'id'))::bigint AS id;

-- name: TableInsert :one
-- TableInsert makes a table, under an id from TableNextID, with its pot and
-- its bank (the world account).
WITH t AS (
    INSERT INTO tables (id, name, ruleset, currency, join_code, host_token_hash, audit_token_hash, no_overdraft)
    OVERRIDING SYSTEM VALUE
    VALUES (@id, @name, @ruleset, @currency, @join_code, @host_token_hash, @audit_token_hash, @no_overdraft)
    RETURNING *
), house AS (
    INSERT INTO accounts (table_id, kind)
    SELECT t.id, k.kind FROM t, (VALUES ('pot'), ('world')) AS k (kind)
)
SELECT * FROM t;

-- name: TableLock :one
SELECT * FROM tables WHERE id = @id FOR UPDATE;

-- name: TableGet :one
SELECT * FROM tables WHERE id = @id;

-- name: TableIDByJoinCode :one
SELECT id FROM tables WHERE join_code = @join_code;

-- name: TableAdvance :exec
UPDATE tables SET event_seq = @event_seq, event_hash = @event_hash, rounds = @rounds WHERE id = @id;

-- name: TableClose :execrows
UPDATE tables SET status = 'closed', closed_at = now() WHERE id = @id AND status = 'open';
