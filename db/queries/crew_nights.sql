-- name: CrewNightInsert :exec
-- CrewNightInsert lists a night under its crew.
INSERT INTO crew_nights (table_id, night) VALUES (@table_id, @night);

-- name: CrewNightList :many
-- CrewNightList is a crew's nights, oldest first.
SELECT night, created_at FROM crew_nights WHERE table_id = @table_id ORDER BY night;
