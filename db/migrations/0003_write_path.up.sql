-- 0003_write_path: every row of a table's data is keyed by its table id, the
-- table row carries the head of its audit chain and its round counter, a
-- round's setup, actions and recorded turns are typed columns instead of
-- JSON, accounts exist from the moment a player is seated, and balances are
-- moved once per statement instead of once per posting.

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

ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_pkey,
    DROP CONSTRAINT journal_transactions_id_table_id_key;
DROP INDEX journal_transactions_table_idx;
ALTER TABLE journal_transactions ADD PRIMARY KEY (table_id, id);
ALTER TABLE journal_transactions ADD FOREIGN KEY (table_id, round_id) REFERENCES rounds (table_id, id);

ALTER TABLE postings DROP CONSTRAINT postings_pkey;
DROP INDEX postings_transaction_idx, postings_account_idx;
ALTER TABLE postings ADD PRIMARY KEY (table_id, id);
CREATE INDEX postings_account_idx ON postings (table_id, account_id);
ALTER TABLE postings ADD FOREIGN KEY (table_id, transaction_id) REFERENCES journal_transactions (table_id, id),
                     ADD FOREIGN KEY (table_id, account_id) REFERENCES accounts (table_id, id);

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
ALTER TABLE round_actions ADD PRIMARY KEY (table_id, round_id, seq),
    ADD FOREIGN KEY (table_id, round_id) REFERENCES rounds (table_id, id),
    ADD FOREIGN KEY (table_id, player_id) REFERENCES players (table_id, id);

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
ALTER TABLE turns ADD PRIMARY KEY (table_id, round_id, seq),
    ADD FOREIGN KEY (table_id, round_id) REFERENCES rounds (table_id, id),
    ADD FOREIGN KEY (table_id, player_id) REFERENCES players (table_id, id);

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
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (table_id, scope, key);

-- Balances move once per statement of postings, and every journal
-- transaction that got postings must still sum to zero when the statement
-- ends; a transaction's postings are therefore written in one statement.
-- The guard on accounts.balance lets the trigger's update through (it runs
-- at trigger depth 2) and refuses anyone else's.
DROP TRIGGER postings_apply ON postings;
DROP TRIGGER postings_balanced ON postings;
DROP FUNCTION tally_apply_posting();
DROP FUNCTION tally_check_posting_row();

CREATE FUNCTION tally_post() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT n.table_id, n.transaction_id, s.total INTO bad
    FROM (SELECT DISTINCT table_id, transaction_id FROM new_postings) n,
         LATERAL (SELECT sum(p.amount) AS total FROM postings p
                  WHERE p.table_id = n.table_id AND p.transaction_id = n.transaction_id) s
    WHERE s.total <> 0
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'journal transaction % is unbalanced: its postings sum to %', bad.transaction_id, bad.total
            USING ERRCODE = 'TL002';
    END IF;
    UPDATE accounts a SET balance = a.balance + s.amount
    FROM (SELECT table_id, account_id, sum(amount) AS amount FROM new_postings GROUP BY table_id, account_id) s
    WHERE a.table_id = s.table_id AND a.id = s.account_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER postings_post AFTER INSERT ON postings
    REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION tally_post();

-- The commit-time check of a journal transaction (it has postings, unless
-- it is a carry-over marker or an empty round settlement, and they sum to
-- zero) looks its postings up by table.
DROP TRIGGER journal_transactions_balanced ON journal_transactions;
DROP FUNCTION tally_check_journal_row();
DROP FUNCTION tally_check_transaction(bigint, text);
CREATE FUNCTION tally_check_journal_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    total numeric;
    n     bigint;
BEGIN
    SELECT coalesce(sum(amount), 0), count(*) INTO total, n
    FROM postings WHERE table_id = NEW.table_id AND transaction_id = NEW.id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'journal transaction % is unbalanced: its postings sum to %', NEW.id, total
            USING ERRCODE = 'TL002';
    END IF;
    IF n = 0 AND NEW.kind NOT IN ('carry', 'round_settle') THEN
        RAISE EXCEPTION 'journal transaction % (%) has no postings', NEW.id, NEW.kind
            USING ERRCODE = 'TL002';
    END IF;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_transactions_balanced AFTER INSERT ON journal_transactions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tally_check_journal_row();
