package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestAFinishedTurnSentAgainIsAConflict: a turn sent again under a new
// Idempotency-Key (a second phone, a retry that lost its key) after it was
// recorded is a 409 that says the turn is already recorded, not a rule the
// throws broke, and records nothing. The answer is the same whatever dice
// are sent, so it tells the host nothing of a throw still under the cup.
func TestAFinishedTurnSentAgainIsAConflict(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	bobTok := s.join("Bob")
	s.start(nil)
	annTurn := map[string]any{"player": ann, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "ann-1",
		body: annTurn}, nil)
	s.act(bobTok, 1, roll(6, 5, 4, 1, 2))
	s.act(bobTok, 1, roll(5, 3)) // under the cup
	s.act(bobTok, 1, map[string]any{"kind": "stand"})

	p := s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "ann-2", body: annTurn},
		http.StatusConflict, "/problems/conflict", "already recorded")
	if p.Rule != "" || p.Roll != 0 {
		t.Fatalf("a turn sent again is answered as a broken rule: %+v", p)
	}
	var details []string
	for _, r := range []req{
		// The host guesses at Bob's closed throw, right and wrong.
		{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "guess-right",
			body: map[string]any{"player": bob, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 2}}, map[string]any{"dice": []int{5, 3}}}}},
		{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "guess-wrong",
			body: map[string]any{"player": bob, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 2}}, map[string]any{"dice": []int{6, 6}}}}},
		{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "no-throws",
			body: map[string]any{"player": bob, "rolls": []any{}}},
		{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host, key: "act-right", body: as(bob, roll(5, 3))},
		{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host, key: "act-wrong", body: as(bob, roll(6, 6))},
		// Bob's phone sends his last throw and his stand again.
		{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: bobTok, key: "bob-roll", body: roll(5, 3)},
		{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: bobTok, key: "bob-stand", body: map[string]any{"kind": "stand"}},
	} {
		details = append(details, s.refused(r, http.StatusConflict, "/problems/conflict", "already recorded").Detail)
	}
	for _, d := range details {
		if d != details[0] {
			t.Fatalf("the answers to a finished turn sent again differ with the dice sent: %q and %q", details[0], d)
		}
		for _, word := range []string{"dice", "roll", "throw", "cargo", "score", "point", "5", "6"} {
			if strings.Contains(d, word) {
				t.Fatalf("the answer speaks of the turn's throws (%q): %q", word, d)
			}
		}
	}

	// Once the round is over, a turn of it sent again is a conflict too.
	s.turn(1, "Cy", []int{1, 2, 3, 3, 2}, []int{5, 5, 2, 3, 1}, []int{4, 4, 1, 2, 2})
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "ann-3", body: annTurn},
		http.StatusConflict, "/problems/no-round-in-progress", "already settled")

	// The same turn with its first key is still answered as it was.
	r := s.c.do(t, req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "ann-1", body: annTurn})
	if r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the turn sent again with its first key: %d %s", r.status, r.body)
	}
}
