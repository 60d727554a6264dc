-- name: JoinCodeInsert :exec
-- JoinCodeInsert makes a join code open a table (a code taken already
-- fails the statement: KeyJoinCode).
INSERT INTO join_codes (code, table_id) VALUES (@code, @table_id);

-- name: JoinCodeGet :one
-- JoinCodeGet finds the table a join code opens.
SELECT table_id FROM join_codes WHERE code = @code;
