package table

import (
	"context"
	"encoding/hex"
	"fmt"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/seal"
)

// This file is the audit: what it reports, and the checks every table's
// history gets (the log, its seals, the heads phones witnessed, the table
// and its players, the money); each game audits its own history
// (tableGame.audit: audit_dice.go, royale_audit.go, crews.go), and a
// sealed checkpoint spares a replay (audit_checkpoint.go).

// AuditQuery is what a caller brings to the audit: chain heads phones
// witnessed (from write answers and the live stream), which the history
// must still hold, and whether to replay every round even where a sealed
// checkpoint vouches for it.
type AuditQuery struct {
	Witnessed []chain.Head
	Full      bool
}

// AuditReport is the answer to "wait, who won that round?": whether the
// table's history is intact and every round's recorded outcome and money
// are what the rules give when the rolls are replayed. Problems names
// every difference found, most telling first.
type AuditReport struct {
	OK         bool           `json:"ok"`
	Events     int            `json:"events"`
	Head       HeadView       `json:"head"`
	ChainOK    bool           `json:"chainOk"`
	FirstBreak string         `json:"firstBreak,omitempty"`
	SealsOK    bool           `json:"sealsOk"`
	JournalOK  bool           `json:"journalOk"`
	BalancesOK bool           `json:"balancesOk"`
	WitnessOK  bool           `json:"witnessOk"`
	Witnessed  []WitnessCheck `json:"witnessed"`
	Rounds     []RoundAudit   `json:"rounds"`
	// Games is each Battleship Royale game's check, at a Royale table.
	Games []RoundAudit `json:"games,omitempty"`
	// Replayed is how many rounds this audit replayed through the engine;
	// the others were replayed by an earlier audit whose sealed checkpoint
	// vouches that their stored rows have not changed since.
	Replayed int `json:"replayed"`
	// Unchanged says nothing stored has changed since an earlier audit
	// that found everything in order (the database's digest of every row
	// of the table is the one its sealed checkpoint names): its findings
	// stand, and nothing was read or replayed again.
	Unchanged bool     `json:"unchanged"`
	Problems  []string `json:"problems"`
}

// HeadView is a chain head as phones keep it: the last event's sequence
// number and hash (hex).
type HeadView struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// headView shows a head.
func headView(h chain.Head) HeadView { return HeadView{Seq: h.Seq, Hash: hex.EncodeToString(h.Hash)} }

// WitnessCheck is one witnessed head and whether the history holds it.
type WitnessCheck struct {
	Seq    int64  `json:"seq"`
	Hash   string `json:"hash"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// RoundAudit is one round's check.
type RoundAudit struct {
	Number int    `json:"number"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// maxProblems bounds the problems listed; the count of the rest is given.
const maxProblems = 50

// Audit checks everything the table's history lets it check:
//   - the event hash chain, from the first event to the head the table row
//     names, with no sequence number missing;
//   - every event's seal and the head's seal (package seal): rows rewritten
//     and hashed again without the server's key do not pass;
//   - every head a phone witnessed is still in the history, so that cutting
//     the tail, or everything, is caught even by someone with the key;
//   - every journal transaction against the event that records it, every
//     reversal against what it undoes, and every balance against the sum
//     of its postings (ledger.Reconcile, which a receipt's check shares);
//   - every round replayed through the engine from the first, each
//     finished turn as recorded and each settled round's postings against
//     the replay. A sealed checkpoint from an earlier audit that found all
//     in order lets rounds whose stored rows are unchanged be skipped,
//     unless q.Full.
//
// An audit that finds everything in order leaves a new checkpoint.
func (s *Service) Audit(ctx context.Context, a Auth, q AuditQuery) (AuditReport, error) {
	var (
		h     auditHistory
		st    *tableState
		stErr error
		fast  bool
	)
	now, _, err := s.read(ctx, a, readPlan{accounts: true,
		history: func(b *db.Batch) {
			b.CheckpointGet(a.TableID, &h.checkpoint)
			b.CheckpointDigest(a.TableID, &h.digest)
			b.CrewNightList(a.TableID, &h.nights) // none but a crew's
		},
		then: func(b *db.Batch, r *reading) {
			if st, stErr = newState(r.row, r.Players, r.Accounts); stErr != nil {
				return
			}
			if fast = !q.Full && st.game.checkpointed() && s.checkpointStands(r.row, h.checkpoint, h.digest, q.Witnessed); fast {
				return
			}
			st.game.auditReads(b, &h)
			b.EventList(a.TableID, &h.events)
			b.JournalList(a.TableID, &h.journal)
			b.PaymentClaimList(a.TableID, &h.claims)
		}})
	switch {
	case err != nil:
		return AuditReport{}, err
	case stErr != nil:
		return AuditReport{}, stErr
	case fast:
		return unchangedReport(h.checkpoint, q.Witnessed)
	}
	au := &audit{keys: s.keys, row: now.row, events: h.events}
	au.chain()
	au.seals()
	au.witness(q.Witnessed)
	au.table(now.Players)
	au.money(h.journal, now.Accounts, now.Players)
	au.claims(h.claims, h.journal)
	resume := st.game.audit(au, &h, q)
	rep := au.report()
	if rep.OK {
		s.keepCheckpoint(ctx, au.row, rep, resume, h.checkpoint, h.digest)
	}
	return rep, nil
}

// auditHistory is what the audit reads of a table's history: what every
// table has, and what the game's auditReads adds.
type auditHistory struct {
	checkpoint db.Checkpoint
	digest     []byte         // the database's digest of the table's rows
	nights     []db.CrewNight // the nights listed under the table: a crew's
	events     []chain.Event
	journal    []db.JournalEntry
	claims     []db.PaymentClaim // payments.md §5
}

// audit is one audit in progress.
type audit struct {
	keys     *seal.Keys
	row      db.Table
	events   []chain.Event
	rep      AuditReport
	problems []string
}

// problem notes what broke.
func (au *audit) problem(format string, args ...any) {
	au.problems = append(au.problems, fmt.Sprintf(format, args...))
}

// report finishes the report.
func (au *audit) report() AuditReport {
	rep := au.rep
	rep.OK = rep.ChainOK && rep.SealsOK && rep.WitnessOK && rep.JournalOK && rep.BalancesOK
	for _, r := range rep.Rounds {
		rep.OK = rep.OK && r.OK
	}
	for _, g := range rep.Games {
		rep.OK = rep.OK && g.OK
	}
	if rep.Rounds == nil { // a table that plays no rounds
		rep.Rounds = []RoundAudit{}
	}
	rep.Problems = au.problems
	if len(rep.Problems) > maxProblems {
		rep.Problems = append(rep.Problems[:maxProblems:maxProblems], fmt.Sprintf("and %d more", len(au.problems)-maxProblems))
	}
	if rep.Problems == nil {
		rep.Problems = []string{}
	}
	return rep
}
