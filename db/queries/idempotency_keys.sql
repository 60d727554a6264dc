-- name: IdempotencyKeyGet :one
SELECT * FROM idempotency_keys WHERE table_id = @table_id AND scope = @scope AND key = @key;
