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
