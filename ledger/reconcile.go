package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
)

// Reconcile checks a table's journal against its audit log and its
// balances against its postings, and names every difference:
//   - each journal transaction balances and names the ledger event that
//     records it, whose kind, round and postings (by account, net) are the
//     transaction's;
//   - each ledger event is recorded by exactly one journal transaction;
//   - each reversal undoes exactly one earlier transaction (CheckReversals);
//   - each account's balance is the sum of its postings.
//
// The audit log is checked by its own chain (package chain); a journal or
// balance changed behind it shows up here. The server's audit and the
// offline check of a night receipt both check the books with it, so that
// they find the same.
func Reconcile(events []chain.Event, journal []db.JournalEntry, accounts []db.Account) []string {
	var problems []string
	bySeq := make(map[int64]chain.Event, len(events))
	for _, e := range events {
		if strings.HasPrefix(e.Kind, "ledger.") {
			bySeq[e.Seq] = e
		}
	}
	recorded := map[int64]int64{} // event seq -> journal transaction
	sums := map[int64]int64{}     // account id -> sum of its postings
	for _, j := range journal {
		var total int64
		for _, p := range j.Postings {
			total += p.Amount
			sums[p.AccountID] += p.Amount
		}
		if total != 0 {
			problems = append(problems, fmt.Sprintf("journal transaction %d does not balance: its postings sum to %d", j.ID, total))
		}
		e, ok := bySeq[j.EventSeq]
		switch {
		case j.EventSeq == 0:
			problems = append(problems, fmt.Sprintf("journal transaction %d names no audit event", j.ID))
			continue
		case !ok:
			problems = append(problems, fmt.Sprintf("journal transaction %d names event %d, which is not a ledger event of this log", j.ID, j.EventSeq))
			continue
		case recorded[j.EventSeq] != 0:
			problems = append(problems, fmt.Sprintf("journal transactions %d and %d both name event %d", recorded[j.EventSeq], j.ID, j.EventSeq))
			continue
		}
		recorded[j.EventSeq] = j.ID
		if err := matchEvent(e, j); err != nil {
			problems = append(problems, fmt.Sprintf("journal transaction %d differs from event %d: %v", j.ID, e.Seq, err))
		}
	}
	seqs := make([]int64, 0, len(bySeq))
	for seq := range bySeq {
		if recorded[seq] == 0 {
			seqs = append(seqs, seq)
		}
	}
	slices.Sort(seqs)
	for _, seq := range seqs {
		problems = append(problems, fmt.Sprintf("event %d (%s) has no journal transaction", seq, bySeq[seq].Kind))
	}
	problems = append(problems, CheckReversals(journal)...)
	for _, a := range accounts {
		if a.Balance != sums[a.ID] {
			problems = append(problems, fmt.Sprintf("the %s balance is %d, but its postings sum to %d",
				accountName(a), a.Balance, sums[a.ID]))
		}
	}
	return problems
}

// matchEvent compares a journal transaction with the event that records
// it: kind, round and each account's net movement.
func matchEvent(e chain.Event, j db.JournalEntry) error {
	if e.Kind != "ledger."+j.Kind {
		return fmt.Errorf("the event is %s, the transaction %s", e.Kind, j.Kind)
	}
	var ev Event
	if err := json.Unmarshal(e.Payload, &ev); err != nil {
		return fmt.Errorf("the event's payload does not read: %w", err)
	}
	// Events written before migration 3 name the round by its row id.
	if ev.Round != j.Round && (j.RoundID == nil || int64(ev.Round) != *j.RoundID) {
		return fmt.Errorf("the event is of round %d, the transaction of round %d", ev.Round, j.Round)
	}
	if Kind(j.Kind) == KindReversal && !sameJSON(ev.Metadata, j.Metadata) {
		// What a reversal undoes is in its metadata: the event says it too.
		return fmt.Errorf("the event's metadata is %v, the transaction's %s", ev.Metadata, j.Metadata)
	}
	want := map[string]int64{}
	for _, p := range ev.Postings {
		want[p.Account] += p.Amount
	}
	got := map[string]int64{}
	for _, p := range j.Postings {
		got[Account{Kind: p.Kind, Player: p.Player}.String()] += p.Amount
	}
	names := make([]string, 0, len(want)+len(got))
	for a := range want {
		names = append(names, a)
	}
	for a := range got {
		if _, ok := want[a]; !ok {
			names = append(names, a)
		}
	}
	slices.Sort(names)
	for _, a := range names {
		if got[a] != want[a] {
			return fmt.Errorf("%s moved %d, the event says %d", a, got[a], want[a])
		}
	}
	return nil
}

// sameJSON reports whether a decoded JSON value and raw JSON say the same.
func sameJSON(v any, raw []byte) bool {
	var w any
	if json.Unmarshal(raw, &w) != nil {
		return false
	}
	a, errA := json.Marshal(v)
	b, errB := json.Marshal(w)
	return errA == nil && errB == nil && string(a) == string(b)
}

// accountName names an account in a problem.
func accountName(a db.Account) string {
	if a.Kind == db.AccountPlayer {
		return fmt.Sprintf("player %d's", a.Player)
	}
	return a.Kind + "'s"
}
