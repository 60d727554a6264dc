package dbtest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/pgserver"
)

// TestTheRoutingCheckBites runs unrouted statements on a fresh database
// and finds, through pg_stat_statements and the same collection and
// verdicts as Main's check, exactly those statements unrouted. A probe role
// outside the runtime group runs them, so that this package's own check
// (which reads only the runtime group's statements) is not tripped.
func TestTheRoutingCheckBites(t *testing.T) {
	bad := []string{
		"SELECT count(*) FROM events",
		"SELECT id FROM tables WHERE join_code = $1",
	}
	verdicts := probe(t, map[string][]any{
		bad[0]: nil,
		bad[1]: {"ABC123"},
		"SELECT count(*) FROM events WHERE table_id = $1": {7},
	})
	var unrouted []string
	for _, v := range verdicts {
		if v.unrouted() {
			unrouted = append(unrouted, v.text)
		}
	}
	slices.Sort(unrouted)
	slices.Sort(bad)
	if !slices.Equal(unrouted, bad) {
		t.Fatalf("unrouted: %q, want %q", unrouted, bad)
	}
}

// TestTheRoutingCheckPassesARoutedStatement: a routed statement, captured
// the same way, passes.
func TestTheRoutingCheckPassesARoutedStatement(t *testing.T) {
	routed := "SELECT e.seq FROM events e JOIN tables t ON t.id = e.table_id WHERE e.table_id = $1"
	verdicts := probe(t, map[string][]any{routed: {7}})
	if len(verdicts) != 1 || verdicts[0].text != routed || !verdicts[0].routed() {
		t.Fatalf("verdicts: %+v, want %q routed", verdicts, routed)
	}
}

// probe runs each statement with its arguments on a fresh database as a
// role of its own, outside the runtime group, and returns the verdicts on
// what pg_stat_statements recorded of that role.
func probe(t *testing.T, stmts map[string][]any) []verdict {
	t.Helper()
	e := environment(t)
	if e.capture != "" {
		t.Skipf("the routing check does not run on this server: %s", e.capture)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	role := "tally_test_probe_" + randomSuffix()
	ident := pgx.Identifier{role}.Sanitize()
	if _, err := e.admin.Exec(ctx, fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", ident, role)); err != nil {
		t.Fatal(err)
	}
	// Registered before the database's cleanup, so it runs after it.
	t.Cleanup(func() {
		if _, err := e.admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+ident); err != nil {
			t.Errorf("drop role %s: %v", role, err)
		}
	})
	var roleOID, dbOID uint32
	if err := e.admin.QueryRow(ctx, "SELECT oid FROM pg_roles WHERE rolname = $1", role).Scan(&roleOID); err != nil {
		t.Fatal(err)
	}
	dsn := DSN(t)
	owner, err := pgx.Connect(ctx, OwnerDSN(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	for _, grant := range []string{"GRANT USAGE ON SCHEMA public TO ", "GRANT SELECT ON events, tables TO "} {
		if _, err := owner.Exec(ctx, grant+ident); err != nil {
			t.Fatal(err)
		}
	}
	if err := owner.QueryRow(ctx, "SELECT oid FROM pg_database WHERE datname = current_database()").Scan(&dbOID); err != nil {
		t.Fatal(err)
	}
	probeDSN, err := pgserver.WithUser(dsn, role, role)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, probeDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for sql, args := range stmts {
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	texts, err := collect(ctx, e.admin, capture{databases: []uint32{dbOID}, roles: []uint32{roleOID}})
	if err != nil {
		t.Fatal(err)
	}
	return judge(texts)
}

// TestWithOptions: the administrator's connection strings, in both forms,
// carry the option that leaves its nested statements out of the capture.
func TestWithOptions(t *testing.T) {
	t.Parallel()
	for _, dsn := range []string{
		"postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"postgres://postgres@127.0.0.1:5432/postgres?options=-c%20work_mem%3D8MB",
		"host=127.0.0.1 port=5432 user=postgres dbname=postgres",
	} {
		with, err := withOptions(dsn, untracked)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := pgx.ParseConfig(with)
		if err != nil {
			t.Fatalf("%s: %v", with, err)
		}
		if got := cfg.RuntimeParams["options"]; !strings.HasSuffix(got, untracked) {
			t.Errorf("%s: options %q, want them to end with %q", with, got, untracked)
		}
		if db, err := pgserver.WithDatabase(with, "other"); err != nil || !strings.Contains(db, "track") {
			t.Errorf("%s on another database: %s (%v) lost the option", with, db, err)
		}
	}
}

// TestTheRoutingCheckSaysWhenStatementsWereDropped: on a server whose
// pg_stat_statements holds fewer statements than the tests run, the check
// fails and says why (it ran out of room, how much it had, what to do),
// even though none of the statements it kept is unrouted.
func TestTheRoutingCheckSaysWhenStatementsWereDropped(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	settings := map[string]string{}
	for k, v := range captureSettings {
		settings[k] = v
	}
	settings["pg_stat_statements.max"] = "100" // PostgreSQL's least
	srv, err := pgserver.Start(ctx, pgserver.Config{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{server: srv, adminDSN: srv.DSN()}
	defer e.close()
	if e.admin, err = pgxpool.New(ctx, e.adminDSN); err != nil {
		t.Fatal(err)
	}
	if _, err := e.admin.Exec(ctx, "CREATE ROLE "+db.RuntimeGroup+" NOLOGIN"); err != nil {
		t.Fatal(err)
	}
	if e.capture = e.startCapture(ctx); e.capture != "" {
		t.Fatal(e.capture)
	}
	var all bytes.Buffer
	if !e.checkRouting(&all) {
		t.Fatalf("the check failed with room to spare:\n%s", all.String())
	}
	for i := range 200 { // each a statement of its own: a sum of i+1 terms
		if _, err := e.admin.Exec(ctx, "SELECT 1"+strings.Repeat(" + 1", i)); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if e.checkRouting(&out) {
		t.Fatalf("the check passed after pg_stat_statements dropped statements:\n%s", out.String())
	}
	for _, want := range []string{"ran out of room", "pg_stat_statements.max is 100", "none unrouted", "pg_stat_statements_reset()"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the check's report lacks %q:\n%s", want, out.String())
		}
	}
}
