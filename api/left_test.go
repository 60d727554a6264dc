package api

import (
	"net/http"
	"testing"
)

// TestAPlayerWhoLeftReadsAndConfirmsPaymentsOnly: after leaving, a player's
// token still reads the table and confirms money they receive while the
// table settles up, but starts no round and records no play.
func TestAPlayerWhoLeftReadsAndConfirmsPaymentsOnly(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob", "Cy"}})
	cyTok := s.join("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 1})
	s.turn(1, "Cy", []int{6, 5, 4, 2, 1})
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/leave", s.id("Cy")), token: cyTok}, nil)

	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds"), token: cyTok},
		http.StatusForbidden, "/problems/forbidden", "has left the table")
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: cyTok}, nil)
	// Cy paid in cash and is owed nothing; Bob's payment to Ann is Ann's to
	// confirm, not Cy's, left or not.
	s.refused(req{method: http.MethodPost, path: s.tb.path("/payments"), token: cyTok,
		body: map[string]any{"from": s.id("Bob"), "to": s.id("Ann"), "amount": 1}},
		http.StatusForbidden, "/problems/forbidden", "received")
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: cyTok,
		body: map[string]any{"from": s.id("Ann"), "to": s.id("Cy"), "amount": 1}}, nil)
}
