-- 0006_royale down: no Battleship Royale tables. Refused while any table
-- has played Battleship Royale (its history would be lost).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM tables WHERE royale IS NOT NULL) THEN
        RAISE EXCEPTION 'Battleship Royale tables exist: migrating down would drop their history';
    END IF;
END
$$;
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check
    CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point', 'deposit', 'withdrawal',
                    'settlement', 'close_out', 'round_settle'));
DROP TABLE royale_actions;
DROP TABLE royale_games;
ALTER TABLE tables DROP COLUMN royale;
