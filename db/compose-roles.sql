-- The roles of docker-compose.yml's database, made once when its data
-- volume is new (the postgres image runs /docker-entrypoint-initdb.d/):
-- tallyd migrates as the database's owner (POSTGRES_USER) and serves as
-- tally_app, a member of tally_runtime, which migration 4 grants what
-- serving needs and nothing more (README, "Books nobody can quietly
-- rewrite").
CREATE ROLE tally_runtime NOLOGIN;
CREATE ROLE tally_app LOGIN PASSWORD 'tally_app' IN ROLE tally_runtime;
