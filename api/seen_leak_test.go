package api

import (
	"net/http"
	"testing"
)

// TestRecordedSinceUnderTheCupLeaksNothing plays a bar round three times,
// Bob's closed re-roll, recorded by his own phone, showing 3-2, 6-6 (an
// automatic he could claim) or 5-5. A write entered before it, with any
// token but Bob's, is refused alike at every table: Bob's phone recorded a
// throw under the cup, never which. Bob's own token is told his dice, and
// once the round is over and every cup lifted, so is everyone.
func TestRecordedSinceUnderTheCupLeaksNothing(t *testing.T) {
	t.Parallel()
	sealed := []struct {
		dice []int
		said string
	}{{[]int{3, 2}, "3-2"}, {[]int{6, 6}, "6-6"}, {[]int{5, 5}, "5-5"}}
	tw := newTwins(t, len(sealed), map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}}, "Ann", "Bob", "Cy")
	tw.askers = append(tw.askers, "Ann", "Cy")
	bob, cy := tw.tables[0].id("Bob"), tw.tables[0].id("Cy")
	const actions = "/rounds/1/actions"
	stand := map[string]any{"kind": "stand"}
	tw.ask("start", "host", http.MethodPost, "/rounds", nil)
	tw.ask("Ann's roll", "Ann", http.MethodPost, actions, roll(6, 5, 4, 3, 3))
	tw.ask("Ann stands", "Ann", http.MethodPost, actions, stand)
	rd := tw.ask("Bob's open roll", "Bob", http.MethodPost, actions, roll(6, 5, 4, 1, 2))
	var open fullRound
	rd.decode(t, &open)
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.act(tok["Bob"], 1, roll(sealed[i].dice...))
	})

	// Every write the other phones drew before Bob's closed throw, whatever
	// it would have done (the host's claim for Bob would take the 6-6), is
	// refused alike, naming a throw under the cup.
	const detail = "Bob's phone already recorded a throw under the cup"
	for _, tc := range []struct {
		what, who, path string
		body            map[string]any
	}{
		{"a stand for Bob", "host", actions, seen(open.Actions, as(bob, stand))},
		{"a re-roll for Bob", "host", actions, seen(open.Actions, reroll(bob, []int{1, 1}, nil))},
		{"a claim for Bob", "host", actions, seen(open.Actions, as(bob, map[string]any{"kind": "claim-automatic"}))},
		{"Cy's whole turn", "host", "/rounds/1/turns", seen(open.Actions,
			map[string]any{"player": cy, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}})},
		{"Cy's throw", "Cy", actions, seen(open.Actions, roll(6, 5, 4, 3, 3))},
		{"Ann's stand", "Ann", actions, seen(open.Actions, stand)},
	} {
		r := tw.ask(tc.what, tc.who, http.MethodPost, tc.path, tc.body)
		if p := r.problem(t); r.status != http.StatusConflict || p.Type != recordedSince || p.Detail != detail {
			t.Errorf("%s (as %s): %d %s, want 409 %s saying %q", tc.what, tc.who, r.status, r.body, recordedSince, detail)
		}
	}
	tw.readsAlike("after the refusals")

	// Bob may read his own throw: his phone is told which it was.
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.refused(req{method: http.MethodPost, path: s.tb.path(actions), token: tok["Bob"], body: seen(open.Actions, stand)},
			http.StatusConflict, recordedSince, "Bob's phone already recorded "+sealed[i].said)
	})

	// The round ends; its cups are lifted, and so is the refusal's.
	tw.ask("Bob stands", "host", http.MethodPost, actions, as(bob, stand))
	tw.each(func(i int, s *scene, tok map[string]string) {
		if rd := s.turn(1, "Cy", []int{1, 1, 2, 2, 3}, []int{1, 1, 2, 2, 3}, []int{1, 1, 2, 2, 3}); rd.Status != "settled" {
			t.Fatalf("table %d: round 1 did not end: %+v", i, rd)
		}
		s.refused(req{method: http.MethodPost, path: s.tb.path(actions), token: tok["Cy"], body: seen(open.Actions, stand)},
			http.StatusConflict, recordedSince, "Bob's phone already recorded "+sealed[i].said+", then the host's phone recorded a stand for Bob")
		s.auditOK()
	})
}
