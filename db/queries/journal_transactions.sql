-- name: JournalInsert :exec
-- JournalInsert writes a journal transaction with its postings and the
-- balances they move (the function refuses postings that do not balance).
SELECT tally_journal_post(@table_id::bigint, @kind::text, sqlc.narg('round')::int, @memo::text, @metadata::jsonb,
                          @event_seq::bigint, @account_ids::bigint[], @amounts::bigint[]);

-- name: JournalListByTable :many
SELECT j.id, j.kind, j.round_id, r.number AS round, j.memo, j.metadata, j.created_at, j.event_seq
FROM journal_transactions j
LEFT JOIN rounds r ON r.table_id = j.table_id AND r.id = j.round_id
WHERE j.table_id = @table_id
ORDER BY j.id;

-- name: JournalPageByTable :many
SELECT j.id, j.kind, j.round_id, r.number AS round, j.memo, j.metadata, j.created_at, j.event_seq
FROM journal_transactions j
LEFT JOIN rounds r ON r.table_id = j.table_id AND r.id = j.round_id
WHERE j.table_id = @table_id AND j.id > @after
ORDER BY j.id
LIMIT @max;

-- name: JournalListCorrectable :many
-- JournalListCorrectable is what a correction reads of the journal: the
-- transaction that ledger event @event_seq recorded, round @round's
-- transactions, and every reversal (which say what is reversed already).
SELECT j.id, j.kind, j.round_id, r.number AS round, j.memo, j.metadata, j.created_at, j.event_seq
FROM journal_transactions j
LEFT JOIN rounds r ON r.table_id = j.table_id AND r.id = j.round_id
WHERE j.table_id = @table_id
  AND (j.kind = 'reversal' OR j.event_seq = @event_seq OR r.number = @round::int)
ORDER BY j.id;

-- name: JournalRolledNights :many
-- JournalRolledNights is the nights a crew's journal has rolled in (each
-- at most once: journal_transactions_night_key).
SELECT (metadata ->> 'night')::bigint AS night FROM journal_transactions
WHERE table_id = @table_id AND kind = 'night'
ORDER BY id;
