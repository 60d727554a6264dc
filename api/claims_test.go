package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// claim sends Bob's "I've sent it" for amount units to Ann.
func claim(s *scene, token string, to, amount int64) req {
	return req{method: http.MethodPost, path: s.tb.path("/claims"), token: token, body: map[string]any{"to": to, "amount": amount}}
}

func TestAClaimMovesMoneyOnlyWhenThePayeeSaysYes(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	annID, bobID := s.id("Ann"), s.id("Bob")
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/unit-value"), token: s.tb.Host, body: map[string]any{"currency": "EUR", "perUnit": 25}}, nil)

	// Bob owes Ann 3: more is refused, and so is a claim by Ann, who owes
	// nothing.
	s.refused(claim(s, bob, annID, 4), http.StatusUnprocessableEntity, "/problems/not-owed", "you owe Ann 3 units")
	s.refused(claim(s, ann, bobID, 1), http.StatusUnprocessableEntity, "/problems/not-owed")
	s.refused(claim(s, bob, bobID, 1), http.StatusUnprocessableEntity, "/problems/invalid-request", "themselves")
	s.refused(claim(s, s.tb.Audit, annID, 1), http.StatusForbidden, "/problems/forbidden")

	var c apiClaim
	sent := claim(s, bob, annID, 2)
	sent.key = "bob-sent-2"
	s.must(http.StatusCreated, sent, &c)
	if c.Status != "sent" || c.From != bobID || c.To != annID || c.Amount != 2 || c.Money == nil || c.Money.Text != "€0.50" {
		t.Fatalf("claim = %+v", c)
	}
	// The same key replays; no second claim.
	if r := s.c.do(t, sent); r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %v", r.status, r.header)
	}
	// An open claim of 2 leaves 1 to claim.
	s.refused(claim(s, bob, annID, 2), http.StatusUnprocessableEntity, "/problems/not-owed", "open claims")
	s.expectMoney(0, map[string]int64{"Ann": 3, "Bob": -3})

	// The claim survives: settle-up lists it, for both phones.
	var plan apiSettle
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: ann}, &plan)
	if len(plan.Claims) != 1 || plan.Claims[0].ID != c.ID || plan.Claims[0].Status != "sent" {
		t.Fatalf("settle-up claims = %+v", plan.Claims)
	}

	// Only the payee or the host answers.
	confirm := req{method: http.MethodPost, path: s.tb.path("/claims/%d/confirm", c.ID), token: bob}
	s.refused(confirm, http.StatusForbidden, "/problems/forbidden", "the player it says was paid")
	confirm.token, confirm.key = ann, "ann-yes"
	var done apiClaim
	s.must(http.StatusOK, confirm, &done)
	if done.Status != "confirmed" {
		t.Fatalf("confirmed claim = %+v", done)
	}
	s.expectMoney(0, map[string]int64{"Ann": 1, "Bob": -1})
	// Saying yes again pays nothing more: the same key replays, another
	// is refused.
	if r := s.c.do(t, confirm); r.status != http.StatusOK || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replayed yes: %d %s", r.status, r.body)
	}
	confirm.key = "ann-yes-again"
	s.refused(confirm, http.StatusConflict, "/problems/claim-answered", "confirmed already")
	s.expectMoney(0, map[string]int64{"Ann": 1, "Bob": -1})

	// The ledger records it as "Bob paid me" does, naming the claim.
	var page struct {
		Transactions []struct {
			Kind     string
			Metadata map[string]any
		}
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/ledger?limit=500"), token: s.tb.Host}, &page)
	last := page.Transactions[len(page.Transactions)-1]
	if last.Kind != "settlement" || last.Metadata["claim"] != float64(c.ID) || last.Metadata["recordedBy"] != "player:"+strconv.FormatInt(annID, 10) {
		t.Fatalf("the claim's ledger entry = %+v", last)
	}

	// A claim refused moves nothing, and keeps its reason.
	s.must(http.StatusCreated, claim(s, bob, annID, 1), &c)
	refuse := req{method: http.MethodPost, path: s.tb.path("/claims/%d/refuse", c.ID), token: ann, body: map[string]any{"reason": "  "}}
	s.refused(refuse, http.StatusUnprocessableEntity, "/problems/invalid-request", "reason")
	refuse.body = map[string]any{"reason": "Nothing arrived on PayPal"}
	s.must(http.StatusOK, refuse, &done)
	if done.Status != "refused" || done.Reason != "Nothing arrived on PayPal" {
		t.Fatalf("refused claim = %+v", done)
	}
	s.expectMoney(0, map[string]int64{"Ann": 1, "Bob": -1})

	// History shows every step.
	var events struct{ Events []struct{ Kind string } }
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?kind=claim"), token: bob}, &events)
	var kinds []string
	for _, e := range events.Events {
		kinds = append(kinds, e.Kind)
	}
	if want := "claim.sent claim.confirmed claim.sent claim.refused"; strings.Join(kinds, " ") != want {
		t.Fatalf("claim events: %s, want %s", strings.Join(kinds, " "), want)
	}
	s.auditOK()
}

func TestTwoPhonesConfirmingAClaimPayItOnce(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	var c apiClaim
	s.must(http.StatusCreated, claim(s, bob, s.id("Ann"), 3), &c)
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, token := range []string{ann, s.tb.Host} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.c.do(t, req{method: http.MethodPost, path: s.tb.path("/claims/%d/confirm", c.ID), token: token, key: "yes-" + strconv.Itoa(i)})
			statuses[i] = r.status
		}()
	}
	wg.Wait()
	if !(statuses[0] == http.StatusOK && statuses[1] == http.StatusConflict || statuses[0] == http.StatusConflict && statuses[1] == http.StatusOK) {
		t.Fatalf("two yeses answered %v, want one 200 and one 409", statuses)
	}
	s.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0})
	s.auditOK()
}

func TestAClaimIsNotOwedOnceTheDebtIsPaidAnotherWay(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	var c apiClaim
	s.must(http.StatusCreated, claim(s, bob, s.id("Ann"), 3), &c)
	// Meanwhile Ann records "Bob paid me" in cash.
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: ann,
		body: map[string]any{"from": s.id("Bob"), "to": s.id("Ann"), "amount": 3}}, nil)
	s.refused(req{method: http.MethodPost, path: s.tb.path("/claims/%d/confirm", c.ID), token: ann},
		http.StatusUnprocessableEntity, "/problems/not-owed", "refuse the claim")
	s.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0})
}

// TestACrewSettlesWithClaims: at a crew, the members' handles and claims
// are the crew's (a night's money is paid at its crew, and a claim at a
// night is refused as "Bob paid me" is); the crew's statement is the
// season's, with each night it rolled up.
func TestACrewSettlesWithClaims(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	bobAtNight := n.join("Bob")
	n.start(nil)
	n.turn(1, "Ann", []int{6, 5, 4, 6, 5})
	n.turn(1, "Bob", []int{6, 5, 4, 1, 1})
	n.must(http.StatusOK, req{method: http.MethodPost, path: n.tb.path("/close"), token: n.tb.Host}, nil)
	cs.expectMoney(0, map[string]int64{"Ann": 2, "Bob": -2})
	ann, bob := cs.tokens["Ann"], cs.tokens["Bob"]

	cs.must(http.StatusOK, req{method: http.MethodPut, path: cs.tb.path("/unit-value"), token: cs.tb.Host,
		body: map[string]any{"currency": "EUR", "perUnit": 50}}, nil)
	cs.must(http.StatusOK, req{method: http.MethodPut, path: cs.tb.path("/handles/revolut"), token: ann,
		body: map[string]any{"handle": "@annsmith"}}, nil)
	var plan apiSettle
	cs.must(http.StatusOK, req{method: http.MethodGet, path: cs.tb.path("/settle-up"), token: bob}, &plan)
	if tr := plan.Transfers[0]; tr.Money.Text != "€1.00" || len(tr.Methods) != 1 || tr.Methods[0].Link != "https://revolut.me/annsmith" || tr.Note != "Tally: Friday crew" {
		t.Fatalf("the crew's transfer = %+v", tr)
	}
	// At the night, no claim: its money is paid at the crew.
	n.refused(claim(n, bobAtNight, n.id("Ann"), 1), http.StatusForbidden, "/problems/forbidden", "recorded at crew")

	var c apiClaim
	cs.must(http.StatusCreated, claim(cs.scene, bob, cs.id("Ann"), 2), &c)
	cs.must(http.StatusOK, req{method: http.MethodPost, path: cs.tb.path("/claims/%d/confirm", c.ID), token: ann}, nil)
	cs.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0})

	r := cs.must(http.StatusOK, req{method: http.MethodGet, path: cs.tb.path("/statement.html"), token: bob}, nil)
	if !contains(r.body, "The crew's season", "Nights and movements", "night", "Everyone is square", "confirmed") {
		t.Fatalf("the season's statement:\n%s", r.body)
	}
	cs.auditOK()
}

// TestAClaimMarkedPaidBehindTheServiceFailsTheAudit: the runtime role may
// answer a claim (it writes the answer), so it could mark one confirmed
// without the payment or its event; the audit, after a checkpoint that
// vouched for the table, finds it, and so does the database's refusal to
// change an answered claim again.
func TestAClaimMarkedPaidBehindTheServiceFailsTheAudit(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	var c apiClaim
	s.must(http.StatusCreated, claim(s, bob, s.id("Ann"), 1), &c)
	var refused apiClaim
	s.must(http.StatusCreated, claim(s, bob, s.id("Ann"), 1), &refused)
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/claims/%d/refuse", refused.ID), token: ann,
		body: map[string]any{"reason": "not yet"}}, nil)
	s.auditOK() // and a checkpoint
	ctx := context.Background()
	if _, err := s.pool.Exec(ctx, "UPDATE payment_claims SET status = 'sent' WHERE table_id = $1 AND id = $2", s.tb.ID, refused.ID); err == nil {
		t.Fatal("the database let an answered claim be sent again")
	}
	if _, err := s.pool.Exec(ctx, "UPDATE payment_claims SET status = 'confirmed' WHERE table_id = $1 AND id = $2", s.tb.ID, c.ID); err != nil {
		t.Fatal(err)
	}
	rep := s.audit()
	if rep.OK || rep.JournalOK || rep.Unchanged || !strings.Contains(strings.Join(rep.Problems, "\n"), fmt.Sprintf("payment claim %d is stored confirmed", c.ID)) {
		t.Fatalf("the audit of a claim marked paid behind the service: %+v", rep)
	}
	s.expectMoney(0, map[string]int64{"Ann": 3, "Bob": -3})
}
