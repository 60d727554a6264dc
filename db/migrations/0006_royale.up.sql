-- 0006_royale: Battleship Royale tables (docs/royale.md). A table plays either
-- the dice games or Battleship Royale; a Royale table keeps its options in
-- the table row, and its games as a setup (the players, who starts, the
-- dealt hands) plus every accepted action, in order, which the service
-- replays through the engine (package game/royale) as it does a round.
--
-- Hands, entered fleets and their salts are stored here in the clear, like
-- a closed throw's dice: the service shows them only to their owner until
-- the game reveals them. The audit chain carries only what is public (each
-- fleet's commitment, each shot's outcome) until the end, when an event
-- reveals every fleet and salt and the audit recomputes the commitments.

-- The table's Battleship Royale options (mode, fleet, die, ante, bounty);
-- NULL for a dice table.
ALTER TABLE tables ADD COLUMN royale jsonb;

-- A game: its number at the table and its setup (royale.Setup as JSON).
CREATE TABLE royale_games (
    table_id   bigint      NOT NULL,
    number     int         NOT NULL CHECK (number >= 1),
    setup      jsonb       NOT NULL,
    event_seq  bigint      NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, number)
);

-- Every accepted action of a game, in order (royale.Action as JSON), who
-- recorded it (the host for a player, or the player), and the audit event
-- that recorded it.
CREATE TABLE royale_actions (
    table_id   bigint      NOT NULL,
    game       int         NOT NULL CHECK (game >= 1),
    seq        int         NOT NULL CHECK (seq >= 1),
    player_id  bigint      NOT NULL,
    kind       text        NOT NULL CHECK (kind <> ''),
    action     jsonb       NOT NULL,
    by_host    boolean     NOT NULL DEFAULT false,
    event_seq  bigint      NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, game, seq)
);

-- A game's setup and actions are history: never changed or removed.
CREATE TRIGGER royale_games_append_only BEFORE UPDATE OR DELETE ON royale_games
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER royale_games_no_truncate BEFORE TRUNCATE ON royale_games
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER royale_actions_append_only BEFORE UPDATE OR DELETE ON royale_actions
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
CREATE TRIGGER royale_actions_no_truncate BEFORE TRUNCATE ON royale_actions
    FOR EACH STATEMENT EXECUTE FUNCTION tally_reject_change();

REVOKE ALL ON royale_games, royale_actions FROM PUBLIC;
GRANT SELECT, INSERT ON royale_games, royale_actions TO tally_runtime;

-- A bounty (option bounty): the owner of a sunk card pays its shooter.
ALTER TABLE journal_transactions DROP CONSTRAINT journal_transactions_kind_check;
ALTER TABLE journal_transactions ADD CONSTRAINT journal_transactions_kind_check
    CHECK (kind IN ('ante', 'payout', 'split', 'carry', 'per_point', 'deposit', 'withdrawal',
                    'settlement', 'close_out', 'round_settle', 'bounty'));
