-- 0015_payments: what a unit is worth, how players like to be paid, and
-- payments both sides confirm (issue 26; docs/payments.md).
--
-- tables.unit_currency and tables.unit_minor say what one of the table's
-- units is worth in a real currency: an ISO 4217 code and an amount in that
-- currency's minor units (1 chip = 25 cents: 'EUR', 25). Both or neither.
-- Integer units stay the ledger's truth; the value is for display and
-- payment only. The host sets it (a table.unit_value event records each
-- change), so the runtime role may update these two columns.
--
-- payment_handles are how a player (or a crew's member) likes to be paid:
-- one handle per method. They are not part of the table's record: no
-- event names them, the runtime role may change and delete them, and a
-- removal deletes the row.
--
-- payment_claims are payments a payer says were sent: "sent" until the
-- payee (or the host) confirms it, which records the payment in the
-- ledger, or refuses it with a reason. A claim's id is the sequence number
-- of the claim.sent event that recorded it. Claims are part of the record
-- (their events are sealed in the audit chain); the row is what a phone
-- reads, and a guard lets it leave "sent" once and never change after.
--
-- Both tables are keyed by the table id first and distributed by it on
-- Citus, co-located with tables (db/citus.go). As migration 13 says, Citus
-- takes ADD COLUMN as it reads it but a constraint only alone: the check
-- comes inside a block, one statement.
-- The claims' guard comes first: on Citus a function is made on every
-- node, which Citus refuses once the transaction has changed a distributed
-- table ("cannot run function command because there was a parallel
-- operation on a distributed table in the transaction").
CREATE FUNCTION tally_claim_resolves_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status <> 'sent' OR NEW.status = 'sent' THEN
        RAISE EXCEPTION 'claim % of table %: a claim leaves "sent" once and never changes after',
            OLD.id, OLD.table_id USING ERRCODE = 'TL001';
    END IF;
    RETURN NEW;
END
$$;

ALTER TABLE tables ADD COLUMN unit_currency text;
ALTER TABLE tables ADD COLUMN unit_minor bigint;
DO $$
BEGIN
    ALTER TABLE tables ADD CONSTRAINT tables_unit_value_check
        CHECK ((unit_currency IS NULL AND unit_minor IS NULL)
               OR (unit_currency ~ '^[A-Z]{3}$' AND unit_minor BETWEEN 1 AND 100000000));
END
$$;
-- Citus sends a grant on a distributed table to its shards as the text of
-- the query: alone in its block, that text is one statement (docs/citus.md,
-- "A migration on a distributed database").
DO $$
BEGIN
    GRANT UPDATE (unit_currency, unit_minor) ON tables TO tally_runtime;
END
$$;

CREATE TABLE payment_handles (
    table_id   bigint      NOT NULL,
    player_id  bigint      NOT NULL,
    method     text        NOT NULL CHECK (method IN ('paypal', 'venmo', 'cashapp', 'revolut', 'monzo', 'upi', 'sepa')),
    handle     text        NOT NULL CHECK (length(handle) BETWEEN 1 AND 100),
    name       text        NOT NULL DEFAULT '' CHECK (length(name) <= 70),
    bic        text        NOT NULL DEFAULT '' CHECK (length(bic) <= 11),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (table_id, player_id, method)
);
REVOKE ALL ON payment_handles FROM PUBLIC;
GRANT SELECT, INSERT, DELETE ON payment_handles TO tally_runtime;
GRANT UPDATE (handle, name, bic, updated_at) ON payment_handles TO tally_runtime;

CREATE TABLE payment_claims (
    table_id    bigint      NOT NULL,
    id          bigint      NOT NULL,
    payer       bigint      NOT NULL,
    payee       bigint      NOT NULL CHECK (payee <> payer),
    amount      bigint      NOT NULL CHECK (amount > 0),
    status      text        NOT NULL DEFAULT 'sent' CHECK (status IN ('sent', 'confirmed', 'refused')),
    reason      text        NOT NULL DEFAULT '' CHECK (length(reason) <= 200),
    resolved_by text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    resolved_at timestamptz,
    PRIMARY KEY (table_id, id)
);
CREATE TRIGGER payment_claims_resolve_once BEFORE UPDATE ON payment_claims
    FOR EACH ROW EXECUTE FUNCTION tally_claim_resolves_once();
CREATE TRIGGER payment_claims_no_delete BEFORE DELETE ON payment_claims
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER payment_claims_no_truncate BEFORE TRUNCATE ON payment_claims
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();
REVOKE ALL ON payment_claims FROM PUBLIC;
GRANT SELECT, INSERT ON payment_claims TO tally_runtime;
GRANT UPDATE (status, reason, resolved_by, resolved_at) ON payment_claims TO tally_runtime;
