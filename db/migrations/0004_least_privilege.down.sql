-- 0004_least_privilege down: the runtime role loses its grants (the role
-- itself is left: it belongs to the server, not to this database), seals
-- and checkpoints are dropped, and money moves again as the caller.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM tally_runtime;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM tally_runtime;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM tally_runtime;
REVOKE ALL ON SCHEMA public FROM tally_runtime;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO PUBLIC;
ALTER FUNCTION tally_journal_post(bigint, text, int, text, jsonb, bigint, bigint[], bigint[])
    SECURITY INVOKER RESET search_path;
DROP INDEX idempotency_keys_age_idx;
DROP TABLE audit_checkpoints;
DROP FUNCTION tally_seal_events(bigint, bigint[], bytea[]);
DROP FUNCTION tally_seal_head(bigint, bigint, bytea);
DROP TRIGGER events_sealed ON events;
DROP FUNCTION tally_events_sealed();
GRANT CREATE ON SCHEMA public TO PUBLIC;
DO $$
BEGIN
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database());
END
$$;
DROP TRIGGER events_append_only ON events;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION tally_reject_change();
DROP FUNCTION tally_events_append_only();
ALTER TABLE tables DROP COLUMN head_seal, DROP COLUMN legacy_seq;
ALTER TABLE events DROP COLUMN seal;
