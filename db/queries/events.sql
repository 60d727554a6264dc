-- name: EventPage :many
SELECT * FROM events WHERE table_id = @table_id AND seq > @after ORDER BY seq LIMIT @max;

-- name: EventList :many
SELECT * FROM events WHERE table_id = @table_id ORDER BY seq;
