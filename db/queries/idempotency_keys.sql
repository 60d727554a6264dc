-- name: IdempotencyKeyGet :one
SELECT * FROM idempotency_keys WHERE table_id = @table_id AND scope = @scope AND key = @key;

-- name: IdempotencyKeyInsert :exec
INSERT INTO idempotency_keys (table_id, scope, key, request_hash, response_status, response_body, response_content_type)
VALUES (@table_id, @scope, @key, @request_hash, @response_status, @response_body, @response_content_type);
