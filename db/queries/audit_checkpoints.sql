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
    created_at = excluded.created_at;

-- name: CheckpointDigest :one
-- CheckpointDigest is the SHA-256 of every stored row of a table, each as
-- PostgreSQL writes the row out (fields quoted where they must be), in key
-- order: a row changed, added or removed changes it. The database computes
-- it, so an audit of an unchanged table reads 32 bytes, not its history.
-- Every name is qualified, so that no object on a search path can stand in
-- for those it means.
SELECT pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.concat_ws(E'\n',
    -- What the names stand for: the same tables (not views, no rules, the
    -- same triggers) as when the checkpoint was made.
    (SELECT pg_catalog.string_agg(pg_catalog.concat_ws(',', c.oid, c.relname, c.relkind, c.relhasrules,
                (SELECT pg_catalog.string_agg(pg_catalog.concat_ws(':', tg.oid, tg.tgname, tg.tgenabled), ',' ORDER BY tg.oid)
                 FROM pg_catalog.pg_trigger tg WHERE tg.tgrelid = c.oid)), E'\n' ORDER BY c.relname)
     FROM pg_catalog.pg_class c
     WHERE c.relnamespace = 'public'::pg_catalog.regnamespace
       AND c.relname IN ('tables', 'players', 'events', 'journal_transactions', 'postings', 'accounts', 'rounds',
                         'round_actions', 'turns', 'payment_claims')),
    (SELECT h::text FROM (SELECT tb.name, tb.ruleset, tb.currency, tb.no_overdraft, tb.event_seq, tb.event_hash,
                                 tb.head_seal, tb.legacy_seq, tb.status, tb.rounds
                          FROM public.tables tb WHERE tb.id = @table_id) h),
    (SELECT pg_catalog.string_agg(pl::text, E'\n' ORDER BY pl.id) FROM public.players pl WHERE pl.table_id = @table_id),
    (SELECT pg_catalog.string_agg(e::text, E'\n' ORDER BY e.seq) FROM public.events e WHERE e.table_id = @table_id),
    (SELECT pg_catalog.string_agg(j::text, E'\n' ORDER BY j.id) FROM public.journal_transactions j WHERE j.table_id = @table_id),
    (SELECT pg_catalog.string_agg(p::text, E'\n' ORDER BY p.id) FROM public.postings p WHERE p.table_id = @table_id),
    (SELECT pg_catalog.string_agg(a::text, E'\n' ORDER BY a.id) FROM public.accounts a WHERE a.table_id = @table_id),
    (SELECT pg_catalog.string_agg(r::text, E'\n' ORDER BY r.number) FROM public.rounds r WHERE r.table_id = @table_id),
    (SELECT pg_catalog.string_agg(x::text, E'\n' ORDER BY x.round_id, x.seq) FROM public.round_actions x WHERE x.table_id = @table_id),
    (SELECT pg_catalog.string_agg(u::text, E'\n' ORDER BY u.round_id, u.seq, u.action_seq) FROM public.turns u WHERE u.table_id = @table_id),
    (SELECT pg_catalog.string_agg(c::text, E'\n' ORDER BY c.id) FROM public.payment_claims c WHERE c.table_id = @table_id)
), 'UTF8'))::bytea AS digest;
