-- 0014_game_kind: tables.kind goes, and with it migration 9's check of
-- crew against kind: migration 13's game says all it said (issue 24).
--
-- A file of its own, of this one statement: on Citus, tables is
-- distributed already when an existing database is upgraded, and Citus
-- sends a dropped column to the shards as the text of the query that
-- dropped it, which a worker refuses when it is many statements
-- (citusdata/citus#6608, migration 13). sqlc must see the column go, and
-- reads no DO block.
ALTER TABLE tables DROP COLUMN kind;
