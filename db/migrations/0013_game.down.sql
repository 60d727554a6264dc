-- 0013_game down: the game is read off kind (migration 14's down) and the
-- Battleship Royale options again; the checks go with the column.
ALTER TABLE tables DROP COLUMN game;
