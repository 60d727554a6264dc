package api

import (
	"context"
	"strings"
	"testing"
)

// TestAuditCatchesTampering changes stored history behind the API's back
// with raw SQL, switching off the append-only triggers where there are
// any, and checks that GET audit reports ok:false and names what broke.
func TestAuditCatchesTampering(t *testing.T) {
	t.Parallel()
	const round1 = `(SELECT id FROM rounds WHERE table_id = $1 AND number = 1)`
	cases := []struct {
		name  string
		sql   []string
		chain string // the start of firstBreak, when the hash chain breaks
		round string // what round 1's detail says, when the round fails
	}{
		{"event payload edited", []string{
			`ALTER TABLE events DISABLE TRIGGER events_append_only`,
			`UPDATE events SET payload = jsonb_set(payload, '{name}', '"Eve"') WHERE table_id = $1 AND seq = 2`,
			`ALTER TABLE events ENABLE TRIGGER events_append_only`,
		}, "event 2", ""},
		{"event removed", []string{
			`ALTER TABLE events DISABLE TRIGGER events_append_only`,
			`DELETE FROM events WHERE table_id = $1 AND seq = 4`,
			`ALTER TABLE events ENABLE TRIGGER events_append_only`,
		}, "event 5", ""},
		{"last events removed", []string{
			`ALTER TABLE events DISABLE TRIGGER events_append_only`,
			`DELETE FROM events WHERE table_id = $1 AND seq > (SELECT max(seq) - 2 FROM events WHERE table_id = $1)`,
			`ALTER TABLE events ENABLE TRIGGER events_append_only`,
		}, "event ", ""},
		{"round action's dice changed", []string{
			`UPDATE round_actions SET dice = '{6,5,4,1,1}' WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 1`,
		}, "", "recorded turn differs from the replayed rolls"},
		{"round action made impossible", []string{
			`UPDATE round_actions SET dice = '{6,5,4,9,1}' WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 1`,
		}, "", "round 1 does not replay"},
		{"round setup changed", []string{
			`UPDATE rounds SET carried_pot = 7 WHERE table_id = $1 AND number = 1`,
		}, "", "stored setup"},
		{"recorded turn changed", []string{
			`UPDATE turns SET score = 12 WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 2`,
		}, "", "recorded turn differs"},
		{"payout posting changed", []string{
			`ALTER TABLE postings DISABLE TRIGGER postings_append_only`,
			`UPDATE postings SET amount = amount + 1 WHERE table_id = $1 AND amount > 0 AND transaction_id IN (SELECT id FROM journal_transactions WHERE table_id = $1 AND kind = 'round_settle')`,
			`ALTER TABLE postings ENABLE TRIGGER postings_append_only`,
		}, "", "the ledger moved 5 for player"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob"}})
			s.start(nil)
			s.turn(1, "Ann", []int{6, 5, 4, 6, 3})
			s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
			s.auditOK()
			tamper(t, s, tc.sql)
			rep := s.audit()
			if rep.OK {
				t.Fatalf("the audit missed it: %+v", rep)
			}
			if tc.chain != "" && (rep.ChainOK || !strings.HasPrefix(rep.FirstBreak, tc.chain)) {
				t.Fatalf("chain ok %v, first break %q, want a break at %s", rep.ChainOK, rep.FirstBreak, tc.chain)
			}
			if tc.round != "" {
				found := false
				for _, r := range rep.Rounds {
					found = found || !r.OK && strings.Contains(r.Detail, tc.round)
				}
				if !found || !rep.ChainOK {
					t.Fatalf("rounds %+v (chain ok %v), want round 1 failing with %q", rep.Rounds, rep.ChainOK, tc.round)
				}
			}
		})
	}
}

// tamper runs statements in one transaction with the table id as $1 where
// a statement uses it.
func tamper(t *testing.T, s *scene, stmts []string) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	for _, q := range stmts {
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, s.tb.ID)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}
