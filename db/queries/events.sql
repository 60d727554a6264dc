-- name: EventPage :many
SELECT * FROM events WHERE table_id = @table_id AND seq > @after ORDER BY seq LIMIT @max;

-- name: EventList :many
SELECT * FROM events WHERE table_id = @table_id ORDER BY seq;

-- name: EventUnsealed :many
-- EventUnsealed lists up to max events written before seals existed
-- (migration 4), table by table.
SELECT table_id, seq, hash FROM events WHERE seal IS NULL ORDER BY table_id, seq LIMIT @max;

-- name: EventSeal :one
SELECT tally_seal_events(@table_id, @seqs::bigint[], @seals::bytea[])::bigint AS sealed;

-- name: TableHeadUnsealed :many
SELECT id, event_seq, event_hash FROM tables WHERE head_seal IS NULL ORDER BY id LIMIT @max;

-- name: TableHeadSeal :exec
UPDATE tables SET head_seal = @head_seal WHERE id = @id AND event_seq = @event_seq AND head_seal IS NULL;
