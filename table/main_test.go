package table

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/seal"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// fixture is a table made through the service on its own database.
type fixture struct {
	t       testing.TB
	ctx     context.Context
	pool    *pgxpool.Pool
	svc     *Service
	host    Auth
	created Created
	players []game.PlayerID // in seat order
}

// newFixture makes a table of the named players.
func newFixture(t testing.TB, in NewTable) *fixture {
	t.Helper()
	pool := dbtest.Pool(t)
	f := &fixture{t: t, ctx: context.Background(), pool: pool, svc: New(pool, seal.Random(), nil)}
	f.addTable(in)
	return f
}

// addTable makes another table on the fixture's database and makes it the
// fixture's.
func (f *fixture) addTable(in NewTable) {
	f.t.Helper()
	r, err := f.svc.CreateTable(f.ctx, Key{}, in)
	if err != nil {
		f.t.Fatal(err)
	}
	f.created = r.Value.(Created)
	f.host = Auth{TableID: f.created.Table.ID, Token: f.created.HostToken}
	f.players = nil
	for _, p := range f.created.Table.Players {
		f.players = append(f.players, p.ID)
	}
}

// answered is the Key of a write sent without an Idempotency-Key, answered
// as package api answers it: status and JSON.
func answered(status int) Key { return Key{Encode: jsonAnswer(status)} }

// keyed is the Key of a write sent with the Idempotency-Key key (whose
// request fingerprints to hash), answered as package api answers it.
func keyed(key string, hash []byte, status int) Key {
	return Key{Key: key, Hash: hash, Encode: jsonAnswer(status)}
}

// jsonAnswer encodes a write's answer as package api does: the status
// and the value in JSON.
func jsonAnswer(status int) Encoder {
	return func(v any) (Answer, error) {
		body, err := json.Marshal(v)
		return Answer{Status: status, ContentType: "application/json", Body: body}, err
	}
}

// noErr fails the test on an error.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
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

// countAll is count over every table's rows, as the owner
// (dbtest.OwnerPool): the test's look at the whole database.
func (f *fixture) countAll(sql string, args ...any) int64 {
	f.t.Helper()
	var n int64
	if err := dbtest.OwnerPool(f.t, f.pool).QueryRow(f.ctx, sql, args...).Scan(&n); err != nil {
		f.t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// checkInvariants asserts what must hold after anything: every journal
// transaction sums to zero, every balance equals the sum of its postings,
// every table's accounts sum to zero, and every table's audit chain
// verifies and ends where its row says.
func checkInvariants(t testing.TB, ctx context.Context, pool *pgxpool.Pool) {
	t.Helper()
	// Every table's rows at once, as the owner (dbtest.OwnerPool).
	owner := dbtest.OwnerPool(t, pool)
	q := func(sql string) int64 {
		var n int64
		if err := owner.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	if bad := q(`SELECT count(*) FROM (SELECT 1 FROM postings GROUP BY table_id, transaction_id HAVING sum(amount) <> 0) x`); bad != 0 {
		t.Errorf("%d transactions do not sum to zero", bad)
	}
	if bad := q(`SELECT count(*) FROM accounts a WHERE a.balance <>
		(SELECT coalesce(sum(amount), 0) FROM postings p WHERE p.table_id = a.table_id AND p.account_id = a.id)`); bad != 0 {
		t.Errorf("%d balances differ from the sum of their postings", bad)
	}
	if bad := q(`SELECT count(*) FROM (SELECT 1 FROM accounts GROUP BY table_id HAVING sum(balance) <> 0) x`); bad != 0 {
		t.Errorf("%d tables' accounts do not sum to zero", bad)
	}
	rows, err := owner.Query(ctx, `SELECT id FROM tables`)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, id := range ids {
		var events []chain.Event
		var row db.Table
		b := db.NewBatch(ctx)
		b.EventList(id, &events)
		b.TableGet(id, &row)
		if err := b.Send(conn); err != nil {
			t.Fatal(err)
		}
		if r := chain.Verify(events); !r.OK || r.Events != int(row.Head.Seq) || (r.Events > 0 && string(r.Head) != string(row.Head.Hash)) {
			t.Errorf("audit chain of table %d: %+v, head %+v", id, r, row.Head)
		}
	}
}

// entryDeposit is a buy-in of one unit.
func entryDeposit(p game.PlayerID) (ledger.Entry, error) { return ledger.Deposit(p, 1) }

// asOwner runs a statement as the schema's owner, for changes the role
// Tally serves as may not make (as if the data were older).
func (f *fixture) asOwner(sql string, args ...any) {
	f.t.Helper()
	owner, err := pgxpool.New(f.ctx, dbtest.OwnerDSN(f.t, f.pool.Config().ConnString()))
	noErr(f.t, err)
	defer owner.Close()
	_, err = owner.Exec(f.ctx, sql, args...)
	noErr(f.t, err)
}
