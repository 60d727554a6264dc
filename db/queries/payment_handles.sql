-- name: PaymentHandleList :many
-- PaymentHandleList is every handle of a table's players, by player and
-- method.
SELECT * FROM payment_handles WHERE table_id = @table_id ORDER BY player_id, method;

-- name: PaymentHandlePut :exec
-- PaymentHandlePut adds a player's handle for a method, or replaces it.
INSERT INTO payment_handles (table_id, player_id, method, handle, name, bic, updated_at)
VALUES (@table_id, @player_id, @method, @handle, @name, @bic, @updated_at)
ON CONFLICT (table_id, player_id, method) DO UPDATE
SET handle = excluded.handle, name = excluded.name, bic = excluded.bic, updated_at = excluded.updated_at;

-- name: PaymentHandleDelete :execrows
-- PaymentHandleDelete removes a player's handle for a method: the row is
-- gone.
DELETE FROM payment_handles WHERE table_id = @table_id AND player_id = @player_id AND method = @method;

-- name: PaymentHandlesForget :exec
-- PaymentHandlesForget removes every handle of a seat: a freed seat's
-- next holder must not be paid through the handles its last one added.
DELETE FROM payment_handles WHERE table_id = @table_id AND player_id = @player_id;
