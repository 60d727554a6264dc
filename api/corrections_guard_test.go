package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestTamperedCorrectionsFailTheAudit(t *testing.T) {
	t.Parallel()
	cases := []tamperCase{
		{name: "a reversal's posting edited with its balances", sql: []string{
			`UPDATE postings SET amount = amount + 1 WHERE table_id = $1 AND amount > 0
			   AND transaction_id = (SELECT min(id) FROM journal_transactions WHERE table_id = $1 AND kind = 'reversal')`,
			`UPDATE postings SET amount = amount - 1 WHERE table_id = $1 AND amount < 0
			   AND transaction_id = (SELECT min(id) FROM journal_transactions WHERE table_id = $1 AND kind = 'reversal')`,
			`UPDATE accounts a SET balance = (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.table_id = $1 AND p.account_id = a.id)
			 WHERE a.table_id = $1`,
		}, want: "differs from event"},
		{name: "a reversed round marked settled again", sql: []string{
			`UPDATE rounds SET status = 'settled' WHERE table_id = $1 AND number = 2`,
		}, want: "round 2 does not replay"},
		{name: "a settled round marked reversed", sql: []string{
			`UPDATE rounds SET status = 'void' WHERE table_id = $1 AND number = 1`,
		}, want: "but the log says it was reversed: false"},
		{name: "a taken-back action's correction pointed elsewhere", sql: []string{
			`UPDATE round_actions SET voids = 1 WHERE table_id = $1 AND kind = 'void'`,
		}, want: "round 1 does not replay"},
		{name: "who took back an action changed", sql: []string{
			`UPDATE round_actions SET by_host = NOT by_host WHERE table_id = $1 AND kind = 'void'`,
		}, want: "differs from event"},
		{name: "a correction removed", sql: []string{
			`DELETE FROM round_actions WHERE table_id = $1 AND kind = 'void'`,
		}, want: "records an action the round does not have"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := correctionScene(t, nil)
			ann := s.id("Ann")
			s.start(nil)
			s.act(s.tb.Host, 1, as(ann, roll(6, 5, 4, 3, 3)))
			s.act(s.tb.Host, 1, as(ann, roll(1, 1)))
			s.correct("/rounds/1/take-back", "wrong dice", nil)
			s.act(s.tb.Host, 1, map[string]any{"player": ann, "kind": "stand"})
			s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
			s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
			s.start(nil)
			s.correct("/rounds/2/reverse", "started by accident", nil)
			s.auditOK()
			tamper(t, s, tc.sql)
			rep := s.audit()
			if rep.OK || !reportSays(rep, tc.want) {
				t.Fatalf("the audit does not say %q: %+v", tc.want, rep)
			}
		})
	}
}

// TestCorrectionsTakeTwoRoundTrips: a correction is a write like the
// others: one round trip reads the table with the journal entries it
// corrects, the other sends everything it writes with the COMMIT.
func TestCorrectionsTakeTwoRoundTrips(t *testing.T) {
	m := newMeter(t)
	s := &scene{t: t, c: m.client, pool: m.pool, tb: makeTable(t, m.client, map[string]any{"preset": "classic",
		"options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob"}})}
	corrections := func() {
		n := s.start(nil).Number
		for _, id := range s.round(s.tb.Host, n).Players {
			name := "Ann"
			if id == s.id("Bob") {
				name = "Bob"
			}
			s.turn(n, name, []int{6, 5, 4, 1, 2})
		}
		s.correct(fmt.Sprintf("/rounds/%d/take-back", n), "wrong stand", nil)
		s.correct(fmt.Sprintf("/rounds/%d/take-back", n), "", nil)
		s.correct(fmt.Sprintf("/rounds/%d/reverse", n), "wrong cup", nil)
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
			body: map[string]any{"player": s.id("Ann"), "amount": 20}}, nil)
		s.correct(fmt.Sprintf("/ledger/%d/reverse", s.ledgerEvent("deposit")), "typo", nil)
	}
	corrections() // warm: the connection prepares its statements once
	m.reset()
	corrections()
	seen := 0
	for _, r := range m.taken() {
		if !strings.HasSuffix(r.what, "/take-back") && !strings.HasSuffix(r.what, "/reverse") {
			continue
		}
		seen++
		t.Logf("%s: %d round trips, %d statements", r.what, r.roundTrips, r.statements)
		if r.roundTrips != 2 {
			t.Errorf("%s took %d round trips, want 2", r.what, r.roundTrips)
		}
	}
	if seen != 4 {
		t.Fatalf("measured %d corrections, want 4", seen)
	}
}

// TestATakenBackSealedThrowLeaksToNoOtherToken: Bob's closed cargo re-roll
// differs from table to table, and the host takes it back. Neither the
// correction's answer nor any read after it may tell the tables apart to
// anyone but Bob: the throw taken back stays under the cup.
func TestATakenBackSealedThrowLeaksToNoOtherToken(t *testing.T) {
	t.Parallel()
	sealed := [][]int{{3, 2}, {6, 6}, {5, 5}}
	tw := newTwins(t, len(sealed), map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"},
		"options": map[string]any{"ante": 2}}, "Ann", "Bob", "Cy")
	tw.askers = append(tw.askers, "Ann", "Cy")
	bob := tw.tables[0].id("Bob")
	tw.ask("start", "host", http.MethodPost, "/rounds", nil)
	tw.ask("Ann's turn", "host", http.MethodPost, "/rounds/1/turns", map[string]any{"player": tw.tables[0].id("Ann"),
		"rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}})
	tw.ask("Bob's open roll", "Bob", http.MethodPost, "/rounds/1/actions", roll(6, 5, 4, 1, 2))
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.act(tok["Bob"], 1, roll(sealed[i]...))
	})
	tw.readsAlike("Bob's cargo under the cup")
	tw.streamAlike("the host takes back Bob's closed re-roll", "host", func() {
		tw.ask("the take-back", "host", http.MethodPost, "/rounds/1/take-back", map[string]any{"reason": "he dropped a die"})
	})
	tw.readsAlike("Bob's closed re-roll taken back")
	tw.ask("Bob throws again", "host", http.MethodPost, "/rounds/1/actions", reroll(bob, []int{4, 4}, nil))
	tw.readsAlike("Bob threw again, under the cup")
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.auditOK()
	})
}
