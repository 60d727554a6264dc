package db_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/ledger"
)

// TestTheSchemaListsEveryKindOnce: the CHECK constraints of the migrated
// schema take exactly the movement kinds package ledger declares
// (ledger.Kinds) and the games package db names (db.Games), no more and
// no fewer.
func TestTheSchemaListsEveryKindOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dbtest.OwnerDSN(t, dbtest.DSN(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	quoted := regexp.MustCompile(`'([a-z_]+)'::text`)
	listed := func(constraint string) []string {
		var def string
		if err := pool.QueryRow(ctx, `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = $1`, constraint).Scan(&def); err != nil {
			t.Fatalf("%s: %v", constraint, err)
		}
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(def, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	var kinds []string
	for _, k := range ledger.Kinds {
		kinds = append(kinds, string(k))
	}
	slices.Sort(kinds)
	if got := listed("journal_transactions_kind_check"); !slices.Equal(got, kinds) {
		t.Errorf("journal_transactions.kind takes %v; ledger.Kinds are %v", got, kinds)
	}
	games := slices.Sorted(slices.Values(db.Games))
	if got := listed("tables_game_check"); !slices.Equal(got, games) {
		t.Errorf("tables.game takes %v; db.Games are %v", got, games)
	}
}
