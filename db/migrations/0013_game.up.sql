-- 0013_game: a table says which game it plays (issue 24).
--
-- Until now the game was read off other columns: a crew's kind, a
-- Battleship Royale table's options. The one column game says it now:
-- 'dice' (the dice games of docs/rules.md), 'royale' (Battleship Royale,
-- docs/royale.md) or 'crew' (a crew's running balances, which plays no
-- rounds: migration 9). It replaces kind, which said only crew or not
-- (dropped by migration 14). The existing rows are filled in as the
-- service used to tell: a crew is a crew, a table with Battleship Royale
-- options plays Battleship Royale, and every other table the dice games.
--
-- A table's game never changes: the runtime role inserts it with the table
-- (its INSERT on tables covers the new column) and is granted no UPDATE of
-- it. The statements name no table id, but each touches only rows of the
-- tables table itself (no other table), so on Citus each shard runs it on
-- its own rows.
--
-- On Citus tables is distributed already when an existing database is
-- upgraded, and Citus sends ADD COLUMN to the shards as it reads it, but
-- any other change of a table (a constraint, a default, NOT NULL, a
-- dropped column) as the text of the query that made it, which for this
-- file is many statements, and a worker refuses that
-- (citusdata/citus#6608, as migration 10 says). So the column comes NOT
-- NULL with a default, which the backfill then corrects, and the default
-- goes and the checks come inside a block, one statement each (Citus
-- takes ADD CONSTRAINT only alone), where that text is the one statement.
-- sqlc reads no block: what it must see stays outside, and kind is dropped
-- by migration 14, a file of one statement.
ALTER TABLE tables ADD COLUMN game text NOT NULL DEFAULT 'dice';
UPDATE tables SET game = CASE WHEN kind = 'crew' THEN 'crew' WHEN royale IS NOT NULL THEN 'royale' ELSE 'dice' END;
DO $$
BEGIN
    ALTER TABLE tables ALTER COLUMN game DROP DEFAULT;
    ALTER TABLE tables ADD CONSTRAINT tables_game_check CHECK (game IN ('dice', 'royale', 'crew'));
    ALTER TABLE tables ADD CONSTRAINT tables_game_royale CHECK ((game = 'royale') = (royale IS NOT NULL));
    ALTER TABLE tables ADD CONSTRAINT tables_crew_game_check CHECK (crew IS NULL OR game <> 'crew');
END
$$;
