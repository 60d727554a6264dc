package table

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/seal"
)

// This file is the audit's sealed checkpoints: what an audit that found
// everything in order leaves, so that the next need not replay the dice
// rounds whose stored rows are unchanged, or read anything when nothing
// changed at all.

// checkpointStands says whether the table's checkpoint is this server's
// and nothing stored has changed since (the database's digest of every row
// is the one it names, and the table row, read here, still ends the chain
// at the checkpoint's head under this server's seal), and every witnessed
// head is its head.
func (s *Service) checkpointStands(row db.Table, cp db.Checkpoint, digest []byte, witnessed []chain.Head) bool {
	if len(cp.Seal) == 0 || string(cp.Digest) != string(digest) ||
		!seal.Valid(cp.Seal, s.keys.Checkpoint(row.ID, cp.Seq, cp.Hash, cp.Round, cp.Rows, cp.State, cp.Digest, cp.Report)) ||
		row.Head.Seq != cp.Seq || string(row.Head.Hash) != string(cp.Hash) ||
		!seal.Valid(row.HeadSeal, s.keys.Head(row.ID, row.Head.Seq, row.Head.Hash)) {
		return false
	}
	for _, w := range witnessed {
		if w.Seq != cp.Seq || string(w.Hash) != string(cp.Hash) {
			return false // checked against the events themselves
		}
	}
	return true
}

// unchangedReport is the report of an audit whose checkpoint stands: the
// earlier audit's, with the witnessed heads (each the head) checked.
func unchangedReport(cp db.Checkpoint, witnessed []chain.Head) (AuditReport, error) {
	var rep AuditReport
	if err := json.Unmarshal(cp.Report, &rep); err != nil {
		return AuditReport{}, fmt.Errorf("audit checkpoint of table %d: %w", cp.TableID, err)
	}
	rep.Replayed, rep.Unchanged, rep.Witnessed = 0, true, []WitnessCheck{}
	for _, w := range witnessed {
		rep.Witnessed = append(rep.Witnessed, WitnessCheck{Seq: w.Seq, Hash: hex.EncodeToString(w.Hash), OK: true})
	}
	return rep, nil
}

// keepCheckpoint stores what an audit that found everything in order
// vouches for: the digest of the rows it read and its report, and where its
// replay got to (or, when it replayed nothing new, where the last
// checkpoint's did).
func (s *Service) keepCheckpoint(ctx context.Context, row db.Table, rep AuditReport, resume *replayed, old db.Checkpoint, digest []byte) {
	rep.Witnessed, rep.Replayed = []WitnessCheck{}, 0
	report, err := json.Marshal(rep)
	if err != nil {
		return
	}
	cp := db.Checkpoint{TableID: row.ID, Seq: row.Head.Seq, Hash: row.Head.Hash, Rows: make([]byte, sha256.Size),
		State: []byte("null"), Digest: digest, Report: report}
	switch {
	case resume != nil:
		cp.Round, cp.Rows, cp.State = resume.round, resume.rows, resume.state
	case old.Round > 0:
		cp.Round, cp.Rows, cp.State = old.Round, old.Rows, old.State
	}
	if len(cp.Hash) == 0 {
		cp.Hash = chain.Genesis
	}
	cp.Seal = s.keys.Checkpoint(row.ID, cp.Seq, cp.Hash, cp.Round, cp.Rows, cp.State, cp.Digest, cp.Report)
	b := db.NewBatch(ctx)
	b.CheckpointPut(cp)
	if err := b.Send(s.pool); err != nil {
		s.log.Warn("keeping an audit checkpoint", "table", row.ID, "err", err)
	}
}

// replayed is how far an audit's replay got: the last settled round it
// replayed, the digest of the rows of the rounds up to it, and the game's
// state after it.
type replayed struct {
	round int
	rows  []byte
	state []byte
}

// checkpointHolds says whether cp is this server's, is of this history,
// and its rounds' stored rows are as they were when it was made.
func (au *audit) checkpointHolds(cp db.Checkpoint, rounds []db.Round, actions []db.Action, turns []db.Turn) bool {
	if cp.Round < 1 || cp.Round > len(rounds) || rounds[cp.Round-1].Number != cp.Round ||
		cp.Seq < 1 || cp.Seq > int64(len(au.events)) || string(au.events[cp.Seq-1].Hash) != string(cp.Hash) ||
		!seal.Valid(cp.Seal, au.keys.Checkpoint(au.row.ID, cp.Seq, cp.Hash, cp.Round, cp.Rows, cp.State, cp.Digest, cp.Report)) {
		return false
	}
	return string(rowsDigest(rounds[:cp.Round], actions, turns)) == string(cp.Rows)
}

// rowsDigest is the SHA-256 of the stored rows of rounds and of their
// actions and turns: what a replay of those rounds reads.
func rowsDigest(rounds []db.Round, actions []db.Action, turns []db.Turn) []byte {
	last := 0
	if len(rounds) > 0 {
		last = rounds[len(rounds)-1].Number
	}
	h := sha256.New()
	enc := json.NewEncoder(h)
	_ = enc.Encode(rounds)
	for _, a := range actions {
		if a.Round <= last {
			_ = enc.Encode(a)
		}
	}
	for _, t := range turns {
		if t.Round <= last {
			_ = enc.Encode(t)
		}
	}
	return h.Sum(nil)
}

// encodeState and decodeState keep a game state in a checkpoint.
func encodeState(g game.GameState) []byte {
	raw, _ := json.Marshal(g)
	return raw
}

func decodeState(raw []byte) game.GameState {
	var g game.GameState
	_ = json.Unmarshal(raw, &g)
	return g
}
