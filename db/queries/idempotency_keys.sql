-- name: IdempotencyKeyGet :one
-- IdempotencyKeyGet finds a stored answer by its primary key, and only by
-- it: with the age of the answer in the condition, the planner took the
-- index on (table_id, created_at) (idempotency_keys_age_idx) and read
-- every answer the table had stored that day. Whether it has expired is
-- decided by the caller (db.Batch.IdempotencyKeyGet).
SELECT * FROM idempotency_keys
WHERE table_id = @table_id AND scope = @scope AND key = @key;

-- name: IdempotencyKeyInsert :exec
-- IdempotencyKeyInsert stores the answer to a key on its own, for the one
-- write whose key is not stored under the table it writes: making a table
-- (table 0). Every other write stores its answer with TableAppend.
INSERT INTO idempotency_keys (table_id, scope, key, request_hash, response_status, response_body, response_content_type, created_at)
VALUES (@table_id, @scope, @key, @request_hash, @response_status, @response_body, @response_content_type, @created_at);

-- name: IdempotencyKeyExpire :execrows
-- IdempotencyKeyExpire removes at most max answers stored at or before
-- before, oldest first. It is the one statement that spans every table
-- (the upkeep of expired keys); it runs in the background, in small
-- batches.
DELETE FROM idempotency_keys k
USING (SELECT table_id, scope, key FROM idempotency_keys
       WHERE created_at <= @before::timestamptz
       ORDER BY created_at LIMIT @max) old
WHERE k.table_id = old.table_id AND k.scope = old.scope AND k.key = old.key;

-- name: IdempotencyKeyListAll :many
-- IdempotencyKeyListAll lists every stored key, for the one rewrite of the
-- keys stored before migration 4 (in plain text) as their HMACs.
SELECT table_id, scope, key FROM idempotency_keys ORDER BY table_id, scope, key;

-- name: IdempotencyKeyRename :exec
UPDATE idempotency_keys k SET key = u.n
FROM (SELECT unnest(@table_ids::bigint[]) AS t, unnest(@scopes::text[]) AS s, unnest(@olds::text[]) AS o,
             unnest(@news::text[]) AS n) AS u
WHERE k.table_id = u.t AND k.scope = u.s AND k.key = u.o;
