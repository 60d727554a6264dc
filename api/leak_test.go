package api

import (
	"fmt"
	"net/http"
	"testing"
)

// These tests hold tables that are the same in everything but the dice one
// player threw under the cup, and ask each of them the same questions with
// every token but that player's own: the host's, the auditor's and the other
// players'. Whatever the table answers, reads and refusals alike, must be
// the same byte for byte once what differs from table to table anyway (the
// join code, the clock, the hashes made of them) is set aside; otherwise
// the answer tells the asker something about the dice under the cup.

// TestSealedCargoLeaksToNoOtherToken plays a bar round at a no-overdraft
// per-point table three times, Bob's closed re-roll showing 3-2, 6-6 (an
// automatic he could claim) or 5-5. Until the round ends, nobody but Bob
// may tell the tables apart: not by any read, not by the host's view (which
// flagged the claimable 6-6), not by refusing the same bad throws for Bob
// (whose words named the cargo, and whose rule depended on it), and not by
// the refusal of the round's end for money a loser does not have (which
// named the amount, made of the sealed score). It is played with a host who
// does not play, and with the host playing Cy.
func TestSealedCargoLeaksToNoOtherToken(t *testing.T) {
	t.Parallel()
	bothWays(t, "Cy", sealedCargoLeaksToNoOtherToken)
}

func sealedCargoLeaksToNoOtherToken(t *testing.T, host string) {
	sealed := [][]int{{3, 2}, {6, 6}, {5, 5}}
	tw := newTwins(t, len(sealed), withHost(map[string]any{"preset": "bar", "noOverdraft": true, "players": []string{"Ann", "Bob", "Cy"},
		"options": map[string]any{"ante": 2, "payoff": "per-point", "stake": 1}}, host), "Ann", "Bob", "Cy")
	tw.askers = append(tw.askers, "Ann", "Cy")
	first := tw.tables[0]
	ann, bob, cy := first.id("Ann"), first.id("Bob"), first.id("Cy")
	// Everyone buys in for exactly the ante, so any per-point payment
	// overdraws its payer.
	for _, p := range []int64{ann, bob, cy} {
		tw.ask("buy-in", "host", http.MethodPost, "/deposits", map[string]any{"player": p, "amount": 2})
	}
	tw.ask("start", "host", http.MethodPost, "/rounds", nil)
	tw.ask("Ann's first roll", "Ann", http.MethodPost, "/rounds/1/actions", roll(6, 5, 4, 3, 3))
	tw.ask("Ann stands", "Ann", http.MethodPost, "/rounds/1/actions", map[string]any{"kind": "stand"})
	tw.ask("Bob's open roll", "Bob", http.MethodPost, "/rounds/1/actions", roll(6, 5, 4, 1, 2))
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.act(tok["Bob"], 1, roll(sealed[i]...))
	})
	tw.readsAlike("Bob's cargo under the cup")

	// The same bad throws and calls for Bob, sent by the host, are refused
	// alike: naming the cargo picked up (the faces of one table's cargo,
	// of another's, of none), too few or too many dice, a bad face or path.
	actions := "/rounds/1/actions"
	for _, tc := range []struct {
		body   map[string]any
		status int
		rule   string
	}{
		{reroll(bob, []int{1, 1}, []int{3, 2}), 422, "cargo-sealed"},
		{reroll(bob, []int{1, 1}, []int{6, 6}), 422, "cargo-sealed"},
		{reroll(bob, []int{1, 1}, []int{4, 4}), 422, "cargo-sealed"},
		{reroll(bob, []int{1}, []int{6}), 422, "reroll-policy"},
		{reroll(bob, []int{1}, []int{2}), 422, "reroll-policy"},
		{reroll(bob, []int{1, 1, 1}, []int{5, 5, 5}), 422, "reroll-policy"},
		{reroll(bob, []int{1, 1, 1}, nil), 422, "dice-count"},
		{reroll(bob, []int{1}, nil), 422, "dice-count"},
		{reroll(bob, []int{7, 1}, nil), 422, "face"},
		{as(bob, map[string]any{"kind": "roll", "dice": []int{1, 1}, "path": "1-2-3"}), 422, "bad-path"},
		{as(bob, map[string]any{"kind": "lift-cups"}), 422, ""},
		{as(cy, map[string]any{"kind": "stand"}), 409, ""},
		{as(cy, roll(6, 5, 4, 3, 3)), 409, ""},
	} {
		tw.refusedAlike(fmt.Sprintf("%v for Bob", tc.body), "host", actions, tc.body, tc.status, tc.rule)
	}
	tw.refusedAlike("Ann throws out of turn", "Ann", actions, roll(6, 6), 409, "")
	tw.refusedAlike("Ann throws for Bob", "Ann", actions, as(bob, roll(1, 1)), 403, "")
	tw.refusedAlike("the auditor throws", "audit", actions, as(bob, roll(1, 1)), 403, "")
	tw.refusedAlike("a whole turn for Bob", "host", "/rounds/1/turns",
		map[string]any{"player": bob, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 1}}}}, 422, "")
	// A claim for Bob is refused alike at every table, the 6-6 one too:
	// only Bob's phone saw his dice, so only it may claim (the engine's
	// answer would be the lifting of the cup).
	tw.refusedAlike("a claim for Bob", "host", actions, as(bob, map[string]any{"kind": "claim-automatic"}), http.StatusForbidden, "")
	tw.refusedAlike("Cy claims for Bob", "Cy", actions, as(bob, map[string]any{"kind": "claim-automatic"}), http.StatusForbidden, "")
	tw.readsAlike("after the refusals")

	// The host records Bob's stand: the answer is the host's view, alike
	// at every table, though at one of them Bob may still claim.
	tw.streamAlike("Bob stands", "host", func() {
		tw.ask("Bob stands", "host", http.MethodPost, actions, as(bob, map[string]any{"kind": "stand"}))
	})
	tw.readsAlike("Bob stood")
	tw.ask("Cy's first roll", "host", http.MethodPost, actions, as(cy, roll(6, 5, 4, 5, 6)))
	tw.readsAlike("Cy threw")

	// Cy's stand would end the round, but its per-point payments overdraw
	// whoever lost (Ann owes 5 at two tables, 6 at the third): refused
	// alike, since the amounts are made of Bob's sealed score.
	tw.refusedAlike("the round's end, unpaid", "host", actions, as(cy, map[string]any{"kind": "stand"}), 422, "")
	tw.refusedAlike("Cy's own stand, unpaid", "Cy", actions, map[string]any{"kind": "stand"}, 422, "")
	tw.readsAlike("the round's end refused")

	// With buy-ins the round ends, every cup is lifted, and the books and
	// the audit agree at every table.
	for _, p := range []int64{ann, bob, cy} {
		tw.ask("buy-in", "host", http.MethodPost, "/deposits", map[string]any{"player": p, "amount": 12})
	}
	tw.each(func(i int, s *scene, tok map[string]string) {
		rd := s.act(s.tb.Host, 1, as(cy, map[string]any{"kind": "stand"}))
		if rd.Status != "settled" {
			t.Fatalf("table %d: round 1 did not end: %+v", i, rd)
		}
		openTo(t, s.round(tok["Ann"], 1), bob, sealed[i], "Ann after the round")
		s.auditOK()
	})
}

// TestSealedCargoRefusalsAreAlike is the "any" cargo rule with closed
// rolls: a player may keep some cargo dice and re-roll the others, so a
// re-roll names the dice picked up, and whether they are in the cargo
// depends on the dice under the cup. Only the player's own phone may name
// them; for everyone else the re-roll of the whole cargo is the same at
// every table. It is played with a host who does not play, and with the
// host playing Bob.
func TestSealedCargoRefusalsAreAlike(t *testing.T) {
	t.Parallel()
	bothWays(t, "Bob", sealedCargoRefusalsAreAlike)
}

func sealedCargoRefusalsAreAlike(t *testing.T, host string) {
	sealed := [][]int{{6, 3}, {6, 6}, {2, 2}}
	tw := newTwins(t, len(sealed), withHost(map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"},
		"options": map[string]any{"closedRolls": true, "automatic": true}}, host), "Ann", "Bob")
	tw.askers = append(tw.askers, "Bob")
	ann := tw.tables[0].id("Ann")
	tw.ask("start", "host", http.MethodPost, "/rounds", nil)
	tw.ask("Ann's open roll", "Ann", http.MethodPost, "/rounds/1/actions", roll(6, 5, 4, 1, 2))
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.act(tok["Ann"], 1, roll(sealed[i]...))
	})
	tw.readsAlike("Ann's cargo under the cup")
	actions := "/rounds/1/actions"
	for _, tc := range []struct {
		dice, rethrow []int
		rule          string
	}{
		{[]int{1}, []int{6}, "cargo-sealed"}, {[]int{1}, []int{3}, "cargo-sealed"}, {[]int{1}, []int{2}, "cargo-sealed"},
		{[]int{1}, []int{5}, "cargo-sealed"}, {[]int{1, 1}, []int{6, 6}, "cargo-sealed"}, {[]int{1, 1}, []int{6, 3}, "cargo-sealed"},
		{[]int{1, 1}, []int{2, 2}, "cargo-sealed"}, {[]int{1, 1, 1}, []int{6, 3, 2}, "rethrow-not-cargo"},
		{[]int{1}, []int{6, 6}, "dice-count"}, {[]int{1}, []int{0}, "rethrow-not-cargo"}, {[]int{7}, []int{6}, "face"},
	} {
		tw.refusedAlike(fmt.Sprintf("a re-roll of %v for Ann", tc.rethrow), "host", actions, reroll(ann, tc.dice, tc.rethrow), 422, tc.rule)
	}
	tw.refusedAlike("a claim for Ann", "host", actions, as(ann, map[string]any{"kind": "claim-automatic"}), http.StatusForbidden, "")
	tw.readsAlike("after the refusals")
	// The whole cargo, re-rolled for Ann by the host, is recorded alike.
	tw.streamAlike("Ann's last roll", "host", func() {
		tw.ask("the whole cargo for Ann", "host", http.MethodPost, actions, as(ann, roll(4, 4)))
	})
	tw.readsAlike("Ann's turn is over")
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.turn(1, "Bob", []int{6, 5, 4, 2, 1})
		s.auditOK()
	})
}

// TestAClosedRollTheHostRecordedLeaksToNoOtherToken: Bob has no phone, and
// the host's phone records his cargo re-roll under the cup as 3-2, 6-6 or
// 5-5 at three tables. The host's phone typed the dice and may claim the
// 6-6 for him; nobody else may tell the tables apart, nor claim for him,
// with a host who does not play and with a host playing Ann.
func TestAClosedRollTheHostRecordedLeaksToNoOtherToken(t *testing.T) {
	t.Parallel()
	bothWays(t, "Ann", closedRollTheHostRecordedLeaksToNoOtherToken)
}

func closedRollTheHostRecordedLeaksToNoOtherToken(t *testing.T, host string) {
	sealed := [][]int{{3, 2}, {6, 6}, {5, 5}}
	tw := newTwins(t, len(sealed), withHost(map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}}, host), "Ann", "Cy")
	tw.askers = []string{"audit", "Cy"}
	if host == "" {
		tw.askers = append(tw.askers, "Ann")
	}
	first := tw.tables[0]
	bob := first.id("Bob")
	actions := "/rounds/1/actions"
	tw.ask("start", "host", http.MethodPost, "/rounds", nil)
	tw.ask("Ann's turn", "Ann", http.MethodPost, "/rounds/1/turns", map[string]any{"player": first.id("Ann"),
		"rolls": []any{map[string]any{"dice": []int{6, 5, 4, 2, 2}}}})
	var open fullRound
	tw.ask("Bob's open roll", "host", http.MethodPost, actions, as(bob, roll(6, 5, 4, 1, 2))).decode(t, &open)
	tw.each(func(i int, s *scene, tok map[string]string) {
		rd := s.act(s.tb.Host, 1, as(bob, roll(sealed[i]...)))
		if got := rd.Claimable == bob; got != (i == 1) {
			t.Fatalf("table %d: the host that typed %v is told Bob may claim: %v", i, sealed[i], got)
		}
	})
	tw.readsAlike("Bob's cargo under the cup, typed by the host")
	for _, who := range []string{"Cy", "audit"} {
		tw.refusedAlike("a claim for Bob", who, actions, as(bob, map[string]any{"kind": "claim-automatic"}), http.StatusForbidden, "")
	}
	// A write entered before the closed throw is refused alike at every
	// table, the host's own included: the host's phone recorded a throw
	// under the cup for Bob, never which.
	const detail = "The host's phone already recorded a throw under the cup for Bob"
	for _, tc := range []struct {
		what, who string
		body      map[string]any
	}{
		{"a claim for Bob", "host", seen(open.Actions, as(bob, map[string]any{"kind": "claim-automatic"}))},
		{"a stand for Bob", "host", seen(open.Actions, as(bob, map[string]any{"kind": "stand"}))},
		{"Cy's throw", "Cy", seen(open.Actions, roll(6, 5, 4, 3, 3))},
	} {
		r := tw.ask(tc.what, tc.who, http.MethodPost, actions, tc.body)
		if p := r.problem(t); r.status != http.StatusConflict || p.Type != recordedSince || p.Detail != detail {
			t.Errorf("%s (as %s): %d %s, want 409 %s saying %q", tc.what, tc.who, r.status, r.body, recordedSince, detail)
		}
	}
	tw.readsAlike("after the refusals")
	// The host's answer differs: at the 6-6 table it may still claim.
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.act(s.tb.Host, 1, as(bob, map[string]any{"kind": "stand"}))
	})
	tw.readsAlike("Bob stood")
	tw.streamAlike("Cy throws", "Cy", func() {
		tw.ask("Cy's first roll", "Cy", http.MethodPost, actions, roll(6, 5, 4, 5, 6))
	})
	tw.each(func(i int, s *scene, tok map[string]string) {
		rd := s.act(tok["Cy"], 1, map[string]any{"kind": "stand"})
		if rd.Status != "settled" || rd.Result.Automatic {
			t.Fatalf("table %d: the round after Bob's unclaimed cup: %+v", i, rd)
		}
		openTo(t, s.round(tok["Cy"], 1), bob, sealed[i], "Cy after the round")
		s.auditOK()
	})
}
