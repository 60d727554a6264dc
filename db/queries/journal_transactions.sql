-- name: JournalInsert :exec
-- JournalInsert writes a journal transaction and its postings in one
-- statement, as the balance trigger requires.
WITH t AS (
    INSERT INTO journal_transactions (table_id, kind, round_id, memo, metadata, event_seq)
    VALUES (@table_id, @kind,
            (SELECT r.id FROM rounds r WHERE r.table_id = @table_id AND r.number = sqlc.narg('round')),
            @memo, @metadata, @event_seq)
    RETURNING id
)
INSERT INTO postings (table_id, transaction_id, account_id, amount)
SELECT @table_id, t.id, unnest(@account_ids::bigint[]), unnest(@amounts::bigint[]) FROM t;

-- name: JournalListByTable :many
SELECT j.id, j.kind, j.round_id, r.number AS round, j.memo, j.metadata, j.created_at, j.event_seq
FROM journal_transactions j
LEFT JOIN rounds r ON r.table_id = j.table_id AND r.id = j.round_id
WHERE j.table_id = @table_id
ORDER BY j.id;
