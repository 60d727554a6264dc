package api

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

// The tamper battery: history is changed behind the API's back, as the
// database's superuser with every trigger off (session_replication_role),
// the way someone with the database but not the server's secret would.
// Each change must be reported by the audit, naming what broke; and the
// role Tally serves as can make none of them.

// round1 is round 1's row id, for statements about its actions and turns.
const round1 = `(SELECT id FROM rounds WHERE table_id = $1 AND number = 1)`

// tamperCase is one change to the stored history and what the audit must
// say about it.
type tamperCase struct {
	name string
	sql  []string
	// rewrite, instead of sql, rewrites the events in Go and stores them
	// hashed again (as superuser), as someone without the key would.
	rewrite func(events []chain.Event) []chain.Event
	// want is in the audit's problems (or firstBreak, or a round's detail).
	want string
}

var tamperCases = []tamperCase{
	{name: "the last events removed, the head moved back to match", sql: []string{
		`DELETE FROM events WHERE table_id = $1 AND seq > (SELECT event_seq - 2 FROM tables WHERE id = $1)`,
		`UPDATE tables t SET event_seq = e.seq, event_hash = e.hash FROM events e
		 WHERE t.id = $1 AND e.table_id = $1 AND e.seq = t.event_seq - 2`,
	}, want: "does not carry this server's seal"},
	{name: "the last events removed", sql: []string{
		`DELETE FROM events WHERE table_id = $1 AND seq > (SELECT event_seq - 2 FROM tables WHERE id = $1)`,
	}, want: "the log ends at event"},
	{name: "every event removed, the head reset", sql: []string{
		`DELETE FROM events WHERE table_id = $1`,
		`UPDATE tables SET event_seq = 0, event_hash = '\x0000000000000000000000000000000000000000000000000000000000000000' WHERE id = $1`,
	}, want: "the table's head (event 0) does not carry this server's seal"},
	{name: "an event in the middle removed", sql: []string{
		`DELETE FROM events WHERE table_id = $1 AND seq = 4`,
	}, want: "event 5: sequence gap"},
	{name: "two events reordered", sql: []string{
		`UPDATE events SET seq = seq + 1000 WHERE table_id = $1 AND seq IN (4, 5)`,
		`UPDATE events SET seq = CASE WHEN seq = 1004 THEN 5 ELSE 4 END WHERE table_id = $1 AND seq IN (1004, 1005)`,
	}, want: "event 4: prev_hash"},
	{name: "an event's payload edited", sql: []string{
		`UPDATE events SET payload = jsonb_set(payload, '{name}', '"Eve"') WHERE table_id = $1 AND seq = 2`,
	}, want: "event 2: stored hash"},
	{name: "an event's payload edited and the chain hashed again", rewrite: func(events []chain.Event) []chain.Event {
		events[1].Payload = []byte(strings.Replace(string(events[1].Payload), `"Ann"`, `"Eve"`, 1))
		return events
	}, want: "event 2's seal does not match"},
	{name: "a payout posting edited with its balances", sql: []string{
		`UPDATE postings SET amount = amount + 1 WHERE table_id = $1 AND amount > 0
		   AND transaction_id = (SELECT id FROM journal_transactions WHERE table_id = $1 AND kind = 'round_settle')`,
		`UPDATE postings SET amount = amount - 1 WHERE table_id = $1 AND amount < 0
		   AND transaction_id = (SELECT id FROM journal_transactions WHERE table_id = $1 AND kind = 'round_settle')`,
		`UPDATE accounts a SET balance = (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.table_id = $1 AND p.account_id = a.id)
		 WHERE a.table_id = $1`,
	}, want: "differs from event"},
	{name: "100 moved from one player's balance to another's", sql: []string{
		`UPDATE accounts SET balance = balance + CASE WHEN player_id = (SELECT min(id) FROM players WHERE table_id = $1) THEN 100 ELSE -100 END
		 WHERE table_id = $1 AND kind = 'player'`,
	}, want: "but its postings sum to"},
	{name: "a round action's dice changed", sql: []string{
		`UPDATE round_actions SET dice = '{6,5,4,1,1}' WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 1`,
	}, want: "recorded turn differs from the replayed rolls"},
	{name: "a round action made impossible", sql: []string{
		`UPDATE round_actions SET dice = '{6,5,4,9,1}' WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 1`,
	}, want: "round 1 does not replay"},
	{name: "who recorded a round action changed", sql: []string{
		`UPDATE round_actions SET by_host = NOT by_host WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 1`,
	}, want: "differs from event"},
	{name: "who recorded a round action forgotten", sql: []string{
		`UPDATE round_actions SET by_host = NULL WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 1`,
	}, want: "differs from event"},
	{name: "a round's setup changed", sql: []string{
		`UPDATE rounds SET carried_pot = 7 WHERE table_id = $1 AND number = 1`,
	}, want: "stored setup"},
	{name: "a recorded turn changed", sql: []string{
		`UPDATE turns SET score = 12 WHERE table_id = $1 AND round_id = ` + round1 + ` AND seq = 2`,
	}, want: "recorded turn differs"},
}

// playedScene is a table with one round played and audited (so the audit
// has a checkpoint the tampering must not hide behind).
func playedScene(t *testing.T) *scene {
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob"}})
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	s.auditOK()
	return s
}

func TestAuditCatchesTampering(t *testing.T) {
	t.Parallel()
	for _, tc := range tamperCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := playedScene(t)
			if tc.rewrite != nil {
				rehash(t, s, tc.rewrite)
			} else {
				tamper(t, s, tc.sql)
			}
			rep := s.audit()
			if rep.OK {
				t.Fatalf("the audit missed it: %+v", rep)
			}
			if !reportSays(rep, tc.want) {
				t.Fatalf("the audit does not say %q: %+v", tc.want, rep)
			}
		})
	}
}

// reportSays reports whether the audit says want somewhere.
func reportSays(rep auditReport, want string) bool {
	said := append([]string{rep.FirstBreak}, rep.Problems...)
	for _, r := range rep.Rounds {
		said = append(said, r.Detail)
	}
	return strings.Contains(strings.Join(said, "\n"), want)
}

// TestTheRuntimeRoleCannotTamper makes every change of the battery as the
// role Tally serves as: each is refused for want of privilege, and so are
// switching the triggers off and adding one.
func TestTheRuntimeRoleCannotTamper(t *testing.T) {
	t.Parallel()
	s := playedScene(t)
	ctx := context.Background()
	extra := []string{
		`ALTER TABLE postings DISABLE TRIGGER USER`,
		`ALTER TABLE events DISABLE TRIGGER events_append_only`,
		`SET session_replication_role = replica`,
		`CREATE FUNCTION sneak() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN UPDATE accounts SET balance = 0; RETURN NULL; END $f$`,
		`CREATE TRIGGER sneak AFTER INSERT ON players FOR EACH STATEMENT EXECUTE FUNCTION tally_guard_posting('TL001', 'x')`,
		`TRUNCATE events`,
		`UPDATE events SET seal = NULL WHERE table_id = $1`,
		`DELETE FROM turns WHERE table_id = $1`,
		`DELETE FROM round_actions WHERE table_id = $1`,
		`UPDATE journal_transactions SET memo = 'x' WHERE table_id = $1`,
		`SELECT tally_seal_events($1, ARRAY[1]::bigint[], ARRAY['\x00']::bytea[])`,
	}
	// The runtime role moves the chain's head in the table row with every
	// write, so it may set it back too: that the head's seal then fails
	// is the battery's first two cases. Everything else is refused.
	var stmts []string
	for _, tc := range tamperCases {
		for _, q := range tc.sql {
			if !strings.HasPrefix(q, "UPDATE tables") {
				stmts = append(stmts, q)
			}
		}
	}
	for _, q := range append(stmts, extra...) {
		if strings.HasPrefix(q, "SELECT tally_seal_events") {
			// Allowed, but it seals only events with no seal yet: none here.
			continue
		}
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, s.tb.ID)
		}
		_, err := s.pool.Exec(ctx, q, args...)
		if db.SentinelFor(err) != db.ErrForbidden && !errors.Is(db.SentinelFor(err), db.ErrForbidden) {
			t.Errorf("as the runtime role: %s\n  err = %v, want permission denied", q, err)
		}
	}
	s.auditOK()
	// Sealing again changes nothing: every event has its seal already.
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT tally_seal_events($1, ARRAY[1]::bigint[], ARRAY[$2::bytea])`, s.tb.ID,
		make([]byte, 32)).Scan(&n); err != nil || n != 0 {
		t.Fatalf("tally_seal_events over a sealed event: %d changed, err %v", n, err)
	}
	s.auditOK()
}

// TestAWitnessedHeadCatchesACutEvenWithTheKey: someone with the server's
// secret as well as its database cuts the last events and seals the
// shorter log. The audit alone cannot tell; a head a phone witnessed can.
func TestAWitnessedHeadCatchesACutEvenWithTheKey(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	s.start(nil)
	r := s.c.do(t, req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host,
		body: map[string]any{"player": s.id("Ann"), "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 6, 3}}}}})
	if r.status != http.StatusCreated {
		t.Fatalf("turn: %d %s", r.status, r.body)
	}
	head := r.header.Get("Tally-Head")
	seq, hash, ok := strings.Cut(head, ":")
	if !ok || len(hash) != 64 {
		t.Fatalf("the write's Tally-Head is %q, want SEQ:HASH", head)
	}
	var events []struct {
		Seq  int64  `json:"seq"`
		Hash string `json:"hash"`
	}
	var page struct {
		Events *[]struct {
			Seq  int64  `json:"seq"`
			Hash string `json:"hash"`
		} `json:"events"`
	}
	page.Events = &events
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events"), token: s.tb.Audit}, &page)
	if last := events[len(events)-1]; fmt.Sprint(last.Seq) != seq || last.Hash != hash {
		t.Fatalf("Tally-Head %s, but the log ends at %d:%s", head, last.Seq, last.Hash)
	}
	if rep := s.audit("witness=" + head); !rep.OK || !rep.WitnessOK {
		t.Fatalf("an untouched history fails its witness: %+v", rep)
	}
	// The cut, sealed with the server's own key.
	cut := events[len(events)-3]
	cutHash, _ := hex.DecodeString(cut.Hash)
	// The cut takes Ann's turn with it (its actions and its finished turn),
	// so that what is left agrees with itself.
	tamper(t, s, []string{
		`DELETE FROM round_actions WHERE table_id = $1 AND event_seq > ` + fmt.Sprint(cut.Seq),
		`DELETE FROM turns WHERE table_id = $1`,
		`DELETE FROM events WHERE table_id = $1 AND seq > ` + fmt.Sprint(cut.Seq),
		fmt.Sprintf(`UPDATE tables SET event_seq = %d, event_hash = '\x%s', head_seal = '\x%x' WHERE id = $1`,
			cut.Seq, cut.Hash, s.keys.Head(s.tb.ID, cut.Seq, cutHash)),
	})
	if rep := s.audit(); !rep.OK {
		t.Fatalf("the cut was sealed with the key, yet the audit alone caught it: %+v (the test is wrong)", rep)
	}
	rep := s.audit("witness=" + head)
	if rep.OK || rep.WitnessOK || !reportSays(rep, "a phone saw event "+seq+", which this history does not have") {
		t.Fatalf("the witnessed head did not catch the cut: %+v", rep)
	}
	// A witnessed head must be well formed.
	for _, bad := range []string{"12", "0:" + hash, "x:" + hash, "3:abc"} {
		out := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/audit?witness=%s", bad), token: s.tb.Audit})
		if p := out.problem(t); out.status != http.StatusBadRequest || !strings.Contains(p.Detail, "witness") {
			t.Errorf("witness=%s: %d %+v", bad, out.status, p)
		}
	}
}

// tamper runs statements in one transaction as the database's superuser
// with every trigger off, with the table id as $1 where a statement uses
// it.
func tamper(t *testing.T, s *scene, stmts []string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, s.pool.Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	off := []string{`SET LOCAL session_replication_role = replica`}
	if dbtest.Citus() {
		// The triggers fire on the workers' shards: the setting goes
		// there too.
		off = append([]string{`SET LOCAL citus.propagate_set_commands = 'local'`}, off...)
	}
	for _, q := range append(off, stmts...) {
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

// rehash rewrites the table's events with edit and stores them hashed
// again from the first, head included, as the superuser; the seals stay as
// they were (making new ones needs the server's secret).
func rehash(t *testing.T, s *scene, edit func([]chain.Event) []chain.Event) {
	t.Helper()
	events := edit(readEvents(t, s))
	prev := chain.Genesis
	var stmts []string
	for _, e := range events {
		e.PrevHash = prev
		h, err := chain.Hash(e)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, fmt.Sprintf(`UPDATE events SET payload = '%s', prev_hash = '\x%x', hash = '\x%x' WHERE table_id = $1 AND seq = %d`,
			strings.ReplaceAll(string(e.Payload), "'", "''"), prev, h, e.Seq))
		prev = h
	}
	stmts = append(stmts, fmt.Sprintf(`UPDATE tables SET event_hash = '\x%x' WHERE id = $1`, prev))
	tamper(t, s, stmts)
}

// readEvents reads the table's events as the owner, in order.
func readEvents(t *testing.T, s *scene) []chain.Event {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, s.pool.Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT seq, kind, payload, created_at FROM events WHERE table_id = $1 ORDER BY seq`, s.tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (chain.Event, error) {
		e := chain.Event{TableID: s.tb.ID}
		return e, r.Scan(&e.Seq, &e.Kind, &e.Payload, &e.CreatedAt)
	})
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// TestAnAuditOfAnUnchangedTableReadsNothingAgain: the audit after one that
// found everything in order answers from its sealed checkpoint; a write
// since, or full=true, makes the next one check again, replaying only the
// rounds played since.
func TestAnAuditOfAnUnchangedTableReadsNothingAgain(t *testing.T) {
	t.Parallel()
	s := playedScene(t) // one round played and audited
	if rep := s.audit(); !rep.OK || !rep.Unchanged || rep.Replayed != 0 || rep.Events == 0 || len(rep.Rounds) != 1 {
		t.Fatalf("the second audit of an unchanged table: %+v", rep)
	}
	s.start(nil)
	s.turn(2, "Bob", []int{6, 5, 4, 6, 6})
	s.turn(2, "Ann", []int{6, 5, 4, 1, 1})
	if rep := s.audit(); !rep.OK || rep.Unchanged || rep.Replayed != 1 || len(rep.Rounds) != 2 {
		t.Fatalf("the audit after round 2: %+v, want round 2 alone replayed", rep)
	}
	if rep := s.audit("full=true"); !rep.OK || rep.Unchanged || rep.Replayed != 2 {
		t.Fatalf("a full audit: %+v, want both rounds replayed", rep)
	}
	if rep := s.audit(); !rep.OK || !rep.Unchanged {
		t.Fatalf("the audit after a full one: %+v", rep)
	}
	// A checkpoint forged or edited as superuser does not stand.
	tamper(t, s, []string{`UPDATE audit_checkpoints SET report = convert_to('{"ok":true}', 'UTF8') WHERE table_id = $1`})
	if rep := s.audit(); !rep.OK || rep.Unchanged || rep.Replayed != 2 {
		t.Fatalf("the audit after its checkpoint was edited: %+v, want every round replayed from the rows", rep)
	}
}
