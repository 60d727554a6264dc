-- 0011_acme_cache: the certificates tallyd obtains for its HTTPS with ACME
-- (--acme-domain), kept where every instance finds them.
--
-- The ACME client (golang.org/x/crypto/acme/autocert) keeps, each under a
-- name: its account key ("acme_account+key"), every certificate with its
-- private key (the domain, "<domain>+rsa"), and the answers of challenges
-- in progress ("<token>+http-01", "<domain>+token"). Kept here rather than
-- in each instance's data directory, one certificate serves them all: an
-- instance started later, or restarted on another machine, orders nothing,
-- and whichever instance a balancer sends the CA's challenge to answers it.
--
-- tallyd stores each value sealed: AES-256-GCM under a key derived from
-- the master secret, which the database never sees, with the name as
-- associated data (package seal, LockACME). The database alone reveals no
-- private key, and a value moved to another name no longer opens.
--
-- The cache belongs to no game table: on Citus it stays a local table of
-- the coordinator, which every instance connects to (docs/citus.md).
CREATE TABLE acme_cache (
    key        text        PRIMARY KEY CHECK (key <> ''),
    value      bytea       NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The runtime role reads, adds, replaces and removes entries: all the
-- cache interface does (a challenge's answer is removed once used).
REVOKE ALL ON acme_cache FROM PUBLIC;
GRANT SELECT, INSERT, DELETE ON acme_cache TO tally_runtime;
GRANT UPDATE (value, updated_at) ON acme_cache TO tally_runtime;
