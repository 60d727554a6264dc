-- 0011_acme_cache down: no certificate cache in the database. The next
-- start with --acme-domain orders its certificates again.
DROP TABLE acme_cache;
