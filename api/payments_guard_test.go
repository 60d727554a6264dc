package api

import (
	"context"
	"net/http"
	"testing"
)

// TestAFreedSeatForgetsItsHandles: someone who joined as Ann, who was not
// theirs to be, says Ann's money goes to their own bank account. The host
// frees the seat; the real Ann joins. Bob's settle-up must not send Ann's
// money to the account the impostor gave: freeing a seat removes its
// handles.
func TestAFreedSeatForgetsItsHandles(t *testing.T) {
	t.Parallel()
	s, impostor, bob := paymentScene(t)
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/handles/sepa"), token: impostor,
		body: map[string]any{"handle": "DE89 3704 0044 0532 0130 00", "name": "Mallory"}}, nil)
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/release", s.id("Ann")), token: s.tb.Host}, nil)
	ann := s.join("Ann")
	for _, tok := range []string{ann, bob} {
		var list []struct{ Player int64 }
		s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/handles"), token: tok}, &list)
		if len(list) != 0 {
			t.Fatalf("after the seat was freed, the table still lists handles: %+v", list)
		}
	}
	var n int
	if err := s.pool.QueryRow(context.Background(), "SELECT count(*) FROM payment_handles WHERE table_id = $1", s.tb.ID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the freed seat's handles left %d rows (%v)", n, err)
	}
}

// TestOddTextInPaymentsIsRefused: a handle's name and a refusal's reason
// are text like any other the table keeps: a NUL (which PostgreSQL cannot
// store, and which came back as a 500), an escape or a character that
// reorders text is refused naming the field, and nothing changes.
func TestOddTextInPaymentsIsRefused(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	for _, name := range []string{"Ann\x00X", "Ann\x1b[31m", "\u202eAnn"} {
		s.refused(req{method: http.MethodPut, path: s.tb.path("/handles/sepa"), token: ann,
			body: map[string]any{"handle": "DE89370400440532013000", "name": name}},
			http.StatusUnprocessableEntity, "/problems/invalid-request", "name holds the control character")
	}
	var c apiClaim
	s.must(http.StatusCreated, claim(s, bob, s.id("Ann"), 3), &c)
	for _, reason := range []string{"not\x00here", "\u202enot here"} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("/claims/%d/refuse", c.ID), token: ann, body: map[string]any{"reason": reason}},
			http.StatusUnprocessableEntity, "/problems/invalid-request", "reason holds the control character")
	}
	var plan apiSettle
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: ann}, &plan)
	if len(plan.Claims) != 1 || plan.Claims[0].Status != "sent" {
		t.Fatalf("after odd refusals the claims are %+v", plan.Claims)
	}
	var list []struct{ Player int64 }
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/handles"), token: ann}, &list)
	if len(list) != 0 {
		t.Fatalf("an odd name was stored: %+v", list)
	}
}
