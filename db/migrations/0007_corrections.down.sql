-- 0007_corrections down: no corrections. Refused while any table holds one
-- (its history would no longer replay).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM round_actions WHERE kind = 'void')
       OR EXISTS (SELECT 1 FROM journal_transactions WHERE kind = 'reversal')
       OR EXISTS (SELECT 1 FROM rounds WHERE status = 'void') THEN
        RAISE EXCEPTION 'corrections exist: migrating down would break the history that holds them';
    END IF;
END
$$;
DROP INDEX journal_transactions_reverses_key;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check
    CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point', 'deposit', 'withdrawal',
                    'settlement', 'close_out', 'round_settle', 'bounty'));
ALTER TABLE turns DROP CONSTRAINT turns_pkey;
ALTER TABLE turns ADD PRIMARY KEY (table_id, round_id, seq);
ALTER TABLE turns DROP COLUMN action_seq;
ALTER TABLE round_actions DROP CONSTRAINT round_actions_void_check, DROP COLUMN reason, DROP COLUMN voids;
