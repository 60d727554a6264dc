package table

import (
	"encoding/json"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// claims checks the table's payment claims (claims.go) against the events
// that recorded them: the runtime role may change a claim's row (its
// answer), so the row proves nothing by itself. Every claim.sent event has
// its row, with the same payer, payee and amount; every row has its event;
// a row's answer is the one its claim.confirmed or claim.refused event
// records (with the same reason), and a confirmed claim's settlement is in
// the journal, naming it. A mismatch fails the journal's check, which is
// about money recorded by hand.
func (au *audit) claims(rows []db.PaymentClaim, journal []db.JournalEntry) {
	byID := make(map[int64]db.PaymentClaim, len(rows))
	for _, c := range rows {
		byID[c.ID] = c
	}
	sent := map[int64]bool{}
	answers := map[int64]chain.Event{}
	for _, e := range au.events {
		switch e.Kind {
		case "claim.sent":
			var p claimSent
			c, ok := byID[e.Seq]
			if json.Unmarshal(e.Payload, &p) != nil || !ok || c.Payer != p.From || c.Payee != p.To || c.Amount != p.Amount {
				au.claimProblem("event %d records a payment claim that its stored row does not match", e.Seq)
			}
			sent[e.Seq] = true
		case "claim.confirmed", "claim.refused":
			var p claimAnswered
			if json.Unmarshal(e.Payload, &p) != nil {
				au.claimProblem("event %d: an answer to a payment claim that does not read", e.Seq)
				continue
			}
			if _, twice := answers[p.Claim]; twice {
				au.claimProblem("payment claim %d is answered twice (event %d)", p.Claim, e.Seq)
			}
			answers[p.Claim] = e
		}
	}
	paid := map[int64]bool{}
	for _, j := range journal {
		var m claimedMeta
		if j.Kind == string(ledger.KindSettlement) && json.Unmarshal(j.Metadata, &m) == nil && m.Claim != 0 {
			paid[m.Claim] = true
		}
	}
	for _, c := range rows {
		e, answered := answers[c.ID]
		var p claimAnswered
		if answered {
			_ = json.Unmarshal(e.Payload, &p)
		}
		switch {
		case !sent[c.ID]:
			au.claimProblem("payment claim %d has no claim.sent event", c.ID)
		case c.Status == db.ClaimSent && answered:
			au.claimProblem("payment claim %d is stored unanswered, but event %d answered it", c.ID, e.Seq)
		case c.Status == db.ClaimConfirmed && (!answered || e.Kind != "claim.confirmed" || !paid[c.ID]):
			au.claimProblem("payment claim %d is stored confirmed without its claim.confirmed event and settlement", c.ID)
		case c.Status == db.ClaimRefused && (!answered || e.Kind != "claim.refused" || p.Reason != c.Reason):
			au.claimProblem("payment claim %d is stored refused without the claim.refused event that says so", c.ID)
		}
	}
}

// claimProblem notes a claim that its events do not bear out.
func (au *audit) claimProblem(format string, args ...any) {
	au.rep.JournalOK = false
	au.problem(format, args...)
}
