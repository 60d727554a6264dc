-- 0013_game down: a crew is kind 'crew' again, and the game is read off
-- the Battleship Royale options.
ALTER TABLE tables ADD COLUMN kind text NOT NULL DEFAULT 'table' CHECK (kind IN ('table', 'crew'));
UPDATE tables SET kind = 'crew' WHERE game = 'crew';
ALTER TABLE tables DROP CONSTRAINT tables_crew_game_check,
    ADD CHECK (crew IS NULL OR kind = 'table'),
    DROP COLUMN game;
