-- name: HostRecoveryOffer :exec
-- HostRecoveryOffer makes code_hash the table's host recovery code until
-- expires_at, replacing the code offered before (spent or not): a table
-- has one code at a time.
INSERT INTO host_recoveries (table_id, code_hash, created_at, expires_at)
VALUES (@table_id, @code_hash, @created_at, @expires_at)
ON CONFLICT (table_id) DO UPDATE
SET code_hash = EXCLUDED.code_hash, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, redeemed_at = NULL;

-- name: HostRecoveryGet :one
-- HostRecoveryGet reads the table's host recovery code if its hash is
-- code_hash.
SELECT * FROM host_recoveries WHERE table_id = @table_id AND code_hash = @code_hash;

-- name: HostRecoverySpend :exec
-- HostRecoverySpend marks the table's code spent, and moves the host role
-- to the token whose hash is host_token_hash, in one statement: the code
-- must still be unspent.
WITH spent AS (
    UPDATE host_recoveries SET redeemed_at = @redeemed_at::timestamptz
    WHERE table_id = @table_id AND code_hash = @code_hash AND redeemed_at IS NULL
    RETURNING 1
), moved AS (
    UPDATE tables SET host_token_hash = @host_token_hash WHERE id = @table_id
    RETURNING 1
)
SELECT tally_expect((SELECT count(*) FROM spent), 1, 'an unspent host recovery code'),
       tally_expect((SELECT count(*) FROM moved), 1, 'the table whose host moves');
