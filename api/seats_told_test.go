package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFreedSeatIsToldWhy: the phone whose seat the host freed is told so,
// in words naming the seat, on reads, writes and its live stream; a token
// the table never had is only unknown; the phone joins again with the code.
func TestFreedSeatIsToldWhy(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	bob := s.join("Bob")
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/release", s.id("Bob")), token: s.tb.Host}, nil)
	for _, q := range []req{
		{method: http.MethodGet, path: s.tb.path(""), token: bob},
		{method: http.MethodGet, path: s.tb.path("/events"), token: bob},
		{method: http.MethodGet, path: s.tb.path("/stream"), token: bob},
		{method: http.MethodPost, path: s.tb.path("/payments"), token: bob, body: map[string]any{"from": s.id("Ann"), "to": s.id("Bob"), "amount": 1}},
	} {
		s.refused(q, http.StatusUnauthorized, "/problems/seat-freed", "the host freed the seat this phone held (Bob's)", "join again with the table's code")
	}
	s.refused(req{method: http.MethodGet, path: s.tb.path(""), token: bob[:len(bob)-4] + "AAAA"},
		http.StatusUnauthorized, "/problems/unauthorized", "not known here")

	// Back with the code, as a new name (or the freed seat): a new token.
	again := s.join("Bobby")
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: again}, nil)
	s.refused(req{method: http.MethodGet, path: s.tb.path(""), token: bob}, http.StatusUnauthorized, "/problems/seat-freed")
	bobAgain := s.join("Bob")
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: bobAgain}, nil)

	// What a retired token was is history: the role the service runs as
	// cannot change or remove it.
	for _, q := range []string{`DELETE FROM retired_tokens WHERE table_id = $1`,
		`UPDATE retired_tokens SET reason = 'host-moved', player_id = NULL WHERE table_id = $1`} {
		if _, err := s.pool.Exec(context.Background(), q, s.tb.ID); err == nil {
			t.Fatalf("the runtime role ran %s", q)
		}
	}
}

// TestJoinsAndHandRecordedMoneyAreInTheLog: a phone joining with the code
// is on the audit chain, and the table view says when each seat was
// claimed; money recorded by hand names who recorded it (the host, or the
// player paid); ?kind= lists only those families of events.
func TestJoinsAndHandRecordedMoneyAreInTheLog(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	before := time.Now().Add(-time.Minute)
	ann := s.join("Ann")
	dan := s.join("Dan")
	var tb struct {
		Players []struct {
			Name      string     `json:"name"`
			ClaimedAt *time.Time `json:"claimedAt"`
		} `json:"players"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, &tb)
	claimed := map[string]bool{}
	for _, p := range tb.Players {
		claimed[p.Name] = p.ClaimedAt != nil && p.ClaimedAt.After(before)
	}
	if !claimed["Ann"] || !claimed["Dan"] || claimed["Bob"] {
		t.Fatalf("claimedAt by player: %v; want Ann and Dan (who joined with the code), not Bob", claimed)
	}

	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
		body: map[string]any{"player": s.id("Bob"), "amount": 5}}, nil)
	s.refused(req{method: http.MethodPost, path: s.tb.path("/payments"), token: ann,
		body: map[string]any{"from": s.id("Ann"), "to": s.id("Bob"), "amount": 2}}, http.StatusForbidden, "/problems/forbidden", "the player who received it")
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: ann,
		body: map[string]any{"from": s.id("Bob"), "to": s.id("Ann"), "amount": 2}}, nil)
	var ledger struct {
		Transactions []struct {
			Kind     string         `json:"kind"`
			Metadata map[string]any `json:"metadata"`
		} `json:"transactions"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/ledger"), token: dan}, &ledger)
	got := []string{}
	for _, tx := range ledger.Transactions {
		got = append(got, tx.Kind+" by "+toString(tx.Metadata["recordedBy"]))
	}
	want := "deposit by host,settlement by player:" + strconv.FormatInt(s.id("Ann"), 10)
	if strings.Join(got, ",") != want {
		t.Fatalf("the ledger says %v, want %s", got, want)
	}

	var page struct {
		Events []struct {
			Kind    string         `json:"kind"`
			Payload map[string]any `json:"payload"`
		} `json:"events"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?kind=player&kind=ledger"), token: dan}, &page)
	kinds := []string{}
	for _, e := range page.Events {
		kinds = append(kinds, e.Kind)
	}
	wantKinds := "player.seated,player.seated,player.joined,player.seated,player.joined,ledger.deposit,ledger.settlement"
	if strings.Join(kinds, ",") != wantKinds {
		t.Fatalf("?kind=player&kind=ledger listed %v, want %s", kinds, wantKinds)
	}
	if page.Events[4].Payload["name"] != "Dan" {
		t.Fatalf("the last join names %v, want Dan", page.Events[4].Payload)
	}
	for _, bad := range []string{"Player", "player.joined", strings.Repeat("k", 17)} {
		s.refused(req{method: http.MethodGet, path: s.tb.path("/events?kind=%s", bad), token: dan, invalid: true},
			http.StatusBadRequest, "/problems/malformed-request", "family of events")
	}
	s.auditOK()
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}
