-- 0003_write_path down: back to per-posting balance triggers, keys on ids,
-- and rounds, actions and turns as JSON.
--
-- A round played under this schema cannot go back: the old schema stores
-- each settled round's result and each turn's rolls as the engine built
-- them, which SQL cannot rebuild, and old Tally reads them. So the way down
-- is refused (TL009, nothing changed) while any round is stored; restore
-- the backup taken before the upgrade instead.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM rounds) THEN
        RAISE EXCEPTION 'migration 3 cannot be reverted with rounds stored: the older schema keeps engine-built results that SQL cannot rebuild; restore a backup taken before the upgrade'
            USING ERRCODE = 'TL009';
    END IF;
END
$$;

ALTER TABLE tables RESET (fillfactor);
ALTER TABLE accounts RESET (fillfactor);
DROP TRIGGER journal_transactions_guard ON journal_transactions;
DROP TRIGGER postings_guard ON postings;
DROP TRIGGER accounts_guard_balance ON accounts;
DROP FUNCTION tally_guard_posting();
DROP FUNCTION tally_journal_post(bigint, text, int, text, jsonb, bigint, bigint[], bigint[]);
DROP FUNCTION tally_expect(bigint, bigint, text);

-- A balance changed by anything but the postings trigger (trigger depth 1
-- means a statement typed by someone) is refused.
CREATE FUNCTION tally_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'accounts.balance moves only with postings (account %)', OLD.id
            USING ERRCODE = 'TL001';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER accounts_guard_balance BEFORE UPDATE OF balance ON accounts
    FOR EACH ROW EXECUTE FUNCTION tally_guard_balance();

CREATE FUNCTION tally_check_transaction(txn bigint, txn_kind text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    total numeric;
    n     bigint;
BEGIN
    SELECT coalesce(sum(amount), 0), count(*) INTO total, n FROM postings WHERE transaction_id = txn;
    IF total <> 0 THEN
        RAISE EXCEPTION 'journal transaction % is unbalanced: its postings sum to %', txn, total
            USING ERRCODE = 'TL002';
    END IF;
    IF n = 0 AND txn_kind IS NOT NULL AND txn_kind NOT IN ('carry', 'round_settle') THEN
        RAISE EXCEPTION 'journal transaction % (%) has no postings', txn, txn_kind
            USING ERRCODE = 'TL002';
    END IF;
END
$$;
CREATE FUNCTION tally_check_journal_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tally_check_transaction(NEW.id, NEW.kind);
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_transactions_balanced AFTER INSERT ON journal_transactions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tally_check_journal_row();
CREATE FUNCTION tally_check_posting_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tally_check_transaction(NEW.transaction_id, NULL);
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tally_check_posting_row();
CREATE FUNCTION tally_apply_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE accounts SET balance = balance + NEW.amount WHERE id = NEW.account_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER postings_apply AFTER INSERT ON postings
    FOR EACH ROW EXECUTE FUNCTION tally_apply_posting();

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
DELETE FROM idempotency_keys a USING idempotency_keys b
WHERE a.scope = b.scope AND a.key = b.key AND a.table_id > b.table_id;
ALTER TABLE idempotency_keys DROP COLUMN table_id;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (scope, key);

ALTER TABLE journal_transactions DROP COLUMN event_seq;

ALTER TABLE turns ADD COLUMN outcome jsonb;
UPDATE turns SET outcome = jsonb_build_object('qualified', qualified, 'score', score, 'cargo', to_jsonb(cargo),
    'automatic', automatic, 'stood', stood, 'over', true, 'rolls', '[]'::jsonb);
ALTER TABLE turns DROP CONSTRAINT turns_pkey;
ALTER TABLE turns DROP COLUMN table_id, DROP COLUMN qualified, DROP COLUMN score, DROP COLUMN cargo,
    DROP COLUMN automatic, DROP COLUMN stood, ALTER COLUMN outcome SET NOT NULL;
ALTER TABLE turns ADD PRIMARY KEY (round_id, seq);

ALTER TABLE round_actions ADD COLUMN payload jsonb NOT NULL DEFAULT '{}';
UPDATE round_actions SET payload = CASE WHEN kind = 'roll'
    THEN jsonb_build_object('player', player_id::text, 'kind', kind, 'roll',
        jsonb_strip_nulls(jsonb_build_object('dice', to_jsonb(dice),
            'rethrow', CASE WHEN rethrow = '{}' THEN NULL ELSE to_jsonb(rethrow) END,
            'path', nullif(path, ''))))
    ELSE jsonb_build_object('player', player_id::text, 'kind', kind) END;
ALTER TABLE round_actions DROP CONSTRAINT round_actions_pkey;
ALTER TABLE round_actions DROP COLUMN table_id, DROP COLUMN dice, DROP COLUMN rethrow, DROP COLUMN path,
    DROP COLUMN event_seq, ALTER COLUMN player_id DROP NOT NULL;
ALTER TABLE round_actions ADD PRIMARY KEY (round_id, seq);

ALTER TABLE rounds ADD COLUMN setup jsonb NOT NULL DEFAULT '{}', ADD COLUMN result jsonb;
UPDATE rounds SET setup = jsonb_strip_nulls(jsonb_build_object(
    'seats', game -> 'seats', 'rollOff', roll_off, 'game', game,
    'round', jsonb_build_object('players', to_jsonb(players), 'carriedPot', carried_pot, 'ante', ante,
        'declared', nullif(declared, 0), 'declarer', nullif(declarer, 0), 'playoff', nullif(playoff, false))));
ALTER TABLE rounds DROP COLUMN players, DROP COLUMN carried_pot, DROP COLUMN ante, DROP COLUMN declared,
    DROP COLUMN declarer, DROP COLUMN playoff, DROP COLUMN roll_off, DROP COLUMN game;

ALTER TABLE postings DROP CONSTRAINT postings_pkey;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_pkey;
ALTER TABLE accounts DROP CONSTRAINT accounts_table_id_player_id_fkey, DROP CONSTRAINT accounts_pkey;
ALTER TABLE rounds DROP CONSTRAINT rounds_pkey;
DROP INDEX players_token_key;
ALTER TABLE players DROP CONSTRAINT players_pkey;

ALTER TABLE players ADD PRIMARY KEY (id), ADD UNIQUE (id, table_id), ADD UNIQUE (token_hash);
ALTER TABLE rounds ADD PRIMARY KEY (id), ADD UNIQUE (id, table_id);
ALTER TABLE accounts ADD PRIMARY KEY (id), ADD UNIQUE (id, table_id),
    ADD FOREIGN KEY (player_id, table_id) REFERENCES players (id, table_id);
ALTER TABLE journal_transactions ADD PRIMARY KEY (id), ADD UNIQUE (id, table_id),
    ADD FOREIGN KEY (table_id) REFERENCES tables (id),
    ADD FOREIGN KEY (round_id, table_id) REFERENCES rounds (id, table_id);
CREATE INDEX journal_transactions_table_idx ON journal_transactions (table_id, id);
ALTER TABLE postings ADD PRIMARY KEY (id),
    ADD FOREIGN KEY (transaction_id, table_id) REFERENCES journal_transactions (id, table_id),
    ADD FOREIGN KEY (account_id, table_id) REFERENCES accounts (id, table_id);
CREATE INDEX postings_transaction_idx ON postings (transaction_id);
CREATE INDEX postings_account_idx ON postings (account_id);
CREATE INDEX postings_table_idx ON postings (table_id, transaction_id);
ALTER TABLE turns ADD FOREIGN KEY (round_id) REFERENCES rounds (id), ADD FOREIGN KEY (player_id) REFERENCES players (id);
ALTER TABLE round_actions ADD FOREIGN KEY (round_id) REFERENCES rounds (id),
    ADD FOREIGN KEY (player_id) REFERENCES players (id);

ALTER TABLE events ADD FOREIGN KEY (table_id) REFERENCES tables (id);
ALTER TABLE tables DROP COLUMN event_seq, DROP COLUMN event_hash, DROP COLUMN rounds;
