-- name: EventInsert :exec
-- EventInsert appends a request's events in one statement.
INSERT INTO events (table_id, seq, kind, payload, created_at, prev_hash, hash)
SELECT @table_id, unnest(@seqs::bigint[]), unnest(@kinds::text[]), unnest(@payloads::text[])::jsonb, @created_at,
       unnest(@prev_hashes::bytea[]), unnest(@hashes::bytea[]);

-- name: EventPage :many
SELECT * FROM events WHERE table_id = @table_id AND seq > @after ORDER BY seq LIMIT @max;

-- name: EventList :many
SELECT * FROM events WHERE table_id = @table_id ORDER BY seq;

-- name: EventNotify :exec
-- EventNotify announces a table's change; PostgreSQL delivers it only when
-- the transaction commits.
SELECT pg_notify(@channel::text, @message::text);
