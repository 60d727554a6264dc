package db

import (
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// CrewNight is a night made for a crew: its table, and when it was made.
type CrewNight struct {
	Table     int64
	CreatedAt time.Time
}

// CrewNightInsert queues listing night under crew (a statement of the
// crew's, keyed by the crew's id).
func (b *Batch) CrewNightInsert(crew, night int64) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.CrewNightInsert(b.ctx, q, dbsqlc.CrewNightInsertParams{TableID: crew, Night: night})
	})
}

// CrewNightList queues reading a crew's nights, oldest first.
func (b *Batch) CrewNightList(crew int64, out *[]CrewNight) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.CrewNightList(b.ctx, q, crew)
		if err != nil {
			return err
		}
		*out = make([]CrewNight, len(rows))
		for i, r := range rows {
			(*out)[i] = CrewNight{Table: r.Night, CreatedAt: r.CreatedAt}
		}
		return nil
	})
}
