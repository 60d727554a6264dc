-- 0012_host_seat: the host can play (issue 23).
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
-- round_actions.by_host says whether the host's phone recorded the action
-- for a player other than its own seat, as royale_actions.by_host does (a
-- take-back, which only the host makes, for the player whose action it
-- takes back). A closed automatic may be claimed by the phone that saw it:
-- the player's own, or the host's when the host recorded the throw; and a
-- write refused as recorded since names the phone that recorded what it
-- missed. The runtime role only inserts round actions, so it cannot change
-- who recorded one; the audit checks it against the event that recorded
-- the action (round.action or round.voided), whose byHost says the same.
--
-- Every action recorded from now on says true or false. NULL is an action
-- recorded before, whose recorder is not known, unless its event says: a
-- round.action event has said since "one throw, one record" whether the
-- host's token recorded it, which, before a host could have a seat of its
-- own, is this column's meaning exactly, and those rows are filled in from
-- it. The others stay NULL, as their events say nothing: the host's phone
-- is then not known to have seen a closed throw, so it is not shown or
-- allowed a claim for it, and a refusal names "a phone".
--
-- On Citus (docs/citus.md) players and round_actions are distributed
-- already when an existing database is upgraded. Citus sends ADD COLUMN to
-- the shards as it reads it, but an added constraint or index as the text
-- of the query that made it, and this file's text is many statements,
-- which a worker refuses (citusdata/citus#6608, as migration 10 says); it
-- also takes ADD CONSTRAINT only alone. So the check and the index are
-- made inside a block, one statement each, where that text is the one
-- statement. (sqlc reads no block: what it must see, the columns, stays
-- outside.)
ALTER TABLE players ADD COLUMN host boolean NOT NULL DEFAULT false;
DO $$
BEGIN
    ALTER TABLE players ADD CONSTRAINT players_host_claimed CHECK (NOT host OR claimed_at IS NOT NULL);
    CREATE UNIQUE INDEX players_host_key ON players (table_id) WHERE host;
END
$$;
ALTER TABLE round_actions ADD COLUMN by_host boolean;
UPDATE round_actions a SET by_host = (e.payload ->> 'byHost')::boolean
FROM events e
WHERE e.table_id = a.table_id AND e.seq = a.event_seq AND e.kind = 'round.action' AND e.payload ? 'byHost';
