-- 0004_least_privilege: Tally serves as a role that cannot rewrite history,
-- and the history carries seals made with a key the database never sees.
--
-- Migrations run as the schema's owner. tallyd serves as a login role that
-- is a member of tally_runtime, which this migration creates (the owner
-- needs CREATEROLE for that once, or an administrator creates it first) and
-- grants exactly what serving needs:
--   - the audit log (events), rounds' actions and finished turns: read and
--     append, never change or remove;
--   - the journal, its postings and the accounts' balances: read only;
--     money moves through tally_journal_post, which runs as the owner
--     (SECURITY DEFINER) and checks every movement as a whole;
--   - tables, players, rounds: read, add, and change only the columns a
--     write keeps current (the chain head, a seat's token, a round's status);
--   - idempotency keys and audit checkpoints: what their upkeep needs.
-- Only an owner can alter a table, disable or add a trigger, or truncate:
-- the runtime role can do none of those.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tally_runtime') THEN
        CREATE ROLE tally_runtime NOLOGIN;
    END IF;
END
$$;

-- A seal is HMAC-SHA-256, under a key kept outside the database, of an
-- event's table, sequence number and hash (events.seal), or of the chain's
-- head (tables.head_seal): rewriting rows and hashing them again needs the
-- key as well as the database. Every event written from now on carries its
-- seal (tally_events_sealed refuses one without). The events written before
-- this migration, up to each table's legacy_seq, are sealed once by tallyd
-- when it first starts after it (tally_seal_events, tally_seal_head, which
-- seal nothing newer); the audit reports any event still without one.
ALTER TABLE events ADD COLUMN seal bytea CHECK (length(seal) = 32);
ALTER TABLE tables ADD COLUMN head_seal bytea CHECK (length(head_seal) = 32),
                   ADD COLUMN legacy_seq bigint NOT NULL DEFAULT 0;
UPDATE tables SET legacy_seq = event_seq;

CREATE FUNCTION tally_events_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.seal IS NULL THEN
        RAISE EXCEPTION 'event % of table % has no seal: events are written sealed', NEW.seq, NEW.table_id
            USING ERRCODE = 'TL001';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER events_sealed BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION tally_events_sealed();

-- Events stay append-only; the one change allowed is giving an unsealed
-- event its seal, with nothing else about it changed.
CREATE FUNCTION tally_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.seal IS NULL AND NEW.seal IS NOT NULL
       AND (NEW.table_id, NEW.seq, NEW.kind, NEW.payload, NEW.created_at, NEW.prev_hash, NEW.hash)
           IS NOT DISTINCT FROM (OLD.table_id, OLD.seq, OLD.kind, OLD.payload, OLD.created_at, OLD.prev_hash, OLD.hash) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'TL001';
END
$$;
DROP TRIGGER events_append_only ON events;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION tally_events_append_only();

-- tally_seal_events gives events written before this migration (up to
-- their table's legacy_seq) that have no seal yet the seals tallyd computed
-- for them; newer and sealed events are left as they are. tally_seal_head
-- seals a head still where this migration found it.
CREATE FUNCTION tally_seal_events(p_table bigint, p_seqs bigint[], p_seals bytea[]) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    n bigint;
BEGIN
    UPDATE public.events e SET seal = u.s
    FROM unnest(p_seqs, p_seals) AS u (q, s), public.tables t
    WHERE e.table_id = p_table AND e.seq = u.q AND e.seal IS NULL AND t.id = p_table AND e.seq <= t.legacy_seq;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
CREATE FUNCTION tally_seal_head(p_table bigint, p_seq bigint, p_seal bytea) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    n bigint;
BEGIN
    UPDATE public.tables SET head_seal = p_seal
    WHERE id = p_table AND event_seq = p_seq AND legacy_seq = p_seq AND head_seal IS NULL;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;

-- An audit checkpoint, left by an audit that found everything in order:
--   - digest is the SHA-256 of every stored row of the table as that audit
--     read it (its events, journal, postings, accounts, rounds, actions,
--     turns and its row's head), computed by the database (CheckpointDigest);
--     report is the audit's report. A later audit finding the same digest
--     answers with that report, reading and replaying nothing;
--   - the history up to event seq (whose hash it names) was verified, and
--     its rounds up to round replayed through the engine. rows is the
--     SHA-256 of those rounds' stored rows (rounds, actions, turns), and
--     state the game's state after them (the engine's GameState as JSON,
--     kept as bytes): a later audit finding the same rows resumes the
--     replay from state.
-- seal (under the key outside the database) covers all of it, so a
-- checkpoint cannot be forged to skip the checks of rewritten rows.
CREATE TABLE audit_checkpoints (
    table_id   bigint      PRIMARY KEY,
    seq        bigint      NOT NULL CHECK (seq >= 0),
    hash       bytea       NOT NULL CHECK (length(hash) = 32),
    round      int         NOT NULL CHECK (round >= 0),
    rows       bytea       NOT NULL CHECK (length(rows) = 32),
    state      bytea       NOT NULL,
    digest     bytea       NOT NULL CHECK (length(digest) = 32),
    report     bytea       NOT NULL,
    seal       bytea       NOT NULL CHECK (length(seal) = 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Stored answers expire (see table.KeyRetention); their age is read by
-- table, under its key.
CREATE INDEX idempotency_keys_age_idx ON idempotency_keys (table_id, created_at);

-- tally_journal_post runs as the owner: it is the runtime role's only way
-- to move money. Like every function here that runs as the owner, it names
-- its tables by their schema and searches only PostgreSQL's own functions
-- and operators (search_path pg_catalog, then pg_temp, which is never
-- searched for those): nobody's objects can stand in for the ones it
-- uses. Nobody but the owner may create objects in the schema, nor
-- temporary tables in the database.
CREATE OR REPLACE FUNCTION tally_journal_post(p_table bigint, p_kind text, p_round int, p_memo text, p_metadata jsonb,
                                              p_event_seq bigint, p_accounts bigint[], p_amounts bigint[])
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    txn     bigint;
    v_round bigint;
    total   numeric;
    wanted  int;
    moved   int;
BEGIN
    IF cardinality(p_accounts) IS DISTINCT FROM cardinality(p_amounts) THEN
        RAISE EXCEPTION 'journal transaction of table %: % accounts for % amounts', p_table,
            cardinality(p_accounts), cardinality(p_amounts) USING ERRCODE = 'TL002';
    END IF;
    SELECT coalesce(sum(m), 0) INTO total FROM unnest(p_amounts) AS m;
    IF total <> 0 THEN
        RAISE EXCEPTION 'journal transaction of table % is unbalanced: its postings sum to %', p_table, total
            USING ERRCODE = 'TL002';
    END IF;
    IF coalesce(cardinality(p_accounts), 0) = 0 AND p_kind NOT IN ('carry', 'round_settle') THEN
        RAISE EXCEPTION 'journal transaction of table % (%) has no postings', p_table, p_kind
            USING ERRCODE = 'TL002';
    END IF;
    IF p_round IS NOT NULL THEN
        SELECT r.id INTO v_round FROM public.rounds r WHERE r.table_id = p_table AND r.number = p_round;
        IF v_round IS NULL THEN
            RAISE EXCEPTION 'journal transaction of table % names round %, which it does not have', p_table, p_round
                USING ERRCODE = '23503';
        END IF;
    END IF;
    PERFORM set_config('tally.posting', 'on', true);
    INSERT INTO public.journal_transactions (table_id, kind, round_id, memo, metadata, event_seq)
    VALUES (p_table, p_kind, v_round, p_memo, p_metadata, p_event_seq)
    RETURNING id INTO txn;
    INSERT INTO public.postings (table_id, transaction_id, account_id, amount)
    SELECT p_table, txn, u.a, u.m FROM unnest(p_accounts, p_amounts) WITH ORDINALITY AS u (a, m, n) ORDER BY u.n;
    SELECT count(DISTINCT a) INTO wanted FROM unnest(p_accounts) AS a;
    UPDATE public.accounts a SET balance = a.balance + d.m
    FROM (SELECT u.a, sum(u.m) AS m FROM unnest(p_accounts, p_amounts) AS u (a, m) GROUP BY u.a) d
    WHERE a.table_id = p_table AND a.id = d.a;
    GET DIAGNOSTICS moved = ROW_COUNT;
    IF moved <> wanted THEN
        RAISE EXCEPTION 'journal transaction of table % posts to an account the table does not have', p_table
            USING ERRCODE = '23503';
    END IF;
    PERFORM set_config('tally.posting', 'off', true);
    RETURN txn;
END
$$;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$$;

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO tally_runtime;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO tally_runtime;
GRANT SELECT, INSERT ON tables, players, rounds, round_actions, turns, events TO tally_runtime;
-- An account is opened with no money: its balance moves only with postings.
GRANT SELECT, INSERT (table_id, kind, player_id) ON accounts TO tally_runtime;
GRANT UPDATE (event_seq, event_hash, head_seal, rounds, status, closed_at) ON tables TO tally_runtime;
GRANT UPDATE (token_hash, claimed_at, left_at) ON players TO tally_runtime;
GRANT UPDATE (status, settled_at) ON rounds TO tally_runtime;
GRANT SELECT ON journal_transactions, postings TO tally_runtime;
-- Reading the schema's version lets tallyd, serving as the runtime role,
-- start when there is nothing to migrate.
GRANT SELECT ON schema_migrations TO tally_runtime;
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys, audit_checkpoints TO tally_runtime;
GRANT EXECUTE ON FUNCTION tally_journal_post(bigint, text, int, text, jsonb, bigint, bigint[], bigint[]),
    tally_seal_events(bigint, bigint[], bytea[]), tally_seal_head(bigint, bigint, bytea),
    tally_expect(bigint, bigint, text) TO tally_runtime;
