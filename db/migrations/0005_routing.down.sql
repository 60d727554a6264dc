-- 0005_routing down: join codes are unique in the table row again.
ALTER TABLE tables ADD CONSTRAINT tables_join_code_key UNIQUE (join_code);
DROP TABLE join_codes;
