-- 0013_game: a table says which game it plays (issue 24).
--
-- Until now the game was read off other columns: a crew's kind, a
-- Battleship Royale table's options. The one column game says it now:
-- 'dice' (the dice games of docs/rules.md), 'royale' (Battleship Royale,
-- docs/royale.md) or 'crew' (a crew's running balances, which plays no
-- rounds: migration 9). It replaces kind, which said only crew or not. The
-- existing rows are filled in as the service used to tell: a crew is a
-- crew, a table with Battleship Royale options plays Battleship Royale,
-- and every other table the dice games.
--
-- A table's game never changes: the runtime role inserts it with the table
-- (its INSERT on tables covers the new column) and is granted no UPDATE of
-- it. The statements name no table id, but each touches only rows of the
-- tables table itself (no other table), so on Citus each shard runs it on
-- its own rows.
ALTER TABLE tables ADD COLUMN game text;
UPDATE tables SET game = CASE WHEN kind = 'crew' THEN 'crew' WHEN royale IS NOT NULL THEN 'royale' ELSE 'dice' END;
ALTER TABLE tables ALTER COLUMN game SET NOT NULL,
    ADD CONSTRAINT tables_game_check CHECK (game IN ('dice', 'royale', 'crew')),
    ADD CONSTRAINT tables_game_royale CHECK ((game = 'royale') = (royale IS NOT NULL)),
    ADD CONSTRAINT tables_crew_game_check CHECK (crew IS NULL OR game <> 'crew'),
    DROP COLUMN kind; -- and with it migration 9's check of crew against kind
