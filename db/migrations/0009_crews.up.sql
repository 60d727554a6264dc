-- 0009_crews: a crew is a group that plays night after night (issue 14).
--
-- A crew is kept as a table of kind 'crew': its players are the crew's
-- members (who join with its code, as at any table), its accounts their
-- running balances, and its journal, audit log, settle-up and payments are
-- a table's. It plays no rounds. A night is a table of kind 'table' made
-- for the crew (crew names it), whose players are members (member names
-- the crew's player). When a night closes, its closing balances roll into
-- the crew: one journal entry of kind 'night' at the crew, whose metadata
-- names the night (at most once: a unique index).
--
-- crew_nights lists a crew's nights under the crew's id, so that the crew
-- finds them on its own shard (on Citus, a query by the night's crew
-- column would ask every shard).
ALTER TABLE tables ADD COLUMN kind text NOT NULL DEFAULT 'table' CHECK (kind IN ('table', 'crew')),
                   ADD COLUMN crew bigint CHECK (crew IS NULL OR kind = 'table');
ALTER TABLE players ADD COLUMN member bigint;

CREATE TABLE crew_nights (
    table_id   bigint      NOT NULL,
    night      bigint      NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, night)
);
CREATE TRIGGER crew_nights_append_only BEFORE UPDATE OR DELETE ON crew_nights
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER crew_nights_no_truncate BEFORE TRUNCATE ON crew_nights
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();
REVOKE ALL ON crew_nights FROM PUBLIC;
GRANT SELECT, INSERT ON crew_nights TO tally_runtime;

ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check
    CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point', 'deposit', 'withdrawal',
                    'settlement', 'close_out', 'round_settle', 'bounty', 'reversal', 'night'));
CREATE UNIQUE INDEX journal_transactions_night_key ON journal_transactions (table_id, ((metadata ->> 'night')::bigint))
    WHERE kind = 'night';
