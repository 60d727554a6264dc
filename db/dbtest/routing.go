package dbtest

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/pgserver"
	"github.com/tally-dice/tally/db/routing"
)

// captureSettings make a private test server record every statement it
// runs, those inside functions and triggers included, for the routing
// check (pg_stat_statements keeps a statement's text with its constants
// made parameters, and its sqlc name comment).
var captureSettings = map[string]string{
	"shared_preload_libraries":         "pg_stat_statements",
	"pg_stat_statements.track":         "all",
	"pg_stat_statements.max":           "30000",
	"pg_stat_statements.track_utility": "off",
}

// untracked is what the server's administrator connects with: its
// sessions record nothing, neither the statements it types nor those they
// run inside functions and triggers (migrations, tampering). The check
// reads none of them, and on Citus, where every test migrates a database
// of its own, they would fill pg_stat_statements some hundred statements
// a test. Nested statements the check reads are then those of Tally's
// functions called by the runtime role, whose owner-rights ones
// PostgreSQL records under the owner.
const untracked = "-c pg_stat_statements.track=none"

// startCapture makes sure pg_stat_statements records the statements of the
// server e.admin reaches; when it cannot, the reason is returned and the
// routing check does not run.
func (e *env) startCapture(ctx context.Context) string {
	if _, err := e.admin.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		return fmt.Sprintf("pg_stat_statements cannot be created: %v", err)
	}
	var track string
	var super bool
	err := e.admin.QueryRow(ctx, `SELECT current_setting('pg_stat_statements.track'), rolsuper, dealloc,
		current_setting('pg_stat_statements.max')::bigint, (SELECT count(*) FROM pg_stat_statements)
		FROM pg_stat_statements_info, pg_roles WHERE rolname = current_user`).Scan(&track, &super, &e.room.dealloc,
		&e.room.max, &e.room.held)
	switch {
	case err != nil:
		return fmt.Sprintf("pg_stat_statements is not loaded (shared_preload_libraries): %v", err)
	case track != "all":
		return fmt.Sprintf("pg_stat_statements.track is %q: statements inside functions are not recorded", track)
	case !super:
		return "the server's role is no superuser: it can neither read every statement nor leave its own nested ones out"
	}
	return ""
}

// withOptions adds server options to a connection string.
func withOptions(dsn, options string) (string, error) {
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return dsn + " options='" + options + "'", nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("options", strings.TrimSpace(q.Get("options")+" "+options))
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20") // pgx reads + as itself
	return u.String(), nil
}

// A capture says which statements collect reads from pg_stat_statements.
type capture struct {
	databases []uint32 // in these databases,
	roles     []uint32 // the statements these roles ran,
	nested    bool     // and those inside functions and triggers, whoever's rights they ran with
}

// collect reads the distinct texts of the statements c selects.
func collect(ctx context.Context, admin *pgxpool.Pool, c capture) ([]string, error) {
	rows, err := admin.Query(ctx, `SELECT DISTINCT query FROM pg_stat_statements
		WHERE query IS NOT NULL AND dbid = ANY($1::oid[]) AND (userid = ANY($2::oid[]) OR ($3 AND NOT toplevel))
		ORDER BY query`, c.databases, c.roles, c.nested)
	if err != nil {
		return nil, err
	}
	var texts []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		texts = append(texts, s)
	}
	return texts, rows.Err()
}

// A verdict is what the routing check says of one statement.
type verdict struct {
	text     string
	name     string // its sqlc name, if it has one
	problems []routing.Problem
	err      error  // it does not parse
	global   string // why it is global, when the Allowlist says so
}

func (v verdict) routed() bool   { return v.err == nil && len(v.problems) == 0 }
func (v verdict) unrouted() bool { return !v.routed() && v.global == "" }

// label names a statement: by its sqlc name, or its text on one line.
func (v verdict) label() string {
	if v.name != "" {
		return v.name
	}
	return strings.Join(strings.Fields(v.text), " ")
}

// judge checks every statement.
func judge(texts []string) []verdict {
	var out []verdict
	for _, text := range texts {
		v := verdict{text: text, name: routing.Name(text)}
		v.problems, v.err = routing.Check(text)
		if !v.routed() {
			v.global = routing.Allowlist[v.name]
		}
		out = append(out, v)
	}
	return out
}

// checkRouting runs the routing check over every statement the runtime
// role ran in this process's test databases, prints what it found to w
// (a report of each unrouted statement, then one summary line) and says
// whether the process may pass. A check that cannot run on an external
// server says so and why, and passes; on the private server it fails.
func (e *env) checkRouting(w io.Writer) bool {
	if e.capture != "" {
		skipped := fmt.Sprintf("THE ROUTING CHECK DID NOT RUN on %s: %s", pgserver.Redact(e.adminDSN), e.capture)
		fmt.Fprintf(w, "routing: %s\n", skipped)
		if dir := os.Getenv("TALLY_ROUTING_REPORT"); dir != "" {
			if err := writeReport(dir, skipped, nil); err != nil {
				fmt.Fprintf(w, "routing: report: %v\n", err)
			}
		}
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	verdicts, err := e.runtimeVerdicts(ctx)
	if err != nil {
		fmt.Fprintf(w, "routing: the routing check failed to read the statements: %v\n", err)
		return false
	}
	var global, unrouted int
	for _, v := range verdicts {
		switch {
		case v.unrouted():
			unrouted++
			fmt.Fprintf(w, "routing: UNROUTED statement %s\n", v.label())
			if v.name != "" {
				fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(strings.TrimSpace(v.text), "\n", "\n    "))
			}
			for _, p := range v.problems {
				fmt.Fprintf(w, "  - %s\n", p)
			}
			if v.err != nil {
				fmt.Fprintf(w, "  - does not parse: %v\n", v.err)
			}
		case !v.routed():
			global++
		}
	}
	summary := fmt.Sprintf("%d statements checked, %d global (allowlisted), %d unrouted", len(verdicts), global, unrouted)
	ok := unrouted == 0
	switch n, err := e.evicted(ctx); {
	case err != nil:
		fmt.Fprintf(w, "routing: whether pg_stat_statements dropped statements cannot be read: %v\n", err)
		ok = false
	case n > 0:
		fmt.Fprintf(w, "routing: %s\n", e.room.outOfRoom(n, unrouted, pgserver.Redact(e.adminDSN)))
		ok = false
		summary += ", and pg_stat_statements ran out of room"
	}
	fmt.Fprintf(w, "routing: %s\n", summary)
	if dir := os.Getenv("TALLY_ROUTING_REPORT"); dir != "" {
		if err := writeReport(dir, summary, verdicts); err != nil {
			fmt.Fprintf(w, "routing: report: %v\n", err)
			ok = false
		}
	}
	return ok
}

// runtimeVerdicts judges the statements of the runtime role's members in
// this process's test databases, and those inside Tally's functions.
func (e *env) runtimeVerdicts(ctx context.Context) ([]verdict, error) {
	e.mu.Lock()
	c := capture{databases: e.databases, roles: e.roles, nested: true}
	e.mu.Unlock()
	rows, err := e.admin.Query(ctx, `SELECT oid FROM pg_roles WHERE pg_has_role(oid, $1, 'MEMBER') AND NOT rolsuper`, db.RuntimeGroup)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var oid uint32
		if err := rows.Scan(&oid); err != nil {
			return nil, err
		}
		c.roles = append(c.roles, oid)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	texts, err := collect(ctx, e.admin, c)
	if err != nil {
		return nil, err
	}
	return judge(texts), nil
}

// evicted is how often pg_stat_statements dropped entries to make room
// since the tests began. It keeps one entry per statement and test
// database: the api package's outgrew the private server's 10000 with
// issue 25 (a few statements more a write), hence its 30000.
func (e *env) evicted(ctx context.Context) (int64, error) {
	var n int64
	err := e.admin.QueryRow(ctx, "SELECT dealloc FROM pg_stat_statements_info").Scan(&n)
	return n - e.room.dealloc, err
}

// room is pg_stat_statements' room when the tests began: the entries it
// may hold (pg_stat_statements.max), those it held, and how often it had
// dropped some to make room. Entries are kept per database, and a server
// the tests share keeps those of earlier runs and other packages.
type room struct {
	max, held, dealloc int64
}

// outOfRoom says that the check failed because pg_stat_statements dropped
// statements n times during the tests, what it found among those it kept,
// and what to do.
func (r room) outOfRoom(n int64, unrouted int, server string) string {
	found := fmt.Sprintf("it found %d unrouted among those kept", unrouted)
	if unrouted == 0 {
		found = "it found none unrouted among those kept, and fails for this alone"
	}
	return fmt.Sprintf("FAIL: pg_stat_statements ran out of room on %s: it dropped statements %d times during these tests "+
		"(pg_stat_statements.max is %d, and it held %d when they began), so the check cannot vouch for the ones it dropped; %s. "+
		"Raise pg_stat_statements.max (a restart), or empty it before the run (SELECT pg_stat_statements_reset()): "+
		"docs/citus.md, \"The routing check\"", server, n, r.max, r.held, found)
}

// writeReport writes every statement with its verdict to a file named
// after the test binary's package in dir.
func writeReport(dir, summary string, verdicts []verdict) error {
	pkg := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		pkg = strings.TrimSuffix(info.Path, ".test")
	}
	var lines []string
	for _, v := range verdicts {
		switch {
		case v.routed():
			lines = append(lines, "pinned    "+v.label())
		case v.global != "":
			lines = append(lines, "global    "+v.label()+": "+v.global)
		default:
			var why []string
			for _, p := range v.problems {
				why = append(why, p.String())
			}
			if v.err != nil {
				why = append(why, "does not parse: "+v.err.Error())
			}
			lines = append(lines, "UNROUTED  "+v.label()+": "+strings.Join(why, "; "))
		}
	}
	sort.Strings(lines)
	body := fmt.Sprintf("# %s: %s\n%s\n", pkg, summary, strings.Join(lines, "\n"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	name := strings.ReplaceAll(strings.TrimPrefix(pkg, "github.com/tally-dice/tally/"), "/", "_") + ".txt"
	return os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
}
