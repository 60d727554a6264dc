package db

import (
	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// Checkpoint is where an audit that found a table in order got to (see
// migration 4): the digest of every row of the table it read (Digest, from
// CheckpointDigest) and its report (Report, JSON); the history up to event
// Seq (Hash), the rounds up to Round replayed, their stored rows' digest
// Rows and the game's state after them (State, the engine's JSON); all
// sealed by Seal.
type Checkpoint struct {
	TableID int64
	Seq     int64
	Hash    []byte
	Round   int
	Rows    []byte
	State   []byte
	Digest  []byte
	Report  []byte
	Seal    []byte
}

// CheckpointGet queues reading a table's checkpoint; none leaves out zero.
func (b *Batch) CheckpointGet(tableID int64, out *Checkpoint) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.AuditCheckpoint, error) { return queries.CheckpointGet(b.ctx, q, tableID) },
			func(r dbsqlc.AuditCheckpoint, out *Checkpoint) error {
				*out = Checkpoint{TableID: r.TableID, Seq: r.Seq, Hash: r.Hash, Round: int(r.Round), Rows: r.Rows,
					State: r.State, Digest: r.Digest, Report: r.Report, Seal: r.Seal}
				return nil
			})
	})
}

// CheckpointPut queues keeping c as its table's checkpoint.
func (b *Batch) CheckpointPut(c Checkpoint) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.CheckpointPut(b.ctx, q, dbsqlc.CheckpointPutParams{TableID: c.TableID, Seq: c.Seq, Hash: c.Hash,
			Round: int32(c.Round), Rows: c.Rows, State: c.State, Digest: c.Digest, Report: c.Report, Seal: c.Seal})
	})
}

// CheckpointDigest queues computing, in the database, the SHA-256 of every
// stored row of a table (see the query): what an audit compares with its
// checkpoint's Digest before reading anything else.
func (b *Batch) CheckpointDigest(tableID int64, out *[]byte) {
	b.queue(func(q dbsqlc.DBTX) error {
		d, err := queries.CheckpointDigest(b.ctx, q, tableID)
		*out = d
		return err
	})
}
