ALTER TABLE players DROP COLUMN claimed_at;
