-- 0008_host_recovery down: no host recovery codes, no retired tokens (their
-- phones are told "unknown token" again).
REVOKE UPDATE (host_token_hash) ON tables FROM tally_runtime;
DROP TABLE retired_tokens;
DROP TABLE host_recoveries;
