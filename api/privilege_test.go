package api

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// These are the attacks of an independent review of the least-privilege
// work, each now refused or reported: the runtime role forging history
// that a later start would seal, forging an action, the table's rules
// changed behind the audit, a function standing in for one the audit or
// the money function uses, temporary tables shadowing the journal, and an
// account opened with money.

// forge appends a forged money movement as the runtime role, the way the
// review did: through tally_journal_post, with a ledger event hashed onto
// the chain (which needs no key) and the head moved onto it.
func forge(t *testing.T, s *scene, seal []byte) error {
	t.Helper()
	ctx := context.Background()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var seq int64
	var prev []byte
	if err := tx.QueryRow(ctx, `SELECT event_seq, event_hash FROM tables WHERE id = $1 FOR UPDATE`, s.tb.ID).Scan(&seq, &prev); err != nil {
		t.Fatal(err)
	}
	ann, bob := s.id("Ann"), s.id("Bob")
	payload := fmt.Sprintf(`{"postings":[{"account":"player:%d","amount":500},{"account":"player:%d","amount":-500}]}`, ann, bob)
	canon, err := chain.Canonicalize([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	e := chain.Event{TableID: s.tb.ID, Seq: seq + 1, Kind: "ledger.settlement", Payload: canon,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond), PrevHash: prev}
	if e.Hash, err = chain.Hash(e); err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		q    string
		args []any
	}{
		{`SELECT tally_journal_post($1, 'settlement', NULL, '', '{}', $2,
			(SELECT array_agg(id ORDER BY player_id) FROM accounts WHERE table_id = $1 AND kind = 'player'), ARRAY[500, -500]::bigint[])`,
			[]any{s.tb.ID, e.Seq}},
		{`INSERT INTO events (table_id, seq, kind, payload, created_at, prev_hash, hash, seal)
			VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7, $8)`,
			[]any{s.tb.ID, e.Seq, e.Kind, string(canon), e.CreatedAt, e.PrevHash, e.Hash, seal}},
		{`UPDATE tables SET event_seq = $2, event_hash = $3, head_seal = NULL WHERE id = $1`, []any{s.tb.ID, e.Seq, e.Hash}},
	} {
		if _, err := tx.Exec(ctx, st.q, st.args...); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// TestAForgeryTheRuntimeRoleAppendsIsNeverSealed: an event without a seal
// is refused outright; one with a made-up seal goes in, fails the audit,
// and sealing the history again (as a restart once did) seals nothing.
func TestAForgeryTheRuntimeRoleAppendsIsNeverSealed(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	keys := seal.Random()
	svc := table.New(pool, keys, nil)
	c := newClient(t, New(Config{Tables: svc, HeavyLimits: HeavyLimits{Burst: 1000, Every: time.Millisecond}}))
	s := &scene{t: t, c: c, pool: pool, keys: keys, tb: makeTable(t, c, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})}
	s.auditOK()
	if err := forge(t, s, nil); db.SentinelFor(err) != db.ErrAppendOnly || !strings.Contains(err.Error(), "no seal") {
		t.Fatalf("a forged event without a seal: %v, want it refused", err)
	}
	if err := forge(t, s, make([]byte, 32)); err != nil {
		t.Fatalf("a forged event with a made-up seal: %v", err)
	}
	if n, err := svc.SealHistory(context.Background()); err != nil || n != 0 {
		t.Fatalf("sealing again after the forgery sealed %d (err %v), want none", n, err)
	}
	rep := s.audit()
	if rep.OK || rep.SealsOK || !reportSays(rep, "seal does not match") || !reportSays(rep, "does not carry this server's seal") {
		t.Fatalf("the audit after the forgery: %+v", rep)
	}
}

// TestAnActionWithoutItsEventFailsTheAudit: the runtime role inserts a
// throw that was never made, and the round is played on it; the audit
// names the action, full or not.
func TestAnActionWithoutItsEventFailsTheAudit(t *testing.T) {
	t.Parallel()
	s := playedScene(t)
	s.start(nil)
	_, err := s.pool.Exec(context.Background(), `INSERT INTO round_actions (table_id, round_id, seq, player_id, kind, dice, event_seq)
		SELECT $1, r.id, 1, $2, 'roll', '{6,5,4,6,6}', t.event_seq FROM rounds r, tables t
		WHERE r.table_id = $1 AND r.number = 2 AND t.id = $1`, s.tb.ID, s.id("Bob"))
	if err != nil {
		t.Fatal(err)
	}
	s.act(s.tb.Host, 2, map[string]any{"player": s.id("Bob"), "kind": "stand"})
	s.turn(2, "Ann", []int{6, 5, 4, 6, 3})
	for _, q := range []string{"", "full=true"} {
		if rep := s.audit(q); rep.OK || !reportSays(rep, "round 2's action 1") {
			t.Fatalf("audit %s after a forged throw: %+v", q, rep)
		}
	}
}

// TestTheTablesRulesAreTheOnesItWasMadeWith: the ruleset changed as
// superuser, before round 1 or behind a checkpoint, fails the audit.
func TestTheTablesRulesAreTheOnesItWasMadeWith(t *testing.T) {
	t.Parallel()
	raise := []string{`UPDATE tables SET ruleset = jsonb_set(ruleset, '{ante}', '40') WHERE id = $1`}
	before := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob"}})
	tamper(t, before, raise)
	before.start(nil)
	before.turn(1, "Ann", []int{6, 5, 4, 6, 3})
	before.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	behind := playedScene(t)
	tamper(t, behind, raise)
	for name, s := range map[string]*scene{"before round 1": before, "behind a checkpoint": behind} {
		if rep := s.audit(); rep.OK || rep.Unchanged || !reportSays(rep, "differ from those event 1 recorded") {
			t.Errorf("rules raised %s: %+v", name, rep)
		}
	}
}

// TestNoFunctionStandsInForTallys: a superuser's sha256 first on the
// runtime role's search path does not make the audit's digest; the runtime
// role cannot make temporary tables to shadow the journal, create
// functions in the schema (even where PUBLIC was let create there, as
// before PostgreSQL 15), nor open an account with money.
func TestNoFunctionStandsInForTallys(t *testing.T) {
	t.Parallel()
	s := playedScene(t)
	ctx := context.Background()
	var dbname string
	if err := s.pool.QueryRow(ctx, `SELECT current_database()`).Scan(&dbname); err != nil {
		t.Fatal(err)
	}
	tamper(t, s, []string{
		`UPDATE accounts SET balance = balance + CASE WHEN player_id = (SELECT min(id) FROM players WHERE table_id = $1) THEN 100 ELSE -100 END
		 WHERE table_id = $1 AND kind = 'player'`,
		`CREATE SCHEMA evil`,
		`CREATE FUNCTION evil.sha256(bytea) RETURNS bytea LANGUAGE sql STABLE AS $f$ SELECT digest FROM public.audit_checkpoints LIMIT 1 $f$`,
		`GRANT USAGE ON SCHEMA evil TO PUBLIC`,
		`ALTER ROLE tally_test_app IN DATABASE ` + dbname + ` SET search_path = evil, pg_catalog, public`,
		`GRANT CREATE ON SCHEMA public TO PUBLIC`,
	})
	s.pool.Reset()
	if rep := s.audit(); rep.OK || rep.Unchanged || !reportSays(rep, "but its postings sum to") {
		t.Fatalf("balances moved, with sha256 stood in for: %+v", rep)
	}
	for _, q := range []string{
		`CREATE TEMP TABLE postings (table_id bigint, transaction_id bigint, account_id bigint, amount bigint)`,
		`CREATE FUNCTION public.cardinality(a bigint[]) RETURNS int LANGUAGE sql AS $f$ SELECT 0 $f$`,
		`INSERT INTO accounts (table_id, kind, player_id, balance) SELECT $1, 'player', id, 1000 FROM players WHERE table_id = $1 LIMIT 1`,
	} {
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, s.tb.ID)
		}
		if _, err := s.pool.Exec(ctx, q, args...); err == nil && !strings.HasPrefix(q, "CREATE FUNCTION") {
			t.Errorf("the runtime role may: %s", q)
		}
	}
	// Where it could create a function after all, tally_journal_post uses
	// PostgreSQL's own: a transfer still posts, as it should.
	_, err := s.pool.Exec(ctx, `SELECT tally_journal_post($1, 'settlement', NULL, '', '{}', 1,
		(SELECT array_agg(id ORDER BY player_id) FROM accounts WHERE table_id = $1 AND kind = 'player'), ARRAY[1, -1]::bigint[])`, s.tb.ID)
	if err != nil {
		t.Fatalf("tally_journal_post beside a function of the runtime role's: %v", err)
	}
	var journal int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM postings WHERE table_id = $1`, s.tb.ID).Scan(&journal); err != nil || journal == 0 {
		t.Fatalf("postings: %d, %v", journal, err)
	}
}

// amountRe matches a deposit's amounts in an event payload as jsonb prints
// them.
var amountRe = regexp.MustCompile(`"amount": ?(-?)20\b`)

// inflatedScene is a played table with Ann's buy-in of 20 rewritten as 2000
// by a superuser without the key: the event (the chain hashed again), its
// postings and the balances.
func inflatedScene(t *testing.T) *scene {
	t.Helper()
	s := playedScene(t)
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
		body: map[string]any{"player": s.id("Ann"), "amount": 20}}, nil)
	s.auditOK()
	rehash(t, s, func(events []chain.Event) []chain.Event {
		for i, e := range events {
			if e.Kind == "ledger.deposit" {
				events[i].Payload = []byte(amountRe.ReplaceAllString(string(e.Payload), `"amount": ${1}2000`))
			}
		}
		return events
	})
	tamper(t, s, []string{
		`UPDATE postings SET amount = amount * 100 WHERE table_id = $1
		   AND transaction_id = (SELECT id FROM journal_transactions WHERE table_id = $1 AND kind = 'deposit')`,
		`UPDATE accounts a SET balance = (SELECT coalesce(sum(p.amount), 0) FROM postings p WHERE p.table_id = $1 AND p.account_id = a.id)
		 WHERE a.table_id = $1`,
	})
	return s
}

// TestNoReceiptIsSignedForAHistoryThatFailsItsSeals: the server signs only
// what it can vouch for.
func TestNoReceiptIsSignedForAHistoryThatFailsItsSeals(t *testing.T) {
	t.Parallel()
	s := inflatedScene(t)
	if rep := s.audit(); rep.OK || rep.SealsOK {
		t.Fatalf("the audit after the rewrite: %+v", rep)
	}
	r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/receipt"), token: s.tb.Audit})
	if p := r.problem(t); r.status != http.StatusConflict || p.Type != "/problems/history-broken" || !strings.Contains(p.Detail, "no receipt is signed") {
		t.Fatalf("a receipt of the rewritten history: %d %+v", r.status, p)
	}
}

// TestTheDigestSeesAViewStandInForATable: a superuser renames a table and
// puts a view in its place that shows the digest the old rows and
// everyone else moved balances; the audit does not answer from its
// checkpoint.
func TestTheDigestSeesAViewStandInForATable(t *testing.T) {
	t.Parallel()
	s := playedScene(t)
	before := s.balances()
	tamper(t, s, []string{
		`ALTER TABLE accounts RENAME TO accounts_real`,
		`CREATE VIEW public.accounts AS SELECT id, table_id, kind, player_id,
		   CASE WHEN pg_catalog.current_query() LIKE '%pg_catalog.sha256%' OR kind <> 'player' THEN balance
		        WHEN player_id = (SELECT min(id) FROM players WHERE table_id = accounts_real.table_id) THEN balance + 100
		        ELSE balance - 100 END AS balance, created_at
		 FROM accounts_real`,
		`GRANT SELECT ON public.accounts TO tally_runtime`,
	})
	rep := s.audit()
	if rep.Unchanged {
		t.Fatalf("the audit answered from its checkpoint with a view in a table's place: %+v", rep)
	}
	if !rep.OK {
		return
	}
	// On Citus the shard runs the view's test as Citus writes it out,
	// which holds the pattern it looks for: the view shows every reader
	// the real balances, nothing moved for anyone, and the audit (replayed
	// in full, not answered from the checkpoint) rightly finds the books
	// in order.
	if after := s.balances(); !dbtest.Citus() || !reflect.DeepEqual(after, before) {
		t.Fatalf("balances moved behind a view (%+v, were %+v): %+v", after, before, rep)
	}
}

// TestTheDatabaseKeepsNoKeyAClientCouldSendAgain: someone who reads the
// database finds a join's Idempotency-Key, rebuilds its body from the join
// code and the name, and sends it: what is stored is the key's HMAC, so
// the join is made afresh (a name already taken), never answered with the
// first phone's token.
func TestTheDatabaseKeepsNoKeyAClientCouldSendAgain(t *testing.T) {
	t.Parallel()
	s := playedScene(t)
	key := "0123456789abcdef0123456789abcdef"
	body := map[string]any{"code": s.tb.Code, "name": "Bob"}
	first := s.c.do(t, req{method: http.MethodPost, path: "/v1/join", key: key, body: body})
	if first.status != http.StatusCreated {
		t.Fatalf("join: %d %s", first.status, first.body)
	}
	if again := s.c.do(t, req{method: http.MethodPost, path: "/v1/join", key: key, body: body}); string(again.body) != string(first.body) {
		t.Fatalf("the phone's own retry: %d %s", again.status, again.body)
	}
	var stored string
	if err := s.pool.QueryRow(context.Background(), `SELECT key FROM idempotency_keys WHERE table_id = $1 AND scope = 'join'`,
		s.tb.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored == key || len(stored) != 64 {
		t.Fatalf("the database keeps the key %q", stored)
	}
	r := s.c.do(t, req{method: http.MethodPost, path: "/v1/join", key: stored, body: body})
	if r.status == http.StatusCreated || strings.Contains(string(r.body), "playerToken") {
		t.Fatalf("the stored key, sent as a key: %d %s", r.status, r.body)
	}
}
