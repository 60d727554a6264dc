-- 0011_host_seat: the host can play (issue 23).
--
-- players.host marks the seat that is the host's own: the host's phone is
-- that player's phone too, so it records that player's turns as the player
-- and sees their closed rolls, and the seat is never claimed with the join
-- code. A table has at most one such seat, chosen when the table is made,
-- and it moves with the host role, not with a token: a host recovery
-- carries it. The seat is claimed from the start (by the host's phone), and
-- stays claimed: freeing it would let a code take the host's own seat. The
-- runtime role inserts players but updates only their token, claim and
-- leaving, so it cannot move the host's seat after the table is made.
--
-- round_actions.by_host says the host's phone recorded the action for a
-- player other than its own seat, as royale_actions.by_host does. A closed
-- automatic may be claimed by the phone that saw it: the player's own, or
-- the host's when the host recorded the throw. The runtime role only
-- inserts round actions, so it cannot change who recorded one; the audit
-- checks it against the round.action event, which records it too.
ALTER TABLE players ADD COLUMN host boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT players_host_claimed CHECK (NOT host OR claimed_at IS NOT NULL);
CREATE UNIQUE INDEX players_host_key ON players (table_id) WHERE host;
ALTER TABLE round_actions ADD COLUMN by_host boolean NOT NULL DEFAULT false;
