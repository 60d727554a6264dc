-- 0010_round_status_guard: a round's status changes only as a write
-- changes it, with the sealed event that records the change.
--
-- The runtime role keeps UPDATE on rounds.status and rounds.settled_at,
-- because TableAppend settles, reopens and reverses rounds. Without a guard
-- it could also rewrite a round's status on its own (a reversed round
-- marked settled again), and only the next audit would notice. This guard
-- refuses, at commit, any change of a round's status that the transaction
-- did not record in the table's history:
--   open    -> settled  needs a round.settled event for that round;
--   settled -> open     needs a round.voided event that reopened it
--                       (a take-back of the entry that ended the round);
--   open or settled -> void needs a round.reversed event;
-- and nothing leaves void. settled_at moves only with the status. The
-- event must be written in the same transaction (its xmin is this
-- transaction's), and every event carries a seal made with a key the
-- database never sees: changing a status takes forging a sealed event,
-- which the audit reports. The check runs at commit (a deferred constraint
-- trigger) because TableAppend writes the event and the status in one
-- statement, whose parts do not see each other's rows. It binds the
-- schema's owner too.
CREATE FUNCTION tally_round_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    want text;
BEGIN
    IF NEW.status IS NOT DISTINCT FROM OLD.status THEN
        IF NEW.settled_at IS DISTINCT FROM OLD.settled_at THEN
            RAISE EXCEPTION 'round % of table %: settled_at changes only with the round''s status',
                NEW.number, NEW.table_id USING ERRCODE = 'TL001';
        END IF;
        RETURN NULL;
    END IF;
    want := CASE
        WHEN OLD.status = 'open' AND NEW.status = 'settled' THEN 'round.settled'
        WHEN OLD.status = 'settled' AND NEW.status = 'open' THEN 'round.voided'
        WHEN OLD.status IN ('open', 'settled') AND NEW.status = 'void' THEN 'round.reversed'
    END;
    IF want IS NULL THEN
        RAISE EXCEPTION 'round % of table %: a round that is % never becomes %',
            NEW.number, NEW.table_id, OLD.status, NEW.status USING ERRCODE = 'TL001';
    END IF;
    -- The events a write adds are the table's last: the newest first, the
    -- scan stops at the one it wants.
    PERFORM 1 FROM public.events e
    WHERE e.table_id = NEW.table_id AND e.xmin = pg_catalog.pg_current_xact_id()::xid AND e.kind = want
      AND e.payload->>'round' = NEW.number::text
      AND (want <> 'round.voided' OR e.payload->>'reopened' = 'true')
    ORDER BY e.seq DESC LIMIT 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'round % of table %: its status changes from % to % only with the % event that records it',
            NEW.number, NEW.table_id, OLD.status, NEW.status, want USING ERRCODE = 'TL001';
    END IF;
    RETURN NULL;
END
$$;
-- On Citus (docs/citus.md) rounds is distributed already when an existing
-- database is upgraded, and Citus takes a trigger on a distributed table
-- only when told it is wanted (citus.enable_unsafe_triggers), as
-- db.Distribute tells it for the tables it distributes: here for this
-- file's transaction alone, and only where there is Citus. The trigger is
-- made inside the block too, because Citus sends a new trigger to the
-- shards as the text of the query that made it, and this file's text is
-- many statements, which a worker refuses (citusdata/citus#6608); in the
-- block, that text is the one statement.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
        PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);
    END IF;
    CREATE CONSTRAINT TRIGGER rounds_status_guard AFTER UPDATE OF status, settled_at ON rounds
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tally_round_status_guard();
END
$$;
