-- 0009_crews down: no crews. Refused while any crew exists (its members'
-- balances across nights would be lost).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM tables WHERE kind = 'crew') THEN
        RAISE EXCEPTION 'crews exist: migrating down would drop their running balances';
    END IF;
END
$$;
DROP INDEX journal_transactions_night_key;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check
    CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point', 'deposit', 'withdrawal',
                    'settlement', 'close_out', 'round_settle', 'bounty', 'reversal'));
DROP TABLE crew_nights;
ALTER TABLE players DROP COLUMN member;
ALTER TABLE tables DROP COLUMN crew, DROP COLUMN kind;
