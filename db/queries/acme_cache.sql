-- name: ACMECacheGet :one
-- ACMECacheGet reads the sealed value stored under key.
SELECT value FROM acme_cache WHERE key = @key;

-- name: ACMECachePut :exec
-- ACMECachePut stores value under key, replacing what was there.
INSERT INTO acme_cache (key, value, updated_at) VALUES (@key, @value, now())
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at;

-- name: ACMECacheDelete :exec
-- ACMECacheDelete removes what is stored under key, if anything.
DELETE FROM acme_cache WHERE key = @key;
