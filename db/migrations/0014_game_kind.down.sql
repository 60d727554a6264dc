-- 0014_game_kind down: a crew is kind 'crew' again, and a crew's night
-- is kind 'table'.
ALTER TABLE tables ADD COLUMN kind text NOT NULL DEFAULT 'table' CHECK (kind IN ('table', 'crew'));
UPDATE tables SET kind = 'crew' WHERE game = 'crew';
ALTER TABLE tables ADD CHECK (crew IS NULL OR kind = 'table');
