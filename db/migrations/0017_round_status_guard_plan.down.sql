-- 0017_round_status_guard_plan down: the guard as migration 16 made it,
-- its plans kept by PL/pgSQL, the head joined in its lookup.
CREATE OR REPLACE FUNCTION tally_round_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- A write that settles a round records it last: the event is then
    -- the table's newest, the one its row names as its head (TableAppend
    -- moved the head in the same statement), found by the primary key.
    PERFORM 1 FROM public.tables t JOIN public.events e ON e.table_id = t.id AND e.seq = t.event_seq
    WHERE t.id = NEW.table_id AND e.table_id = NEW.table_id
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
