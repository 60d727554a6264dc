-- name: RetiredTokenInsert :exec
-- RetiredTokenInsert keeps why a token stopped working.
INSERT INTO retired_tokens (table_id, token_hash, reason, player_id, retired_at)
VALUES (@table_id, @token_hash, @reason, sqlc.narg('player_id'), @retired_at)
ON CONFLICT (table_id, token_hash) DO NOTHING;

-- name: RetiredTokenGet :one
-- RetiredTokenGet says why a token of the table stopped working, if it did.
SELECT * FROM retired_tokens WHERE table_id = @table_id AND token_hash = @token_hash;
