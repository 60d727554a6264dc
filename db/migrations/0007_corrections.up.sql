-- 0007_corrections: mistakes are corrected by what is added, never by
-- what is removed (issue 13). Three corrections, each an audit event:
--   - taking back the last action of the latest round: a round_actions row
--     of kind 'void' that names the action it takes back (voids) and says
--     why (reason). The round is replayed from the actions not taken back.
--     Taking back the action that ended a round reopens it (its status
--     goes back to 'open') and reverses its settlement;
--   - reversing the latest round: its status becomes 'void' and each of its
--     journal transactions is reversed;
--   - reversing a buy-in, cash-out or payment.
-- A reversal is a journal transaction of kind 'reversal' whose postings
-- are the reversed transaction's negated; its metadata names the ledger
-- event of the transaction it reverses ("reverses"), which no other
-- reversal may name.
ALTER TABLE round_actions
    ADD COLUMN voids  int  CHECK (voids >= 1),
    ADD COLUMN reason text NOT NULL DEFAULT '' CHECK (length(reason) <= 500),
    ADD CONSTRAINT round_actions_void_check CHECK ((kind = 'void') = (voids IS NOT NULL));

-- A turn is recorded when it ends; a turn ended again after the action
-- that ended it was taken back is recorded again. action_seq is the round
-- action that ended it (0 for turns recorded before this migration).
ALTER TABLE turns ADD COLUMN action_seq int NOT NULL DEFAULT 0 CHECK (action_seq >= 0);
ALTER TABLE turns DROP CONSTRAINT turns_pkey;
ALTER TABLE turns ADD PRIMARY KEY (table_id, round_id, seq, action_seq);

ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check
    CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point', 'deposit', 'withdrawal',
                    'settlement', 'close_out', 'round_settle', 'bounty', 'reversal'));
CREATE UNIQUE INDEX journal_transactions_reverses_key ON journal_transactions (table_id, ((metadata ->> 'reverses')::bigint))
    WHERE kind = 'reversal';
