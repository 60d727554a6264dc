package ledger_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/ledger"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// fixture is a table with seated players, on its own database.
type fixture struct {
	t       testing.TB
	ctx     context.Context
	pool    *pgxpool.Pool
	store   *ledger.Store
	table   db.Table
	players []int64 // in seat order
}

// newFixture creates a table (with no_overdraft as given) and seats the
// named players.
func newFixture(t testing.TB, noOverdraft bool, names ...string) *fixture {
	t.Helper()
	pool := dbtest.Pool(t)
	f := &fixture{t: t, ctx: context.Background(), pool: pool, store: ledger.NewStore(pool)}
	f.table = f.addTable(noOverdraft, names...)
	for _, p := range mustPlayers(t, pool, f.table.ID) {
		f.players = append(f.players, p.ID)
	}
	return f
}

// addTable creates another table on the same database, with players.
func (f *fixture) addTable(noOverdraft bool, names ...string) db.Table {
	f.t.Helper()
	sum := func(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }
	n := fmt.Sprint(len(names), noOverdraft, randomTag())
	tbl, err := db.TableInsert(f.ctx, f.pool, db.TableInsertParams{Name: "Friday", Ruleset: json.RawMessage(`{"preset":"bar"}`),
		Currency: "chips", JoinCode: "J" + n, HostTokenHash: sum("h" + n), AuditTokenHash: sum("a" + n), NoOverdraft: noOverdraft})
	if err != nil {
		f.t.Fatal(err)
	}
	for i, name := range names {
		_, err := db.PlayerInsert(f.ctx, f.pool, db.PlayerInsertParams{TableID: tbl.ID, Name: name, Seat: i + 1, TokenHash: sum(n + name)})
		if err != nil {
			f.t.Fatal(err)
		}
	}
	return tbl
}

// tagCounter makes join codes unique within a test process.
var tagCounter atomic.Int64

// randomTag returns a fresh tag.
func randomTag() int64 { return tagCounter.Add(1) }

// mustPlayers lists a table's players.
func mustPlayers(t testing.TB, q db.DBTX, tableID int64) []db.Player {
	t.Helper()
	ps, err := db.PlayerList(context.Background(), q, tableID)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// do runs fn in a ledger transaction.
func (f *fixture) do(fn func(tx pgx.Tx) error) error {
	return f.store.InTx(f.ctx, fn)
}

// must runs fn in a transaction and fails the test on error.
func (f *fixture) must(fn func(tx pgx.Tx) error) {
	f.t.Helper()
	if err := f.do(fn); err != nil {
		f.t.Fatal(err)
	}
}

// sheet reads the table's balances.
func (f *fixture) sheet() ledger.BalanceSheet {
	f.t.Helper()
	s, err := ledger.Balances(f.ctx, f.pool, f.table.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// balances returns the players' balances in seat order, then pot and world.
func (f *fixture) balances() []int64 {
	f.t.Helper()
	s := f.sheet()
	var out []int64
	for _, p := range s.Players {
		out = append(out, p.Balance)
	}
	return append(out, s.Pot, s.World)
}

// count returns a one-number query result.
func (f *fixture) count(sql string, args ...any) int64 {
	f.t.Helper()
	var n int64
	if err := f.pool.QueryRow(f.ctx, sql, args...).Scan(&n); err != nil {
		f.t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// checkInvariants asserts what must hold after anything: every transaction
// sums to zero, every balance equals the sum of its postings, all accounts
// sum to zero, and every table's audit chain verifies.
func checkInvariants(t testing.TB, ctx context.Context, pool *pgxpool.Pool) {
	t.Helper()
	var n int64
	q := func(sql string) int64 {
		if err := pool.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	if bad := q(`SELECT count(*) FROM (SELECT transaction_id FROM postings GROUP BY transaction_id HAVING sum(amount) <> 0) x`); bad != 0 {
		t.Errorf("%d transactions do not sum to zero", bad)
	}
	if bad := q(`SELECT count(*) FROM accounts a WHERE a.balance <> (SELECT coalesce(sum(amount), 0) FROM postings p WHERE p.account_id = a.id)`); bad != 0 {
		t.Errorf("%d balances differ from the sum of their postings", bad)
	}
	if total := q(`SELECT coalesce(sum(balance), 0) FROM accounts`); total != 0 {
		t.Errorf("all accounts sum to %d, want 0", total)
	}
	rows, err := pool.Query(ctx, `SELECT id FROM tables`)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		r, err := ledger.Verify(ctx, pool, id)
		if err != nil || !r.OK {
			t.Errorf("audit chain of table %d: %+v %v", id, r, err)
		}
	}
}

// equal compares int64 slices.
func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
