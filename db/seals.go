package db

import (
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// This file is the upkeep of seals for history written before they existed
// (migration 4): tallyd seals it once, the first time it starts after the
// upgrade.

// EventUnsealed queues listing up to max events that have no seal yet,
// table by table (each with its table, seq and hash only).
func (b *Batch) EventUnsealed(max int, out *[]chain.Event) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.EventUnsealed(b.ctx, q, int32(max))
		*out = make([]chain.Event, len(rows))
		for i, r := range rows {
			(*out)[i] = chain.Event{TableID: r.TableID, Seq: r.Seq, Hash: r.Hash}
		}
		return err
	})
}

// EventSeal queues giving a table's events seqs, which have none yet, the
// seals seals (tally_seal_events: an event already sealed keeps its seal).
func (b *Batch) EventSeal(tableID int64, seqs []int64, seals [][]byte) {
	b.queue(func(q dbsqlc.DBTX) error {
		_, err := queries.EventSeal(b.ctx, q, dbsqlc.EventSealParams{TableID: tableID, Seqs: seqs, Seals: seals})
		return err
	})
}

// TableHeadUnsealed queues listing up to max tables whose chain head has no
// seal yet (ID and Head only).
func (b *Batch) TableHeadUnsealed(max int, out *[]Table) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.TableHeadUnsealed(b.ctx, q, int32(max))
		*out = make([]Table, len(rows))
		for i, r := range rows {
			(*out)[i] = Table{ID: r.ID, Head: chain.Head{Seq: r.EventSeq, Hash: r.EventHash}}
		}
		return err
	})
}

// TableHeadSeal queues sealing a table's head, if it is still at seq,
// where migration 4 found it, and unsealed (tally_seal_head).
func (b *Batch) TableHeadSeal(tableID, seq int64, seal []byte) {
	b.queue(func(q dbsqlc.DBTX) error {
		_, err := queries.TableHeadSeal(b.ctx, q, dbsqlc.TableHeadSealParams{ID: tableID, EventSeq: seq, HeadSeal: seal})
		return err
	})
}

// EventSealedAny queues asking whether any event of any table has a seal.
func (b *Batch) EventSealedAny(out *bool) {
	b.queue(func(q dbsqlc.DBTX) error {
		v, err := queries.EventSealedAny(b.ctx, q)
		*out = v
		return err
	})
}
