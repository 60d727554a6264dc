package db

import (
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// EventPage queues reading at most max of a table's events after seq
// after, in order; with families, only events of those kinds' families
// ("player" for player.joined, player.left and the rest).
func (b *Batch) EventPage(tableID, after int64, max int, families []string, out *[]chain.Event) {
	if families == nil {
		families = []string{}
	}
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.EventPage(b.ctx, q, dbsqlc.EventPageParams{TableID: tableID, After: after, Max: int32(max),
			Families: families})
		*out = toEvents(rows)
		return err
	})
}

// EventList queues reading a table's whole audit log in order.
func (b *Batch) EventList(tableID int64, out *[]chain.Event) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.EventList(b.ctx, q, tableID)
		*out = toEvents(rows)
		return err
	})
}

func toEvents(rows []dbsqlc.Event) []chain.Event {
	out := make([]chain.Event, len(rows))
	for i, r := range rows {
		out[i] = chain.Event{TableID: r.TableID, Seq: r.Seq, Kind: r.Kind, Payload: r.Payload, CreatedAt: r.CreatedAt,
			PrevHash: r.PrevHash, Hash: r.Hash, Seal: r.Seal}
	}
	return out
}
