-- name: PaymentClaimList :many
-- PaymentClaimList is a table's payment claims, oldest first.
SELECT * FROM payment_claims WHERE table_id = @table_id ORDER BY id;

-- name: PaymentClaimInsert :exec
INSERT INTO payment_claims (table_id, id, payer, payee, amount, created_at)
VALUES (@table_id, @id, @payer, @payee, @amount, @created_at);

-- name: PaymentClaimResolve :exec
-- PaymentClaimResolve confirms or refuses a claim still "sent"; a claim
-- resolved already fails the statement (tally_expect), and the write with
-- it.
WITH resolved AS (
    UPDATE payment_claims SET status = @status, reason = @reason, resolved_by = @resolved_by, resolved_at = @resolved_at
    WHERE table_id = @table_id AND id = @id AND status = 'sent'
    RETURNING 1
)
SELECT tally_expect(count(*), 1, 'a sent payment claim') FROM resolved;
