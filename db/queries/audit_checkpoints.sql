-- name: CheckpointGet :one
SELECT * FROM audit_checkpoints WHERE table_id = @table_id;

-- name: CheckpointPut :exec
-- CheckpointPut keeps a table's latest checkpoint, made by an audit that
-- found everything in order.
INSERT INTO audit_checkpoints (table_id, seq, hash, round, rows, state, digest, report, seal)
VALUES (@table_id, @seq, @hash, @round, @rows, @state, @digest, @report, @seal)
ON CONFLICT (table_id) DO UPDATE
SET seq = excluded.seq, hash = excluded.hash, round = excluded.round, rows = excluded.rows,
    state = excluded.state, digest = excluded.digest, report = excluded.report, seal = excluded.seal,
    created_at = now();

-- name: CheckpointDigest :one
-- CheckpointDigest is the SHA-256 of every stored row of a table, each as
-- PostgreSQL writes the row out (fields quoted where they must be), in key
-- order: a row changed, added or removed changes it. The database computes
-- it, so an audit of an unchanged table reads 32 bytes, not its history.
SELECT sha256(convert_to(concat_ws(E'\n',
    (SELECT h::text FROM (SELECT tb.event_seq, tb.event_hash, tb.head_seal, tb.status, tb.rounds FROM tables tb WHERE tb.id = @table_id) h),
    (SELECT string_agg(e::text, E'\n' ORDER BY e.seq) FROM events e WHERE e.table_id = @table_id),
    (SELECT string_agg(j::text, E'\n' ORDER BY j.id) FROM journal_transactions j WHERE j.table_id = @table_id),
    (SELECT string_agg(p::text, E'\n' ORDER BY p.id) FROM postings p WHERE p.table_id = @table_id),
    (SELECT string_agg(a::text, E'\n' ORDER BY a.id) FROM accounts a WHERE a.table_id = @table_id),
    (SELECT string_agg(r::text, E'\n' ORDER BY r.number) FROM rounds r WHERE r.table_id = @table_id),
    (SELECT string_agg(x::text, E'\n' ORDER BY x.round_id, x.seq) FROM round_actions x WHERE x.table_id = @table_id),
    (SELECT string_agg(u::text, E'\n' ORDER BY u.round_id, u.seq) FROM turns u WHERE u.table_id = @table_id)
), 'UTF8'))::bytea AS digest;
