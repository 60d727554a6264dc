-- name: AccountList :many
SELECT * FROM accounts WHERE table_id = @table_id ORDER BY id;

-- name: AccountListChanged :many
-- AccountListChanged is AccountList when the table's chain head is no
-- longer the given one, and nothing when it is.
SELECT * FROM accounts WHERE table_id = @table_id
  AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.id = @table_id AND t.event_seq = @head_seq AND t.event_hash = @head_hash)
ORDER BY id;
