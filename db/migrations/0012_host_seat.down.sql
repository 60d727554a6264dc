-- 0012_host_seat down: no host seats, and no record of which actions the
-- host recorded (the events that recorded them still say). A host who
-- played becomes a seat the host plays for.
ALTER TABLE round_actions DROP COLUMN by_host;
DROP INDEX players_host_key;
ALTER TABLE players DROP CONSTRAINT players_host_claimed, DROP COLUMN host;
