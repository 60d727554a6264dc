-- name: PostingListByTable :many
SELECT p.id, p.transaction_id, p.account_id, a.kind, a.player_id, p.amount
FROM postings p
JOIN accounts a ON a.table_id = p.table_id AND a.id = p.account_id
WHERE p.table_id = @table_id
ORDER BY p.id;

-- name: PostingListByJournalPage :many
-- PostingListByJournalPage is the postings of the journal transactions
-- JournalPageByTable reads with the same arguments.
SELECT p.id, p.transaction_id, p.account_id, a.kind, a.player_id, p.amount
FROM postings p
JOIN accounts a ON a.table_id = p.table_id AND a.id = p.account_id
WHERE p.table_id = @table_id
  AND p.transaction_id IN (SELECT j.id FROM journal_transactions j WHERE j.table_id = @table_id AND j.id > @after
                           ORDER BY j.id LIMIT @max)
ORDER BY p.id;

-- name: PostingListCorrectable :many
-- PostingListCorrectable is the postings of the journal transactions
-- JournalListCorrectable reads with the same arguments.
SELECT p.id, p.transaction_id, p.account_id, a.kind, a.player_id, p.amount
FROM postings p
JOIN accounts a ON a.table_id = p.table_id AND a.id = p.account_id
WHERE p.table_id = @table_id
  AND p.transaction_id IN (SELECT j.id FROM journal_transactions j
                           LEFT JOIN rounds r ON r.table_id = j.table_id AND r.id = j.round_id
                           WHERE j.table_id = @table_id
                             AND (j.kind = 'reversal' OR j.event_seq = @event_seq OR r.number = @round::int))
ORDER BY p.id;
