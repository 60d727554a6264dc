package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestBrokenHistoryIsAClearConflict changes a throw of the round being
// played behind the API's back: the table then answers every request that
// needs the round with 409 history-broken pointing at the audit, never a
// 500, and the audit names the round.
func TestBrokenHistoryIsAClearConflict(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 3})
	tamper(t, s, []string{`UPDATE round_actions SET dice = '{6,5,4,9,1}'
		WHERE table_id = $1 AND seq = 1 AND round_id = (SELECT id FROM rounds WHERE table_id = $1 AND number = 1)`})
	for _, r := range []req{
		{method: http.MethodGet, path: s.tb.path("/rounds/1"), token: s.tb.Host},
		{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host},
		{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host,
			body: map[string]any{"player": s.id("Bob"), "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 1}}}}},
	} {
		out := s.c.do(t, r)
		p := out.problem(t)
		if out.status != http.StatusConflict || p.Type != "/problems/history-broken" || !strings.Contains(p.Detail, "round 1") {
			t.Fatalf("%s %s: %d %+v", r.method, r.path, out.status, p)
		}
	}
	rep := s.audit()
	if rep.OK || len(rep.Rounds) == 0 || !strings.Contains(rep.Rounds[0].Detail, "round 1 does not replay") {
		t.Fatalf("audit %+v", rep)
	}
}
