package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// These tests correct mistakes the way a host at the bar does: take back
// the last action, reverse the latest round, reverse a buy-in or payment.
// Each correction is checked by the money, by every later read and by the
// audit, which replays it; a tampered correction fails the audit.

// correctionScene is a classic table (ante 2) of Ann, Bob and Cy.
func correctionScene(t *testing.T, options map[string]any) *scene {
	if options == nil {
		options = map[string]any{}
	}
	options["ante"] = 2
	return newScene(t, map[string]any{"preset": "classic", "options": options, "players": []string{"Ann", "Bob", "Cy"}})
}

// correct sends a correction as the host and decodes the answer into v.
func (s *scene) correct(path, reason string, v any) {
	s.t.Helper()
	var body any
	if reason != "" {
		body = map[string]any{"reason": reason}
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("%s", path), token: s.tb.Host, body: body}, v)
}

// eventsOf are the table's events of kind, as the auditor reads them.
func (s *scene) eventsOf(kind string) []json.RawMessage {
	s.t.Helper()
	var page struct {
		Events []struct {
			Kind    string          `json:"kind"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: s.tb.Audit}, &page)
	var out []json.RawMessage
	for _, e := range page.Events {
		if e.Kind == kind {
			out = append(out, e.Payload)
		}
	}
	return out
}

func TestTakeBackReplaysTheRoundWithoutTheAction(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(nil)
	s.act(s.tb.Host, 1, as(ann, roll(6, 5, 4, 3, 3)))
	// A wrong face typed for Ann's second throw: taken back, with a reason.
	s.act(s.tb.Host, 1, as(ann, roll(1, 1)))
	var rd fullRound
	s.correct("/rounds/1/take-back", "typed 1 1, the dice show 6 6", &rd)
	if rd.Status != "playing" || rd.Turn != ann {
		t.Fatalf("after taking back: %+v", rd)
	}
	if got := s.round(s.tb.Audit, 1); len(got.Turns[0].Outcome.Rolls) != 1 {
		t.Fatalf("Ann's throws after taking one back: %+v", got.Turns[0].Outcome.Rolls)
	}
	s.act(s.tb.Host, 1, as(ann, roll(6, 6)))
	s.act(s.tb.Host, 1, map[string]any{"player": ann, "kind": "stand"})
	// A mistaken stand for Bob taken back: Bob throws again.
	s.act(s.tb.Host, 1, as(bob, roll(6, 5, 4, 2, 2)))
	s.act(s.tb.Host, 1, map[string]any{"player": bob, "kind": "stand"})
	s.correct("/rounds/1/take-back", "Bob did not stand", &rd)
	if rd.Turn != bob {
		t.Fatalf("after taking back Bob's stand it is player %d's turn, want Bob (%d)", rd.Turn, bob)
	}
	s.act(s.tb.Host, 1, as(bob, roll(3, 3)))
	s.act(s.tb.Host, 1, map[string]any{"player": bob, "kind": "stand"})
	rd = s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	expectResult(t, rd, "win", []int64{ann}, 6, 0)
	s.expectMoney(0, map[string]int64{"Ann": 4, "Bob": -2, "Cy": -2})

	voided := s.eventsOf("round.voided")
	if len(voided) != 2 || !strings.Contains(string(voided[0]), "typed 1 1, the dice show 6 6") {
		t.Fatalf("round.voided events: %s", voided)
	}
	s.auditOK()
}

func TestTakingBackTheLastActionReopensASettledRound(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	ann, cy := s.id("Ann"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 5, 5})
	s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	rd := s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	expectResult(t, rd, "win", []int64{ann}, 6, 0)
	s.auditOK() // leaves a checkpoint the correction must not hide behind

	// Cy stood on 3 by mistake: taking back the stand opens the round again
	// and moves the pot back from Ann.
	s.correct("/rounds/1/take-back", "Cy wanted to throw again", &rd)
	if rd.Status != "playing" || rd.Turn != cy {
		t.Fatalf("after taking back the stand that ended the round: %+v", rd)
	}
	s.expectMoney(6, map[string]int64{"Ann": -2, "Bob": -2, "Cy": -2})
	s.auditOK()
	s.act(s.tb.Host, 1, as(cy, roll(6, 6)))
	rd = s.act(s.tb.Host, 1, map[string]any{"player": cy, "kind": "stand"})
	expectResult(t, rd, "win", []int64{cy}, 6, 0)
	s.expectMoney(0, map[string]int64{"Ann": -2, "Bob": -2, "Cy": 4})
	rep := s.audit("full=true")
	if !rep.OK || rep.Replayed != 1 {
		t.Fatalf("audit after a reopened round: %+v", rep)
	}
}

func TestReversingTheLatestRoundRestoresTheMoney(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	after1 := map[string]int64{"Ann": 4, "Bob": -2, "Cy": -2}
	s.expectMoney(0, after1)
	round2 := s.start(nil)
	s.turn(2, "Bob", []int{6, 5, 4, 6, 6})
	s.turn(2, "Cy", []int{6, 5, 4, 3, 3})
	s.turn(2, "Ann", []int{6, 5, 4, 1, 2})
	s.expectMoney(0, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -4})

	var rd fullRound
	s.correct("/rounds/2/reverse", "we played round 2 with the wrong cup", &rd)
	if rd.Status != "reversed" {
		t.Fatalf("reversed round: %+v", rd)
	}
	s.expectMoney(0, after1)
	s.auditOK()

	// Only the latest round, and only once.
	before := s.snapshot()
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/reverse"), token: s.tb.Host}, http.StatusConflict,
		"/problems/conflict", "only the latest round (2)")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/2/reverse"), token: s.tb.Host}, http.StatusConflict,
		"/problems/conflict", "reversed already")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/2/take-back"), token: s.tb.Host}, http.StatusConflict,
		"/problems/conflict", "reversed already")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/2/actions"), token: s.tb.Host, body: as(ann, roll(6, 5, 4, 1, 1))},
		http.StatusConflict, "/problems/no-round-in-progress", "round 2 was reversed")
	s.unchanged(before, "refused corrections")

	// The round is played again as round 3, from where round 2 began.
	round3 := s.start(nil)
	if round3.Pot != round2.Pot || round3.Turn != round2.Turn || round3.Turn != bob {
		t.Fatalf("round 3 %+v does not begin where reversed round 2 began %+v", round3, round2)
	}
	// Started by accident: reversed while it is being played, antes back.
	s.correct("/rounds/3/reverse", "", &rd)
	s.expectMoney(0, after1)
	if got := s.rounds(s.tb.Audit); len(got) != 3 || got[1].Status != "reversed" || got[2].Status != "reversed" {
		t.Fatalf("rounds after two reversals: %+v", got)
	}
	s.start(nil)
	s.turn(4, "Bob", []int{6, 5, 4, 6, 6})
	s.turn(4, "Cy", []int{6, 5, 4, 3, 3})
	s.turn(4, "Ann", []int{6, 5, 4, 1, 2})
	s.expectMoney(0, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -4})
	if rep := s.audit("full=true"); !rep.OK || rep.Replayed != 4 {
		t.Fatalf("audit: %+v", rep)
	}
	if n := len(s.eventsOf("round.reversed")); n != 2 {
		t.Fatalf("%d round.reversed events, want 2", n)
	}
}

// ledgerEvent is the event seq of the table's last journal entry of kind.
func (s *scene) ledgerEvent(kind string) int64 {
	s.t.Helper()
	var page struct {
		Entries []struct {
			Kind     string `json:"kind"`
			EventSeq int64  `json:"eventSeq"`
		} `json:"transactions"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/ledger?limit=500"), token: s.tb.Audit}, &page)
	var seq int64
	for _, e := range page.Entries {
		if e.Kind == kind {
			seq = e.EventSeq
		}
	}
	if seq == 0 {
		s.t.Fatalf("no %s in the ledger: %+v", kind, page)
	}
	return seq
}

func TestReversingABuyInOrPayment(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	ann, bob := s.id("Ann"), s.id("Bob")
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
		body: map[string]any{"player": ann, "amount": 50}}, nil)
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
		body: map[string]any{"player": ann, "amount": 500}}, nil)
	s.correct(fmt.Sprintf("/ledger/%d/reverse", s.ledgerEvent("deposit")), "500 typed for 50", nil)
	s.expectMoney(0, map[string]int64{"Ann": 50, "Bob": 0, "Cy": 0})

	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host,
		body: map[string]any{"from": bob, "to": ann, "amount": 7}}, nil)
	pay := s.ledgerEvent("settlement")
	s.correct(fmt.Sprintf("/ledger/%d/reverse", pay), "marked by mistake", nil)
	s.expectMoney(0, map[string]int64{"Ann": 50, "Bob": 0, "Cy": 0})

	dee := s.join("Dee")
	before := s.snapshot()
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", pay), token: s.tb.Host}, http.StatusConflict,
		"/problems/conflict", "reversed already")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", s.ledgerEvent("reversal")), token: s.tb.Host},
		http.StatusConflict, "/problems/conflict", "not a buy-in, cash-out or payment")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/9999/reverse"), token: s.tb.Host}, http.StatusNotFound,
		"/problems/not-found", "event 9999")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/0/reverse"), token: s.tb.Host, invalid: true}, http.StatusNotFound, "/problems/not-found")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", pay), token: dee}, http.StatusForbidden,
		"/problems/forbidden", "host")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", pay), token: s.tb.Host,
		body: map[string]any{"reason": strings.Repeat("x", 501)}, invalid: true}, http.StatusUnprocessableEntity, "/problems/invalid-request", "the limit is 500")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", pay), token: s.tb.Host,
		body: map[string]any{"why": "typo"}, invalid: true}, http.StatusBadRequest, "/problems/malformed-request", "why")
	s.unchanged(before, "refused reversals")

	s.start(nil)
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", s.ledgerEvent("ante")), token: s.tb.Host},
		http.StatusConflict, "/problems/conflict", "reverse the round")
	s.auditOK()
}

func TestACorrectionIsAppliedOncePerKey(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	ann := s.id("Ann")
	s.start(nil)
	s.act(s.tb.Host, 1, as(ann, roll(6, 5, 4, 3, 3)))
	s.act(s.tb.Host, 1, as(ann, roll(1, 1)))
	r := req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Host, key: "take-back-1"}
	first := s.c.do(t, r)
	again := s.c.do(t, r)
	if first.status != http.StatusCreated || again.status != http.StatusCreated || string(first.body) != string(again.body) {
		t.Fatalf("a retried take-back: %d %s, then %d %s", first.status, first.body, again.status, again.body)
	}
	if got := s.round(s.tb.Audit, 1); len(got.Turns[0].Outcome.Rolls) != 1 {
		t.Fatalf("a retry took back a second action: %+v", got.Turns[0].Outcome.Rolls)
	}
	s.auditOK()
}

// TestReopeningATiedRound: a round that tied (the pot carried, a
// settlement that moved nothing) is opened again by taking back its last
// stand, and settles with a winner; the audit counts the settlement it
// ended with.
func TestReopeningATiedRound(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 2, "closedRolls": false},
		"players": []string{"Ann", "Bob", "Cy"}})
	cy := s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	rd := s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	expectResult(t, rd, "tie", nil, 6, 6)
	s.auditOK()
	s.correct("/rounds/1/take-back", "Cy throws again", &rd)
	s.act(s.tb.Host, 1, as(cy, roll(5, 5)))
	rd = s.act(s.tb.Host, 1, map[string]any{"player": cy, "kind": "stand"})
	expectResult(t, rd, "win", []int64{cy}, 6, 0)
	s.expectMoney(0, map[string]int64{"Ann": -2, "Bob": -2, "Cy": 4})
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("audit: %+v", rep)
	}
}
