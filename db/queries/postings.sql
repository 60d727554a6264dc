-- name: PostingListByTable :many
SELECT p.id, p.transaction_id, p.account_id, a.kind, a.player_id, p.amount
FROM postings p
JOIN accounts a ON a.table_id = p.table_id AND a.id = p.account_id
WHERE p.table_id = @table_id
ORDER BY p.id;
