-- 0008_host_recovery: the host role can move to another phone, and a phone
-- whose token stopped working is told why.
--
-- A host recovery code is offered by the host phone and redeemed by another
-- phone, which gets a new host token; the old one stops working at once.
-- Only the code's hash is kept, and one code per table at a time: offering
-- a new one replaces the last. A code is spent when it is redeemed and
-- dead once it expires.
CREATE TABLE host_recoveries (
    table_id    bigint      PRIMARY KEY,
    code_hash   bytea       NOT NULL CHECK (length(code_hash) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    redeemed_at timestamptz,
    CHECK (expires_at > created_at)
);

-- A token that stopped working because of something done at the table (the
-- host freed the seat its phone held, or the host role moved to another
-- phone) is kept by its hash with the reason, so that the phone holding it
-- is told in plain words instead of "unknown token".
CREATE TABLE retired_tokens (
    table_id   bigint      NOT NULL,
    token_hash bytea       NOT NULL CHECK (length(token_hash) = 32),
    reason     text        NOT NULL CHECK (reason IN ('seat-freed', 'host-moved')),
    player_id  bigint,
    retired_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, token_hash),
    CHECK ((reason = 'seat-freed') = (player_id IS NOT NULL))
);

-- Retired tokens are history: never changed or removed.
CREATE TRIGGER retired_tokens_append_only BEFORE UPDATE OR DELETE ON retired_tokens
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER retired_tokens_no_truncate BEFORE TRUNCATE ON retired_tokens
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();

-- The runtime role offers a code (insert, or replace the table's last one)
-- and spends it; it moves the host's token hash; it adds and reads retired
-- tokens, never changes or removes one.
REVOKE ALL ON host_recoveries, retired_tokens FROM PUBLIC;
GRANT SELECT, INSERT ON host_recoveries TO tally_runtime;
GRANT UPDATE (code_hash, created_at, expires_at, redeemed_at) ON host_recoveries TO tally_runtime;
GRANT SELECT, INSERT ON retired_tokens TO tally_runtime;
GRANT UPDATE (host_token_hash) ON tables TO tally_runtime;
