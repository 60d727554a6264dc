package db

import (
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// EventInsert queues appending a write's events, all made at one moment,
// in one statement.
func (b *Batch) EventInsert(tableID int64, events []chain.Event) {
	if len(events) == 0 {
		return
	}
	p := dbsqlc.EventInsertParams{TableID: tableID, CreatedAt: events[0].CreatedAt}
	for _, e := range events {
		p.Seqs = append(p.Seqs, e.Seq)
		p.Kinds = append(p.Kinds, e.Kind)
		p.Payloads = append(p.Payloads, string(e.Payload))
		p.PrevHashes = append(p.PrevHashes, e.PrevHash)
		p.Hashes = append(p.Hashes, e.Hash)
	}
	b.exec(func(q dbsqlc.DBTX) error { return queries.EventInsert(b.ctx, q, p) })
}

// EventPage queues reading at most max of a table's events after seq
// after, in order.
func (b *Batch) EventPage(tableID, after int64, max int, out *[]chain.Event) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.EventPage(b.ctx, q, dbsqlc.EventPageParams{TableID: tableID, After: after, Max: int32(max)})
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
			PrevHash: r.PrevHash, Hash: r.Hash}
	}
	return out
}
