-- 0005_routing down: join codes are unique in the table row again.
ALTER TABLE tables ADD CONSTRAINT tables_join_code_key UNIQUE (join_code);
DROP TABLE join_codes;
DROP TRIGGER accounts_open_empty ON accounts;
DROP FUNCTION tally_accounts_open_empty();
REVOKE INSERT ON accounts FROM tally_runtime;
GRANT INSERT (table_id, kind, player_id) ON accounts TO tally_runtime;
