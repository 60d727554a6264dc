package routing

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryQueryIsRoutedOrAllowed checks every query in db/queries, read
// as they are now: each pins every distributed table it touches, or is on
// the Allowlist. An allowlisted query must exist and be global, so the
// list never keeps a reason that no longer holds.
func TestEveryQueryIsRoutedOrAllowed(t *testing.T) {
	t.Parallel()
	queries := sqlcQueries(t)
	for name, sql := range queries {
		problems, err := Check(sql)
		if err != nil {
			t.Errorf("%s does not parse: %v\n%s", name, err, sql)
			continue
		}
		_, allowed := Allowlist[name]
		switch {
		case len(problems) > 0 && !allowed:
			t.Errorf("%s is not routed to one shard:\n  %s", name, strings.Join(problemStrings(problems), "\n  "))
		case len(problems) == 0 && allowed:
			t.Errorf("%s is routed to one shard: take it off the Allowlist", name)
		}
	}
	for name, reason := range Allowlist {
		if _, ok := queries[name]; !ok {
			t.Errorf("the Allowlist names %s, which db/queries no longer has", name)
		}
		if !strings.HasSuffix(reason, ".") || len(reason) < 30 {
			t.Errorf("the Allowlist's reason for %s is not a sentence saying why: %q", name, reason)
		}
	}
}

// sqlcParam is a parameter as sqlc's queries write it.
var sqlcParam = regexp.MustCompile(`sqlc\.(?:n?arg|slice)\(\s*'?(\w+)'?\s*\)|@(\w+)`)

// sqlcQueries reads ../queries/*.sql and returns each query by its name,
// with its parameters numbered as sqlc numbers them ($1 for the first
// name, the same number for the same name).
func sqlcQueries(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../queries/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no queries in ../queries: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(string(raw), "-- name:")
		for _, part := range parts[1:] {
			sql := "-- name:" + part
			name := Name(sql)
			if name == "" {
				t.Fatalf("%s: a query without a name: %.60q", f, sql)
			}
			numbers := map[string]string{}
			out[name] = sqlcParam.ReplaceAllStringFunc(sql, func(p string) string {
				m := sqlcParam.FindStringSubmatch(p)
				key := m[1] + m[2]
				if _, ok := numbers[key]; !ok {
					numbers[key] = "$" + itoa(len(numbers)+1)
				}
				return numbers[key]
			})
		}
	}
	return out
}

func problemStrings(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// TestRoutedStatements are statements that reach one shard, as Tally
// writes them.
func TestRoutedStatements(t *testing.T) {
	t.Parallel()
	for name, sql := range map[string]string{
		"unqualified column":          `SELECT * FROM events WHERE table_id = $1 AND seq > $2`,
		"constant":                    `SELECT * FROM rounds WHERE table_id = 42`,
		"cast":                        `SELECT * FROM rounds r WHERE r.table_id = $1::bigint`,
		"reversed":                    `SELECT * FROM rounds r WHERE $1 = r.table_id`,
		"the tables by id":            `SELECT * FROM tables WHERE id = $1 FOR UPDATE`,
		"join codes by code":          `SELECT table_id FROM join_codes WHERE code = $1`,
		"schema-qualified":            `SELECT * FROM public.events e WHERE e.table_id = $1`,
		"catalog":                     `SELECT relname FROM pg_catalog.pg_class WHERE relname IN ('events', 'tables')`,
		"no table":                    `SELECT nextval(pg_get_serial_sequence('tables', 'id'))::bigint AS id`,
		"notify":                      `SELECT pg_notify($1, $2)`,
		"utility":                     `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`,
		"join on the pinned side":     `SELECT * FROM postings p JOIN accounts a ON a.table_id = p.table_id AND a.id = p.account_id WHERE p.table_id = $1`,
		"fixpoint over three":         `SELECT * FROM turns t JOIN rounds r ON r.table_id = t.table_id JOIN players p ON p.table_id = r.table_id WHERE t.table_id = $1`,
		"left join nullable side":     `SELECT * FROM journal_transactions j LEFT JOIN rounds r ON r.table_id = j.table_id AND r.id = j.round_id WHERE j.table_id = $1`,
		"pinned subquery in WHERE":    `SELECT a.* FROM round_actions a WHERE a.table_id = $1 AND a.round_id = (SELECT r.id FROM rounds r WHERE r.table_id = $1 ORDER BY r.number DESC LIMIT 1)`,
		"correlated EXISTS":           `SELECT t.* FROM tables t WHERE t.id = $1 AND (t.host_token_hash = $2 OR EXISTS (SELECT 1 FROM players p WHERE p.table_id = t.id AND p.token_hash = $2)) FOR UPDATE OF t`,
		"pinned subquery in FROM":     `SELECT (SELECT h::text FROM (SELECT tb.name FROM public.tables tb WHERE tb.id = $1) h)`,
		"pinned CTE read":             `WITH e AS (SELECT * FROM events WHERE table_id = $1) SELECT * FROM e`,
		"CTE shadows a table":         `WITH events AS (INSERT INTO events (table_id, seq) VALUES ($1, $2) RETURNING 1) SELECT count(*) FROM events`,
		"insert values":               `INSERT INTO rounds (table_id, number) VALUES ($1, $2)`,
		"insert rows of one table":    `INSERT INTO accounts (table_id, kind) VALUES ($1, 'pot'), ($1, 'world')`,
		"insert select of a param":    `INSERT INTO events (table_id, seq) SELECT $1, unnest($2::bigint[])`,
		"insert select from pinned":   `INSERT INTO turns (table_id, round_id, seq) SELECT $1, r.id, unnest($3::int[]) FROM rounds r WHERE r.table_id = $1 AND r.number = $2`,
		"insert select pinned col":    `INSERT INTO turns (table_id, round_id) SELECT r.table_id, r.id FROM rounds r WHERE r.table_id = $1`,
		"on conflict":                 `INSERT INTO audit_checkpoints (table_id, seq) VALUES ($1, $2) ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq`,
		"update":                      `UPDATE players SET left_at = now() WHERE table_id = $1 AND id = $2 AND left_at IS NULL`,
		"update from pinned":          `UPDATE accounts a SET balance = a.balance + d.m FROM (SELECT u.a, sum(u.m) AS m FROM unnest($2::bigint[], $3::bigint[]) AS u (a, m) GROUP BY u.a) d WHERE a.table_id = $1 AND a.id = d.a`,
		"delete using pinned":         `DELETE FROM idempotency_keys k USING idempotency_keys o WHERE k.table_id = $1 AND o.table_id = k.table_id AND o.key = k.key`,
		"plpgsql parameter":           `UPDATE public.events e SET seal = u.s FROM unnest(p_seqs, p_seals) AS u (q, s), public.tables t WHERE e.table_id = p_table AND e.seq = u.q AND t.id = p_table AND e.seq <= t.legacy_seq`,
		"plpgsql insert":              `INSERT INTO public.postings (table_id, transaction_id, account_id, amount) SELECT p_table, txn, u.a, u.m FROM unnest(p_accounts, p_amounts) WITH ORDINALITY AS u (a, m, n) ORDER BY u.n`,
		"plpgsql expression":          `EXISTS (SELECT 1 FROM rounds WHERE table_id = p_table)`,
		"plpgsql assignment":          `n := (SELECT count(*) FROM rounds r WHERE r.table_id = p_table)`,
		"trigger row":                 `UPDATE accounts SET balance = balance + NEW.amount WHERE table_id = NEW.table_id AND id = NEW.account_id`,
		"union of the same value":     `SELECT table_id FROM rounds WHERE table_id = $1 UNION ALL SELECT table_id FROM turns WHERE table_id = $1`,
		"insert from a union":         `INSERT INTO accounts (table_id, kind) SELECT $1, 'pot' UNION ALL SELECT $1, 'world'`,
		"cte column list":             `WITH t (tid) AS (SELECT $1::bigint) INSERT INTO accounts (table_id, kind) SELECT t.tid, 'pot' FROM t`,
		"join through a non-dist col": `SELECT * FROM unnest($2::bigint[]) AS u (id), rounds r WHERE u.id = $1 AND r.table_id = u.id`,
		"player insert": `WITH p AS (
			INSERT INTO players (table_id, name, seat, token_hash) VALUES ($1, $2, $3, $4) RETURNING *
		), account AS (
			INSERT INTO accounts (table_id, kind, player_id) SELECT p.table_id, 'player', p.id FROM p
		)
		SELECT * FROM p`,
		"table insert": `WITH t AS (
			INSERT INTO tables (id, name) OVERRIDING SYSTEM VALUE VALUES ($1, $2) RETURNING *
		), house AS (
			INSERT INTO accounts (table_id, kind) SELECT t.id, k.kind FROM t, (VALUES ('pot'), ('world')) AS k (kind)
		)
		SELECT * FROM t`,
	} {
		problems, err := Check(sql)
		if err != nil || len(problems) > 0 {
			t.Errorf("%s: err %v, problems:\n  %s\n%s", name, err, strings.Join(problemStrings(problems), "\n  "), sql)
		}
	}
}

// TestUnroutedStatements are statements that do not reach one shard, each
// failing for a reason of its own, and what the check says of them.
func TestUnroutedStatements(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, sql, want string }{
		{"no filter", `SELECT count(*) FROM events`,
			"events in top level: no pin on table_id"},
		{"two tables of one group pinned to two values", `SELECT * FROM players p, accounts a WHERE p.table_id = $1 AND a.table_id = $2`,
			"accounts AS a in top level: pinned to $2 where p (top level) is pinned to $1: two shards"},
		{"a write whose key goes to another table", `WITH e AS (INSERT INTO events (table_id, seq) VALUES ($1, $2)) INSERT INTO idempotency_keys (table_id, scope, key) SELECT $3, $4, $5`,
			"idempotency_keys in top level: pinned to $3 where events (CTE e) is pinned to $1: two shards"},
		{"filter on another column", `SELECT id FROM tables WHERE join_code = $1`,
			"tables in top level: no pin on id"},
		{"token alone", `SELECT * FROM players p WHERE p.token_hash = $1`,
			"players AS p in top level: no pin on table_id"},
		{"IN list", `SELECT * FROM rounds WHERE table_id IN ($1, $2)`,
			"rounds in top level: no pin on table_id"},
		{"ANY array", `SELECT * FROM rounds WHERE table_id = ANY($1)`,
			"rounds in top level: no pin on table_id"},
		{"OR", `SELECT * FROM rounds WHERE table_id = $1 OR table_id = $2`,
			"rounds in top level: no pin on table_id"},
		{"NOT", `SELECT * FROM rounds WHERE NOT (table_id <> $1)`,
			"rounds in top level: no pin on table_id"},
		{"range", `SELECT * FROM rounds WHERE table_id >= $1 AND table_id <= $1`,
			"rounds in top level: no pin on table_id"},
		{"unnest", `SELECT * FROM rounds WHERE table_id = unnest($1::bigint[])`,
			"rounds in top level: no pin on table_id"},
		{"join on a non-distribution column", `SELECT * FROM postings p JOIN accounts a ON a.id = p.account_id WHERE p.table_id = $1`,
			"accounts AS a in top level: no pin on table_id"},
		{"outer join pins only its nullable side", `SELECT * FROM rounds r LEFT JOIN turns t ON r.table_id = $1 AND t.table_id = r.table_id`,
			"rounds AS r in top level: no pin on table_id"},
		{"unpinned subquery in a pinned query", `SELECT * FROM round_actions a WHERE a.table_id = $1 AND a.round_id IN (SELECT r.id FROM rounds r WHERE r.number = $2)`,
			"rounds AS r in subquery in WHERE: no pin on table_id"},
		{"unpinned scalar subquery", `SELECT (SELECT count(*) FROM players) FROM tables WHERE id = $1`,
			"players in subquery in SELECT list: no pin on table_id"},
		{"correlated on a non-distribution column", `SELECT * FROM tables t WHERE t.id = $1 AND EXISTS (SELECT 1 FROM players p WHERE p.id = t.id)`,
			"players AS p in subquery in WHERE: no pin on table_id"},
		{"unpinned data-modifying CTE", `WITH gone AS (UPDATE players SET left_at = now() WHERE id = $2 RETURNING 1) SELECT count(*) FROM gone`,
			"players in CTE gone: no pin on table_id"},
		{"unpinned CTE read", `WITH e AS (SELECT * FROM events) SELECT * FROM e WHERE e.table_id = $1`,
			"events in CTE e: no pin on table_id"},
		{"insert select unnest", `INSERT INTO events (table_id, seq) SELECT unnest($1::bigint[]), unnest($2::bigint[])`,
			"events in top level: INSERT value for table_id is not one value"},
		{"insert without the column", `INSERT INTO rounds (number, players) VALUES ($1, $2)`,
			"rounds in top level: INSERT does not name table_id"},
		{"insert without a column list", `INSERT INTO rounds VALUES ($1, $2)`,
			"rounds in top level: INSERT does not name table_id"},
		{"insert rows of two tables", `INSERT INTO accounts (table_id, kind) VALUES ($1, 'pot'), ($2, 'world')`,
			"accounts in top level: INSERT value for table_id is not one value"},
		{"insert a union of two tables", `INSERT INTO accounts (table_id, kind) SELECT $1, 'pot' UNION ALL SELECT $2, 'world'`,
			"accounts in top level: INSERT value for table_id is not one value"},
		{"insert select of an unpinned column", `INSERT INTO turns (table_id, round_id) SELECT r.table_id, r.id FROM rounds r WHERE r.number = $1`,
			"turns in top level: INSERT value for table_id is not one value"},
		{"insert select of a non-distribution column of a pinned CTE", `WITH p AS (SELECT id FROM players WHERE table_id = $1) INSERT INTO accounts (table_id, kind) SELECT p.id, 'player' FROM p`,
			"accounts in top level: INSERT value for table_id is not one value"},
		{"update from unpinned", `UPDATE idempotency_keys k SET key = u.n FROM idempotency_keys u WHERE k.table_id = $1 AND k.key = u.key`,
			"idempotency_keys AS u in top level: no pin on table_id"},
		{"update by id", `UPDATE rounds SET status = 'settled' WHERE id = $1`,
			"rounds in top level: no pin on table_id"},
		{"delete using unpinned", `DELETE FROM idempotency_keys k USING idempotency_keys o WHERE k.table_id = $1 AND o.key = k.key`,
			"idempotency_keys AS o in top level: no pin on table_id"},
		{"update the distribution column", `UPDATE rounds SET table_id = $2 WHERE table_id = $1`,
			"rounds in top level: UPDATE changes table_id"},
		{"upsert the distribution column", `INSERT INTO audit_checkpoints (table_id, seq) VALUES ($1, $2) ON CONFLICT (seq) DO UPDATE SET table_id = $3`,
			"audit_checkpoints in top level: UPDATE changes table_id"},
		{"delete all", `DELETE FROM turns`,
			"turns in top level: no pin on table_id"},
		{"unqualified and ambiguous", `SELECT * FROM rounds r, turns t WHERE table_id = $1`,
			"rounds AS r in top level: no pin on table_id"},
		{"utility", `TRUNCATE events`,
			"events in a part of the statement the check does not follow: not checked"},
		{"plpgsql expression", `EXISTS (SELECT 1 FROM rounds)`,
			"rounds in subquery in SELECT list: no pin on table_id"},
		{"a column of another table's parameter", `SELECT * FROM rounds WHERE table_id = p.x`,
			"rounds in top level: no pin on table_id"},
	} {
		problems, err := Check(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := problemStrings(problems)
		if !contains(got, tc.want) {
			t.Errorf("%s: problems\n  %s\nwant %q\n%s", tc.name, strings.Join(got, "\n  "), tc.want, tc.sql)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestUnparsable(t *testing.T) {
	t.Parallel()
	if _, err := Check(`SELEC * FROM events`); err == nil {
		t.Fatal("a statement that does not parse passed")
	}
}

func TestName(t *testing.T) {
	t.Parallel()
	for sql, want := range map[string]string{
		"-- name: TableLock :one\nSELECT * FROM tables WHERE id = $1": "TableLock",
		"  -- name:  EventList :many\nSELECT 1":                       "EventList",
		"SELECT 1 -- name: Nope :one":                                 "",
		"UPDATE public.tables SET head_seal = p_seal":                 "",
	} {
		if got := Name(sql); got != want {
			t.Errorf("Name(%q) = %q, want %q", sql, got, want)
		}
	}
}

// FuzzCheck: any text either fails to parse or is checked, never a panic.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`SELECT * FROM events WHERE table_id = $1`,
		`WITH x AS (INSERT INTO rounds (table_id) VALUES ($1) RETURNING *) SELECT * FROM x, LATERAL (SELECT 1) y`,
		`UPDATE tables t SET rounds = 1 FROM players p WHERE t.id = p.table_id`,
		`SELECT * FROM a FULL JOIN events e USING (table_id) NATURAL JOIN rounds`,
		`MERGE INTO events e USING rounds r ON e.table_id = r.table_id WHEN MATCHED THEN DO NOTHING`,
		`WITH RECURSIVE r AS (SELECT 1 UNION SELECT n + 1 FROM r) SELECT * FROM r, turns`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		_, _ = Check(sql)
	})
}
