-- 0001_init: the game-side tables, the double-entry ledger, idempotency keys
-- and the hash-chained audit log. Ids are bigint identities; token hashes are
-- SHA-256 digests (32 bytes) of random tokens, never the tokens themselves.

CREATE TABLE tables (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name             text        NOT NULL CHECK (name <> ''),
    ruleset          jsonb       NOT NULL,
    currency         text        NOT NULL DEFAULT 'units' CHECK (currency <> ''),
    join_code        text        NOT NULL UNIQUE,
    host_token_hash  bytea       NOT NULL CHECK (length(host_token_hash) = 32),
    audit_token_hash bytea       NOT NULL CHECK (length(audit_token_hash) = 32),
    no_overdraft     boolean     NOT NULL DEFAULT false,
    status           text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    closed_at        timestamptz,
    CHECK ((status = 'closed') = (closed_at IS NOT NULL))
);

-- A seat is unique among the players still at the table; a player who left
-- keeps their row (their postings point at it) and frees the seat and name.
CREATE TABLE players (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id   bigint      NOT NULL REFERENCES tables (id),
    name       text        NOT NULL CHECK (name <> ''),
    seat       int         NOT NULL CHECK (seat >= 1),
    token_hash bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    joined_at  timestamptz NOT NULL DEFAULT now(),
    left_at    timestamptz,
    UNIQUE (id, table_id)
);
CREATE INDEX players_table_idx ON players (table_id, seat);
CREATE UNIQUE INDEX players_seat_key ON players (table_id, seat) WHERE left_at IS NULL;
CREATE UNIQUE INDEX players_name_key ON players (table_id, lower(name)) WHERE left_at IS NULL;

CREATE TABLE rounds (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id   bigint      NOT NULL REFERENCES tables (id),
    number     int         NOT NULL CHECK (number >= 1),
    setup      jsonb       NOT NULL DEFAULT '{}',
    status     text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'void')),
    result     jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    settled_at timestamptz,
    UNIQUE (table_id, number),
    UNIQUE (id, table_id)
);

CREATE TABLE turns (
    round_id  bigint NOT NULL REFERENCES rounds (id),
    player_id bigint NOT NULL REFERENCES players (id),
    seq       int    NOT NULL CHECK (seq >= 1),
    outcome   jsonb  NOT NULL,
    PRIMARY KEY (round_id, seq)
);

-- Every accepted action of a round, in order; the API replays them through
-- the engine to rebuild the round's state.
CREATE TABLE round_actions (
    round_id   bigint      NOT NULL REFERENCES rounds (id),
    seq        int         NOT NULL CHECK (seq >= 1),
    player_id  bigint      REFERENCES players (id),
    kind       text        NOT NULL CHECK (kind <> ''),
    payload    jsonb       NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (round_id, seq)
);

-- Accounts: one per player, one pot and one world ("the bank": cash in and
-- out) per table. balance is maintained by the postings trigger below and
-- always equals the sum of the account's postings.
CREATE TABLE accounts (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id   bigint      NOT NULL REFERENCES tables (id),
    kind       text        NOT NULL CHECK (kind IN ('player', 'pot', 'world')),
    player_id  bigint,
    balance    bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'player') = (player_id IS NOT NULL)),
    FOREIGN KEY (player_id, table_id) REFERENCES players (id, table_id),
    UNIQUE (id, table_id)
);
CREATE UNIQUE INDEX accounts_player_key ON accounts (table_id, player_id) WHERE kind = 'player';
CREATE UNIQUE INDEX accounts_house_key ON accounts (table_id, kind) WHERE kind <> 'player';

CREATE TABLE journal_transactions (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id   bigint      NOT NULL REFERENCES tables (id),
    kind       text        NOT NULL CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point',
                   'deposit', 'withdrawal', 'settlement', 'close_out', 'round_settle')),
    round_id   bigint,
    memo       text        NOT NULL DEFAULT '',
    metadata   jsonb       NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (round_id, table_id) REFERENCES rounds (id, table_id),
    UNIQUE (id, table_id)
);
CREATE INDEX journal_transactions_table_idx ON journal_transactions (table_id, id);

-- The composite foreign keys make it impossible to post to another table's
-- account.
CREATE TABLE postings (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id bigint NOT NULL,
    table_id       bigint NOT NULL,
    account_id     bigint NOT NULL,
    amount         bigint NOT NULL CHECK (amount <> 0),
    FOREIGN KEY (transaction_id, table_id) REFERENCES journal_transactions (id, table_id),
    FOREIGN KEY (account_id, table_id) REFERENCES accounts (id, table_id)
);
CREATE INDEX postings_transaction_idx ON postings (transaction_id);
CREATE INDEX postings_table_idx ON postings (table_id, transaction_id);
CREATE INDEX postings_account_idx ON postings (account_id);

CREATE TABLE idempotency_keys (
    scope                 text        NOT NULL,
    key                   text        NOT NULL,
    request_hash          bytea       NOT NULL,
    status                text        NOT NULL DEFAULT 'completed' CHECK (status IN ('completed')),
    response_status       int         NOT NULL,
    response_body         bytea       NOT NULL,
    response_content_type text        NOT NULL DEFAULT '',
    created_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);

-- The audit log: one hash chain per table (see package ledger for the
-- canonical encoding that is hashed).
CREATE TABLE events (
    table_id   bigint      NOT NULL REFERENCES tables (id),
    seq        bigint      NOT NULL CHECK (seq >= 1),
    kind       text        NOT NULL CHECK (kind <> ''),
    payload    jsonb       NOT NULL,
    created_at timestamptz NOT NULL,
    prev_hash  bytea       NOT NULL CHECK (length(prev_hash) = 32),
    hash       bytea       NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (table_id, seq)
);

-- Append-only: the journal, its postings and the audit log can never be
-- changed or removed; corrections are new compensating transactions.
-- SQLSTATE TL001 lets the Go side recognise the refusal.
CREATE FUNCTION tally_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'TL001';
END
$$;

CREATE TRIGGER journal_transactions_append_only BEFORE UPDATE OR DELETE ON journal_transactions
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER journal_transactions_no_truncate BEFORE TRUNCATE ON journal_transactions
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER postings_no_truncate BEFORE TRUNCATE ON postings
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();

-- Balances move only with postings, in the same transaction.
CREATE FUNCTION tally_apply_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE accounts SET balance = balance + NEW.amount WHERE id = NEW.account_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER postings_apply AFTER INSERT ON postings
    FOR EACH ROW EXECUTE FUNCTION tally_apply_posting();

-- A balance changed by anything but the postings trigger (trigger depth 1
-- means a statement typed by someone) is refused.
CREATE FUNCTION tally_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'accounts.balance moves only with postings (account %)', OLD.id
            USING ERRCODE = 'TL001';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER accounts_guard_balance BEFORE UPDATE OF balance ON accounts
    FOR EACH ROW EXECUTE FUNCTION tally_guard_balance();

-- Every journal transaction's postings sum to zero, checked at commit so
-- that the postings of one transaction can be inserted one by one. Only a
-- carry-over marker or a round settlement that moved nothing may have no
-- postings. SQLSTATE TL002 marks an unbalanced transaction.
CREATE FUNCTION tally_check_transaction(txn bigint, txn_kind text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    total numeric;
    n     bigint;
BEGIN
    SELECT coalesce(sum(amount), 0), count(*) INTO total, n FROM postings WHERE transaction_id = txn;
    IF total <> 0 THEN
        RAISE EXCEPTION 'journal transaction % is unbalanced: its postings sum to %', txn, total
            USING ERRCODE = 'TL002';
    END IF;
    IF n = 0 AND txn_kind IS NOT NULL AND txn_kind NOT IN ('carry', 'round_settle') THEN
        RAISE EXCEPTION 'journal transaction % (%) has no postings', txn, txn_kind
            USING ERRCODE = 'TL002';
    END IF;
END
$$;

CREATE FUNCTION tally_check_journal_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tally_check_transaction(NEW.id, NEW.kind);
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_transactions_balanced AFTER INSERT ON journal_transactions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tally_check_journal_row();

-- Postings added later to an existing transaction are checked too.
CREATE FUNCTION tally_check_posting_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tally_check_transaction(NEW.transaction_id, NULL);
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tally_check_posting_row();
