-- 0002_player_claims: a seat the host makes is claimed later by a phone
-- that joins with the table's join code. claimed_at says a phone holds the
-- seat's token.
ALTER TABLE players ADD COLUMN claimed_at timestamptz;
