-- name: AccountList :many
SELECT * FROM accounts WHERE table_id = @table_id ORDER BY id;
