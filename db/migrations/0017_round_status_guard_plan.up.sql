-- 0017_round_status_guard_plan: the round status guard (migrations 10 and
-- 16) reads the table's head before it looks for the event there, and its
-- plans never scan a table whole, whatever size the table had when they
-- were made.
--
-- PL/pgSQL keeps a statement's plan for the connection's life once a
-- generic plan is as cheap as the custom ones, and a plan made while the
-- table's history was a few rows (a new database, its first rounds) stays
-- after the history has grown, until the statistics are next gathered. In
-- tallybench with one client the guard's lookup of the settling event read
-- every event of the table (a bitmap scan by table id, the head compared
-- after: 755 buffers and 3.2 ms a settled round, 56% of the statements'
-- time; issue 25); when the event was not the head (a reversal, a
-- take-back), the scan back did the same. The head's number is now read
-- first, so the event is asked for by both columns of the primary key; and
-- inside the function sequential and bitmap scans are off, so the plans
-- made and kept on a table of one page walk the primary key too, to the
-- head's row or back from the newest (on so small a table the planner
-- would otherwise choose to read it whole, and it keeps that plan).
-- Planning each call instead (plan_cache_mode = force_custom_plan) was
-- tried: at 32 clients it cost some 90 µs of planning a lookup, and its
-- plans for the scan back still read the table's whole history. What the
-- guard demands is unchanged.
--
-- One statement: on Citus the function is replaced on the workers from
-- this file's text (docs/citus.md, "A migration on a distributed
-- database").
CREATE OR REPLACE FUNCTION tally_round_status_guard() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
    want text;
    head bigint;
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
    -- A write that settles a round records it last: the event is then
    -- the table's newest, the one its row names as its head (TableAppend
    -- moved the head in the same statement), found by the primary key.
    SELECT t.event_seq INTO head FROM public.tables t WHERE t.id = NEW.table_id;
    PERFORM 1 FROM public.events e
    WHERE e.table_id = NEW.table_id AND e.seq = head
      AND e.xmin = pg_catalog.pg_current_xact_id()::xid AND e.kind = want
      AND e.payload->>'round' = NEW.number::text
      AND (want <> 'round.voided' OR e.payload->>'reopened' = 'true');
    IF NOT FOUND THEN
        -- Otherwise the events a write adds are still the table's last:
        -- the newest first, the scan stops at the one it wants.
        PERFORM 1 FROM public.events e
        WHERE e.table_id = NEW.table_id AND e.xmin = pg_catalog.pg_current_xact_id()::xid AND e.kind = want
          AND e.payload->>'round' = NEW.number::text
          AND (want <> 'round.voided' OR e.payload->>'reopened' = 'true')
        ORDER BY e.seq DESC LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'round % of table %: its status changes from % to % only with the % event that records it',
            NEW.number, NEW.table_id, OLD.status, NEW.status, want USING ERRCODE = 'TL001';
    END IF;
    RETURN NULL;
END
$$;
