package ledger

import (
	"encoding/json"
	"fmt"

	"github.com/tally-dice/tally/db"
)

// KindReversal is a correction: the postings of an earlier entry, negated.
// Nothing in the journal is ever changed or removed; a movement recorded by
// mistake is undone by moving the same amounts back.
const KindReversal Kind = "reversal"

// KindNight rolls a crew's night into the crew: each member's closing
// balance that night, moved onto the member's account at the crew.
const KindNight Kind = "night"

// Kinds are every movement kind, declared here once: the CHECK constraint
// on journal_transactions.kind (db/migrations), the enum of a journal
// entry's kind in openapi.yaml and the corrections' handling of each kind
// (table) are checked against it by tests.
var Kinds = []Kind{KindAnte, KindPayout, KindSplit, KindCarry, KindPerPoint, KindDeposit, KindWithdrawal,
	KindSettlement, KindCloseOut, KindRoundSettle, KindBounty, KindReversal, KindNight}

// ReversalMeta is a reversal's metadata: the ledger event that recorded
// the entry it reverses (which no other reversal may name), that entry's
// kind, and why.
type ReversalMeta struct {
	Reverses int64  `json:"reverses"`
	Kind     Kind   `json:"kind"`
	Reason   string `json:"reason,omitempty"`
}

// Reversal is the entry that undoes e: each of its postings the other way,
// in the same round.
func Reversal(e db.JournalEntry, reason string) Entry {
	r := Entry{Kind: KindReversal, Round: e.Round, Memo: "reverses " + describe(Kind(e.Kind)),
		Meta: ReversalMeta{Reverses: e.EventSeq, Kind: Kind(e.Kind), Reason: reason}}
	for _, p := range e.Postings {
		a := Account{Kind: p.Kind}
		if p.Kind == db.AccountPlayer {
			a.Player = p.Player
		}
		r.Lines = append(r.Lines, Line{a, -p.Amount})
	}
	return r
}

// describe names a kind of entry in words, for a reversal's memo.
func describe(k Kind) string {
	switch k {
	case KindDeposit:
		return "a buy-in"
	case KindWithdrawal:
		return "a cash-out"
	case KindSettlement:
		return "a payment"
	case KindAnte:
		return "the antes"
	case KindRoundSettle:
		return "the round's settlement"
	}
	return string(k)
}

// Reversed maps the ledger event of each reversed entry of a journal to the
// event of the reversal that undid it.
func Reversed(journal []db.JournalEntry) map[int64]int64 {
	out := map[int64]int64{}
	for _, j := range journal {
		var m ReversalMeta
		if Kind(j.Kind) == KindReversal && json.Unmarshal(j.Metadata, &m) == nil {
			out[m.Reverses] = j.EventSeq
		}
	}
	return out
}

// CheckReversals names every reversal of a journal that does not undo
// exactly one entry: the entry it names must exist, be no reversal itself,
// be named by no other reversal, be of the same round, and be moved back
// by exactly its amounts.
func CheckReversals(journal []db.JournalEntry) []string {
	bySeq := make(map[int64]db.JournalEntry, len(journal))
	for _, j := range journal {
		bySeq[j.EventSeq] = j
	}
	var problems []string
	named := map[int64]int64{}
	for _, j := range journal {
		if Kind(j.Kind) != KindReversal {
			continue
		}
		var m ReversalMeta
		if err := json.Unmarshal(j.Metadata, &m); err != nil {
			problems = append(problems, fmt.Sprintf("reversal %d's metadata does not read", j.ID))
			continue
		}
		e, ok := bySeq[m.Reverses]
		switch {
		case !ok || m.Reverses == 0:
			problems = append(problems, fmt.Sprintf("reversal %d names event %d, which recorded no movement of money", j.ID, m.Reverses))
			continue
		case Kind(e.Kind) == KindReversal:
			problems = append(problems, fmt.Sprintf("reversal %d reverses reversal %d", j.ID, e.ID))
			continue
		case named[m.Reverses] != 0:
			problems = append(problems, fmt.Sprintf("reversals %d and %d both reverse event %d", named[m.Reverses], j.ID, m.Reverses))
			continue
		case e.Round != j.Round || m.Kind != Kind(e.Kind) || e.EventSeq > j.EventSeq:
			problems = append(problems, fmt.Sprintf("reversal %d is not of the round, kind or time of event %d, which it reverses", j.ID, m.Reverses))
			continue
		}
		named[m.Reverses] = j.ID
		if err := Reversal(e, "").Matches(j.Postings); err != nil {
			problems = append(problems, fmt.Sprintf("reversal %d does not undo event %d exactly: %v", j.ID, m.Reverses, err))
		}
	}
	return problems
}
