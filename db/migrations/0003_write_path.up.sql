-- 0003_write_path: every row of a table's data is keyed by its table id, the
-- table row carries the head of its audit chain and its round counter, a
-- round's setup, actions and recorded turns are typed columns instead of
-- JSON, accounts exist from the moment a player is seated, and a journal
-- transaction, its postings and the balances they move are written by one
-- function, tally_journal_post.
--
-- The rows a table's writer appends under the table's lock (audit events,
-- rounds' actions and finished turns, journal transactions and postings)
-- have no foreign keys: a key check locks the row it points at, on every
-- row written. The history is made by the service from the rows it has just
-- read under the lock and is checked again by the audit, which replays it;
-- the money is written by one function that checks it as a whole.

-- The table row: the audit chain's head and the number of the latest round,
-- both kept current by the writer that holds the row's lock.
ALTER TABLE tables
    ADD COLUMN event_seq  bigint NOT NULL DEFAULT 0 CHECK (event_seq >= 0),
    ADD COLUMN event_hash bytea  NOT NULL DEFAULT '\x0000000000000000000000000000000000000000000000000000000000000000'
        CHECK (length(event_hash) = 32),
    ADD COLUMN rounds     int    NOT NULL DEFAULT 0 CHECK (rounds >= 0);
UPDATE tables t SET event_seq = e.seq, event_hash = e.hash
FROM (SELECT DISTINCT ON (table_id) table_id, seq, hash FROM events ORDER BY table_id, seq DESC) e
WHERE e.table_id = t.id;
UPDATE tables t SET rounds = r.n
FROM (SELECT table_id, max(number) AS n FROM rounds GROUP BY table_id) r
WHERE r.table_id = t.id;

-- Keys lead with the table id. The composite foreign keys are re-pointed at
-- the new keys, so they are dropped first and made again below.
ALTER TABLE postings DROP CONSTRAINT postings_transaction_id_table_id_fkey,
                     DROP CONSTRAINT postings_account_id_table_id_fkey;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_round_id_table_id_fkey;
ALTER TABLE accounts DROP CONSTRAINT accounts_player_id_table_id_fkey;
ALTER TABLE turns DROP CONSTRAINT turns_round_id_fkey, DROP CONSTRAINT turns_player_id_fkey;
ALTER TABLE round_actions DROP CONSTRAINT round_actions_round_id_fkey, DROP CONSTRAINT round_actions_player_id_fkey;

ALTER TABLE players DROP CONSTRAINT players_pkey, DROP CONSTRAINT players_id_table_id_key,
    DROP CONSTRAINT players_token_hash_key;
ALTER TABLE players ADD PRIMARY KEY (table_id, id);
CREATE UNIQUE INDEX players_token_key ON players (table_id, token_hash);

ALTER TABLE rounds DROP CONSTRAINT rounds_pkey, DROP CONSTRAINT rounds_id_table_id_key;
ALTER TABLE rounds ADD PRIMARY KEY (table_id, id);

ALTER TABLE accounts DROP CONSTRAINT accounts_pkey, DROP CONSTRAINT accounts_id_table_id_key;
ALTER TABLE accounts ADD PRIMARY KEY (table_id, id);
ALTER TABLE accounts ADD FOREIGN KEY (table_id, player_id) REFERENCES players (table_id, id);

-- Journal transactions and postings are written only by tally_journal_post
-- (below), which checks what their foreign keys checked, once per call
-- instead of once per row.
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_pkey,
    DROP CONSTRAINT journal_transactions_id_table_id_key, DROP CONSTRAINT journal_transactions_table_id_fkey;
DROP INDEX journal_transactions_table_idx;
ALTER TABLE journal_transactions ADD PRIMARY KEY (table_id, id);

-- Postings are read by table, in the order they were written (their ids):
-- the key is all the index they need.
ALTER TABLE postings DROP CONSTRAINT postings_pkey;
DROP INDEX postings_transaction_idx, postings_account_idx, postings_table_idx;
ALTER TABLE postings ADD PRIMARY KEY (table_id, id);

-- Every seated player has an account, and every table a pot and a bank:
-- they are made when the player or the table is, never on first use.
INSERT INTO accounts (table_id, kind, player_id)
SELECT p.table_id, 'player', p.id FROM players p
WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.table_id = p.table_id AND a.player_id = p.id);
INSERT INTO accounts (table_id, kind)
SELECT t.id, k.kind FROM tables t, (VALUES ('pot'), ('world')) AS k (kind)
WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.table_id = t.id AND a.kind = k.kind);

-- A round's setup in columns: who plays in which order, the carried pot,
-- whether they ante, a progressive pot's declaration, a playoff; the
-- roll-off throws of a roll-off table's first round; and the game's state
-- just before the round (the engine's GameState as JSON), from which the
-- round resumes without replaying the night.
ALTER TABLE rounds
    ADD COLUMN players     bigint[] NOT NULL DEFAULT '{}',
    ADD COLUMN carried_pot bigint   NOT NULL DEFAULT 0 CHECK (carried_pot >= 0),
    ADD COLUMN ante        boolean  NOT NULL DEFAULT false,
    ADD COLUMN declared    int      NOT NULL DEFAULT 0,
    ADD COLUMN declarer    bigint   NOT NULL DEFAULT 0,
    ADD COLUMN playoff     boolean  NOT NULL DEFAULT false,
    ADD COLUMN roll_off    jsonb,
    ADD COLUMN game        jsonb    NOT NULL DEFAULT '{}';
UPDATE rounds SET
    players     = ARRAY(SELECT x::bigint FROM jsonb_array_elements_text(setup -> 'round' -> 'players') AS x),
    carried_pot = coalesce((setup -> 'round' ->> 'carriedPot')::bigint, 0),
    ante        = coalesce((setup -> 'round' ->> 'ante')::boolean, false),
    declared    = coalesce((setup -> 'round' ->> 'declared')::int, 0),
    declarer    = coalesce(nullif(setup -> 'round' ->> 'declarer', '')::bigint, 0),
    playoff     = coalesce((setup -> 'round' ->> 'playoff')::boolean, false),
    roll_off    = nullif(setup -> 'rollOff', 'null'::jsonb),
    game        = coalesce(setup -> 'game', '{}');
-- The result is the engine's to decide: a settled round's result is
-- replayed from its actions, and its money is in the journal.
ALTER TABLE rounds DROP COLUMN setup, DROP COLUMN result;

-- Actions in columns, keyed by their table: the dice thrown, the cargo dice
-- picked up to re-throw, a named path; and the audit event that recorded it.
ALTER TABLE round_actions
    ADD COLUMN table_id  bigint,
    ADD COLUMN dice      int[]  NOT NULL DEFAULT '{}',
    ADD COLUMN rethrow   int[]  NOT NULL DEFAULT '{}',
    ADD COLUMN path      text   NOT NULL DEFAULT '',
    ADD COLUMN event_seq bigint;
UPDATE round_actions a SET
    table_id  = r.table_id,
    player_id = coalesce(a.player_id, nullif(a.payload ->> 'player', '')::bigint),
    dice      = ARRAY(SELECT x::int FROM jsonb_array_elements_text(coalesce(a.payload -> 'roll' -> 'dice', '[]')) AS x),
    rethrow   = ARRAY(SELECT x::int FROM jsonb_array_elements_text(coalesce(a.payload -> 'roll' -> 'rethrow', '[]')) AS x),
    path      = coalesce(a.payload -> 'roll' ->> 'path', '')
FROM rounds r WHERE r.id = a.round_id;
UPDATE round_actions a SET event_seq = e.seq
FROM rounds r, events e
WHERE r.id = a.round_id AND e.table_id = r.table_id AND e.kind = 'round.action'
  AND (e.payload ->> 'round')::int = r.number AND (e.payload ->> 'seq')::int = a.seq;
ALTER TABLE round_actions DROP CONSTRAINT round_actions_pkey, DROP COLUMN payload,
    ALTER COLUMN table_id SET NOT NULL, ALTER COLUMN player_id SET NOT NULL;
ALTER TABLE round_actions ADD PRIMARY KEY (table_id, round_id, seq);

-- A finished turn as the engine judged it when it ended, keyed by its
-- table: the audit checks each against the replay.
ALTER TABLE turns
    ADD COLUMN table_id  bigint,
    ADD COLUMN qualified boolean NOT NULL DEFAULT false,
    ADD COLUMN score     int     NOT NULL DEFAULT 0,
    ADD COLUMN cargo     int[]   NOT NULL DEFAULT '{}',
    ADD COLUMN automatic boolean NOT NULL DEFAULT false,
    ADD COLUMN stood     boolean NOT NULL DEFAULT false;
UPDATE turns t SET
    table_id  = r.table_id,
    qualified = coalesce((t.outcome ->> 'qualified')::boolean, false),
    score     = coalesce((t.outcome ->> 'score')::int, 0),
    cargo     = ARRAY(SELECT x::int FROM jsonb_array_elements_text(coalesce(t.outcome -> 'cargo', '[]')) AS x),
    automatic = coalesce((t.outcome ->> 'automatic')::boolean, false),
    stood     = coalesce((t.outcome ->> 'stood')::boolean, false)
FROM rounds r WHERE r.id = t.round_id;
ALTER TABLE turns DROP CONSTRAINT turns_pkey, DROP COLUMN outcome, ALTER COLUMN table_id SET NOT NULL;
ALTER TABLE turns ADD PRIMARY KEY (table_id, round_id, seq);
ALTER TABLE events DROP CONSTRAINT events_table_id_fkey;

-- A journal transaction names the audit event that recorded it. The
-- journal is append-only; only this migration fills in the new column for
-- the transactions written before it.
ALTER TABLE journal_transactions ADD COLUMN event_seq bigint;
ALTER TABLE journal_transactions DISABLE TRIGGER journal_transactions_append_only;
UPDATE journal_transactions j SET event_seq = e.seq
FROM events e
WHERE e.table_id = j.table_id AND e.kind LIKE 'ledger.%' AND (e.payload ->> 'transaction')::bigint = j.id;
ALTER TABLE journal_transactions ENABLE TRIGGER journal_transactions_append_only;

-- Idempotency keys live under the table they act on (0 while a table is
-- being made).
ALTER TABLE idempotency_keys ADD COLUMN table_id bigint NOT NULL DEFAULT 0;
-- A stored key's scope names the hash of the token that sent it; that
-- token's table is where a retry after the upgrade looks for it.
UPDATE idempotency_keys k SET table_id = t.table_id
FROM (SELECT id AS table_id, host_token_hash AS token_hash FROM tables
      UNION ALL SELECT id, audit_token_hash FROM tables
      UNION ALL SELECT table_id, token_hash FROM players) t
WHERE k.scope = 'token:' || encode(t.token_hash, 'hex');
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (table_id, scope, key);

-- A journal transaction is written with its postings and the balances
-- they move by tally_journal_post, in one call: it refuses postings that do
-- not sum to zero, a movement with no postings (but a carry-over marker or
-- a round settlement that moved nothing) and an account of another table;
-- it writes the journal row and its postings, and adds each account's net
-- amount to its balance. Journal rows, postings and balances written any
-- other way are refused (TL002, TL001): the function says it is writing by
-- a setting local to the transaction, which the guards check.
DROP TRIGGER postings_apply ON postings;
DROP TRIGGER postings_balanced ON postings;
DROP FUNCTION tally_apply_posting();
DROP FUNCTION tally_check_posting_row();
DROP TRIGGER accounts_guard_balance ON accounts;
DROP FUNCTION tally_guard_balance();
DROP TRIGGER journal_transactions_balanced ON journal_transactions;
DROP FUNCTION tally_check_journal_row();
DROP FUNCTION tally_check_transaction(bigint, text);

CREATE FUNCTION tally_journal_post(p_table bigint, p_kind text, p_round int, p_memo text, p_metadata jsonb,
                                   p_event_seq bigint, p_accounts bigint[], p_amounts bigint[])
RETURNS bigint LANGUAGE plpgsql AS $$
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
        SELECT r.id INTO v_round FROM rounds r WHERE r.table_id = p_table AND r.number = p_round;
        IF v_round IS NULL THEN
            RAISE EXCEPTION 'journal transaction of table % names round %, which it does not have', p_table, p_round
                USING ERRCODE = '23503';
        END IF;
    END IF;
    PERFORM set_config('tally.posting', 'on', true);
    INSERT INTO journal_transactions (table_id, kind, round_id, memo, metadata, event_seq)
    VALUES (p_table, p_kind, v_round, p_memo, p_metadata, p_event_seq)
    RETURNING id INTO txn;
    INSERT INTO postings (table_id, transaction_id, account_id, amount)
    SELECT p_table, txn, u.a, u.m FROM unnest(p_accounts, p_amounts) WITH ORDINALITY AS u (a, m, n) ORDER BY u.n;
    SELECT count(DISTINCT a) INTO wanted FROM unnest(p_accounts) AS a;
    UPDATE accounts a SET balance = a.balance + d.m
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

-- tally_guard_posting refuses the statement it guards unless
-- tally_journal_post is writing; its trigger names the SQLSTATE and the
-- message.
CREATE FUNCTION tally_guard_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('tally.posting', true) IS DISTINCT FROM 'on' THEN
        RAISE EXCEPTION '%', TG_ARGV[1] USING ERRCODE = TG_ARGV[0];
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER journal_transactions_guard BEFORE INSERT ON journal_transactions
    FOR EACH STATEMENT EXECUTE FUNCTION tally_guard_posting('TL002',
        'journal transactions are written only with their postings (tally_journal_post), which must balance');
CREATE TRIGGER postings_guard BEFORE INSERT ON postings
    FOR EACH STATEMENT EXECUTE FUNCTION tally_guard_posting('TL002',
        'postings are written only with their journal transaction (tally_journal_post), which must balance');
CREATE TRIGGER accounts_guard_balance BEFORE UPDATE OF balance ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION tally_guard_posting('TL001',
        'accounts.balance moves only with postings (tally_journal_post)');

-- tally_expect checks that a guarded change touched the rows it should
-- have (a statement wraps its UPDATE or INSERT and counts what came back):
-- rows that were not as the application saw them under the table's lock
-- fail the statement, and with it the transaction, instead of committing
-- half a write (P0002, no_data_found).
CREATE FUNCTION tally_expect(got bigint, want bigint, what text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    IF got IS DISTINCT FROM want THEN
        RAISE EXCEPTION '%: % rows changed, not %', what, got, want USING ERRCODE = 'P0002';
    END IF;
    RETURN got;
END
$$;

-- The table row is rewritten by every write (its chain head), and accounts
-- by every movement of money: room on their pages lets PostgreSQL update
-- them in place (a HOT update) without touching their indexes.
ALTER TABLE tables SET (fillfactor = 50);
ALTER TABLE accounts SET (fillfactor = 50);
