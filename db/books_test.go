package db_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

// books is a table with two player accounts, a pot and one balanced
// transaction already committed.
type books struct {
	pool               *pgxpool.Pool
	dsn                string
	table              db.Table
	ann, bob, pot      db.Account
	firstTransactionID int64
}

// newBooks sets up books for the schema-rule tests.
func newBooks(t *testing.T) books {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.DSN(t)
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	tbl := newTable(t, pool, "BOOKS")
	ann := newPlayer(t, pool, tbl.ID, "Ann", 1)
	bob := newPlayer(t, pool, tbl.ID, "Bob", 2)
	var accts []db.Account
	b := db.NewBatch(ctx)
	b.AccountList(tbl.ID, &accts)
	must(t, pool, b)
	bk := books{pool: pool, dsn: dsn, table: tbl}
	for _, a := range accts {
		switch {
		case a.Player == ann.ID:
			bk.ann = a
		case a.Player == bob.ID:
			bk.bob = a
		case a.Kind == db.AccountPot:
			bk.pot = a
		}
	}
	b.JournalInsert(tbl.ID, db.JournalEntry{Kind: "ante", Postings: []db.Posting{
		{AccountID: bk.ann.ID, Amount: -5}, {AccountID: bk.bob.ID, Amount: -5}, {AccountID: bk.pot.ID, Amount: 10}}})
	must(t, pool, b)
	var journal []db.JournalEntry
	b.JournalList(tbl.ID, &journal)
	must(t, pool, b)
	bk.firstTransactionID = journal[0].ID
	return bk
}

// commit runs sqls in one transaction and returns the error of the first
// failing statement or of the commit.
func commit(ctx context.Context, pool *pgxpool.Pool, sqls ...string) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		for _, s := range sqls {
			if _, err := tx.Exec(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestBalancesFollowPostings(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	var accts []db.Account
	var journal []db.JournalEntry
	batch := db.NewBatch(context.Background())
	batch.AccountList(b.table.ID, &accts)
	batch.JournalList(b.table.ID, &journal)
	must(t, b.pool, batch)
	want := map[int64]int64{b.ann.ID: -5, b.bob.ID: -5, b.pot.ID: 10}
	for _, a := range accts {
		if a.Balance != want[a.ID] {
			t.Errorf("account %d (%s) balance %d, want %d", a.ID, a.Kind, a.Balance, want[a.ID])
		}
	}
	if len(journal) != 1 || len(journal[0].Postings) != 3 || journal[0].Postings[2].Kind != db.AccountPot ||
		journal[0].Postings[0].Player != b.ann.Player {
		t.Fatalf("journal: %+v", journal)
	}
}

func TestDatabaseRefusesBrokenBooks(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	ctx := context.Background()
	other := newTable(t, b.pool, "OTHER")
	tid, txn := fmtInt(b.table.ID), fmtInt(b.firstTransactionID)
	cases := []struct {
		name string
		sqls []string
		want error
	}{
		{"unbalanced transaction", []string{
			`INSERT INTO journal_transactions (table_id, kind) VALUES (` + tid + `, 'payout')`,
			`INSERT INTO postings (transaction_id, table_id, account_id, amount)
			 VALUES (currval('journal_transactions_id_seq'), ` + tid + `, ` + fmtInt(b.ann.ID) + `, 7)`,
		}, db.ErrUnbalanced},
		{"payout without postings", []string{
			`INSERT INTO journal_transactions (table_id, kind) VALUES (` + tid + `, 'payout')`,
		}, db.ErrUnbalanced},
		{"payout without postings through the function", []string{
			`SELECT tally_journal_post(` + tid + `, 'payout', NULL, '', '{}', 1, '{}', '{}')`,
		}, db.ErrUnbalanced},
		{"payout with no postings at all (NULL arrays)", []string{
			`SELECT tally_journal_post(` + tid + `, 'payout', NULL, '', '{}', 1, NULL, NULL)`,
		}, db.ErrUnbalanced},
		{"a round the table does not have", []string{
			`SELECT tally_journal_post(` + tid + `, 'payout', 99, '', '{}', 1,
			 ARRAY[` + fmtInt(b.ann.ID) + `, ` + fmtInt(b.bob.ID) + `]::bigint[], ARRAY[7, -7]::bigint[])`,
		}, db.ErrNotFound},
		{"late posting unbalances a committed transaction", []string{
			`INSERT INTO postings (transaction_id, table_id, account_id, amount) VALUES (` + txn + `, ` + tid + `, ` + fmtInt(b.ann.ID) + `, 1)`,
		}, db.ErrUnbalanced},
		{"update a posting", []string{`UPDATE postings SET amount = amount * 2 WHERE transaction_id = ` + txn}, db.ErrAppendOnly},
		{"delete a posting", []string{`DELETE FROM postings WHERE transaction_id = ` + txn}, db.ErrAppendOnly},
		{"truncate postings", []string{`TRUNCATE postings`}, db.ErrAppendOnly},
		{"update a journal row", []string{`UPDATE journal_transactions SET memo = 'x' WHERE id = ` + txn}, db.ErrAppendOnly},
		{"delete a journal row", []string{`DELETE FROM journal_transactions WHERE id = ` + txn}, db.ErrAppendOnly},
		{"set a balance by hand", []string{`UPDATE accounts SET balance = 1000 WHERE id = ` + fmtInt(b.ann.ID)}, db.ErrAppendOnly},
		{"post to another table's account", []string{
			`SELECT tally_journal_post(` + fmtInt(other.ID) + `, 'payout', NULL, '', '{}', 1,
			 ARRAY[` + fmtInt(b.ann.ID) + `, ` + fmtInt(b.bob.ID) + `]::bigint[], ARRAY[7, -7]::bigint[])`,
		}, db.ErrNotFound},
		{"an unbalanced transaction through the function", []string{
			`SELECT tally_journal_post(` + tid + `, 'payout', NULL, '', '{}', 1, ARRAY[` + fmtInt(b.ann.ID) + `]::bigint[], ARRAY[7]::bigint[])`,
		}, db.ErrUnbalanced},
		{"move balances outside the function", []string{
			`SELECT set_config('tally.posting', 'off', true)`,
			`UPDATE accounts SET balance = balance + 1 WHERE id IN (` + fmtInt(b.ann.ID) + `, ` + fmtInt(b.bob.ID) + `)`,
		}, db.ErrAppendOnly},
	}
	// As the runtime role Tally serves as, every write around the function
	// is refused for want of privilege; as the schema's owner, the guards
	// refuse it.
	owner, err := pgxpool.New(ctx, dbtest.OwnerDSN(t, b.dsn))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	for _, tc := range cases {
		runtimeWant := tc.want
		if !strings.Contains(strings.Join(tc.sqls, ";"), "tally_journal_post") {
			runtimeWant = db.ErrForbidden
		}
		for _, as := range []struct {
			role string
			pool *pgxpool.Pool
			want error
		}{{"runtime", b.pool, runtimeWant}, {"owner", owner, tc.want}} {
			err := commit(ctx, as.pool, tc.sqls...)
			if err == nil {
				t.Errorf("%s as %s: the database accepted it", tc.name, as.role)
				continue
			}
			if got := db.SentinelFor(err); got != as.want {
				t.Errorf("%s as %s: err = %v (sentinel %v), want %v", tc.name, as.role, err, got, as.want)
			}
		}
	}
	var sum, balance int64
	if err := owner.QueryRow(ctx, `SELECT sum(amount) FROM postings`).Scan(&sum); err != nil || sum != 0 {
		t.Fatalf("postings sum to %d after refusals (err %v)", sum, err)
	}
	if err := b.pool.QueryRow(ctx, `SELECT balance FROM accounts WHERE table_id = $1 AND id = $2`, b.table.ID, b.ann.ID).Scan(&balance); err != nil || balance != -5 {
		t.Fatalf("Ann's balance %d after refusals (err %v), want -5", balance, err)
	}
}

// TestAnUnbalancedEntryIsRefusedAndMovesNothing writes a journal entry whose
// postings do not balance through the generated query: the statement fails
// with ErrUnbalanced and no balance moves.
func TestAnUnbalancedEntryIsRefusedAndMovesNothing(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	ctx := context.Background()
	batch := db.NewBatch(ctx)
	batch.Begin()
	batch.JournalInsert(b.table.ID, db.JournalEntry{Kind: "payout", Postings: []db.Posting{{AccountID: b.ann.ID, Amount: 5}}})
	batch.Commit()
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if err := batch.Send(conn); !errors.Is(err, db.ErrUnbalanced) {
		t.Fatalf("err = %v, want db.ErrUnbalanced", err)
	}
	if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	var balance int64
	if err := b.pool.QueryRow(ctx, `SELECT balance FROM accounts WHERE table_id = $1 AND id = $2`, b.table.ID, b.ann.ID).Scan(&balance); err != nil || balance != -5 {
		t.Fatalf("Ann's balance %d after the refused entry (err %v), want -5", balance, err)
	}
}

func TestZeroPostingCarryIsAllowed(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	err := commit(context.Background(), b.pool,
		`SELECT tally_journal_post(`+fmtInt(b.table.ID)+`, 'carry', NULL, 'all tie', '{"pot":10}', 1, '{}', '{}')`)
	if err != nil {
		t.Fatalf("carry marker refused: %v", err)
	}
}

// fmtInt formats an id for inline SQL in these tests.
func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }
