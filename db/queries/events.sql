-- name: EventPage :many
-- EventPage reads up to max of a table's events after seq after; with
-- families, only the events whose kind is of one of those families (the
-- part of the kind before its first dot: player, ledger, host).
SELECT * FROM events
WHERE table_id = @table_id AND seq > @after
  AND (cardinality(@families::text[]) = 0 OR split_part(kind, '.', 1) = ANY(@families::text[]))
ORDER BY seq LIMIT @max;

-- name: EventList :many
SELECT * FROM events WHERE table_id = @table_id ORDER BY seq;

-- name: EventUnsealed :many
-- EventUnsealed lists up to max events written before seals existed
-- (migration 4: up to their table's legacy_seq) that have none yet, table
-- by table.
SELECT e.table_id, e.seq, e.hash FROM events e JOIN tables t ON t.id = e.table_id
WHERE e.seal IS NULL AND e.seq <= t.legacy_seq ORDER BY e.table_id, e.seq LIMIT @max;

-- name: EventSeal :one
SELECT tally_seal_events(@table_id, @seqs::bigint[], @seals::bytea[])::bigint AS sealed;

-- name: TableHeadUnsealed :many
-- TableHeadUnsealed lists up to max tables whose head is still where
-- migration 4 found it and has no seal yet.
SELECT id, event_seq, event_hash FROM tables WHERE head_seal IS NULL AND event_seq = legacy_seq ORDER BY id LIMIT @max;

-- name: TableHeadSeal :one
SELECT tally_seal_head(@id, @event_seq, @head_seal::bytea)::bigint AS sealed;

-- name: EventSealedAny :one
-- EventSealedAny says whether any event has a seal: legacy history is
-- sealed only on a database where none has yet (one just upgraded).
SELECT EXISTS (SELECT 1 FROM events WHERE seal IS NOT NULL)::boolean AS sealed;
