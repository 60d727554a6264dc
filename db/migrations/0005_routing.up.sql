-- 0005_routing: every statement about one table can be sent to one shard
-- when the tables are distributed by table id (Citus, docs/citus.md).
--
-- A join code is the one thing looked up before its table is known: the
-- codes move to a lookup table of their own, keyed by the code (on Citus,
-- distributed by the code). The table row keeps its code, to show the
-- host and players; the lookup table is what makes a code unique and what
-- a join reads. A unique key on tables.join_code alone could not be kept
-- by a database that spreads tables over nodes by their id.
CREATE TABLE join_codes (
    code     text   PRIMARY KEY CHECK (code <> ''),
    table_id bigint NOT NULL
);
INSERT INTO join_codes (code, table_id) SELECT join_code, id FROM tables;
ALTER TABLE tables DROP CONSTRAINT tables_join_code_key;

-- The runtime role adds codes and reads them; it never changes or removes
-- one (a code keeps opening its table, and the table says whether it is
-- still open).
REVOKE ALL ON join_codes FROM PUBLIC;
GRANT SELECT, INSERT ON join_codes TO tally_runtime;

-- A new account opens empty. The runtime role could insert an account's
-- id, kind and player but not its balance (a column privilege); Citus
-- sends a shard every column of the row it inserts, defaults included, so
-- the rule is a row's own check instead: an account is inserted with a
-- balance of 0, and its balance moves only by tally_journal_post.
GRANT INSERT ON accounts TO tally_runtime;
CREATE FUNCTION tally_accounts_open_empty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.balance <> 0 THEN
        RAISE EXCEPTION 'account of table % opens with a balance of %: accounts open empty, and balances move only with postings (tally_journal_post)',
            NEW.table_id, NEW.balance USING ERRCODE = 'TL001';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER accounts_open_empty BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION tally_accounts_open_empty();
