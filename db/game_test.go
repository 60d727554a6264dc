package db_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
)

// TestTheGameOfStoredTables: migration 13 names the game of every table
// stored before it as the service used to tell it: a crew (kind 'crew')
// plays crew, a table with Battleship Royale options royale, any other
// (a crew's night too) dice. On Citus the database is distributed at
// version 12 already, as `tallyd migrate up --citus` left it, and the
// migrations fill in and check the column on every shard of tables, and
// drop kind (migration 14).
func TestTheGameOfStoredTables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.DSNAt(t, 12)
	owner := dbtest.OwnerDSN(t, dsn)
	if dbtest.Citus() {
		if _, err := db.Distribute(ctx, owner); err != nil {
			t.Fatalf("distribute at version 12: %v", err)
		}
	}
	old, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	// Made as migration 12's schema has them.
	insert := func(code, kind string, royale, crew any) int64 {
		t.Helper()
		var id int64
		if err := old.QueryRow(ctx, `INSERT INTO tables (name, ruleset, currency, join_code, host_token_hash, audit_token_hash, kind, royale, crew)
			VALUES ('Table ' || $1, '{}', 'units', $1, $2, $3, $4, $5, $6) RETURNING id`,
			code, hash32("host"+code), hash32("audit"+code), kind, royale, crew).Scan(&id); err != nil {
			t.Fatalf("table %s: %v", code, err)
		}
		return id
	}
	dice := insert("GDICE", "table", nil, nil)
	royale := insert("GROYAL", "table", `{"mode": "standard"}`, nil)
	crew := insert("GCREW", "crew", nil, nil)
	night := insert("GNIGHT", "table", nil, crew)
	old.Close(ctx)

	if v, want := dbtest.Upgrade(t, dsn), latestMigration(t); v != want {
		t.Fatalf("upgraded to version %d, want %d", v, want)
	}
	if dbtest.Citus() {
		// The tables the migrations made since are distributed by the
		// Distribute that follows them (dbtest.Upgrade, as tallyd's --citus).
		for _, tbl := range []string{"payment_handles", "payment_claims"} {
			var on bool
			if err := pgxConnQueryBool(ctx, owner, `SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass($1))`, "public."+tbl, &on); err != nil {
				t.Fatal(err)
			}
			if !on {
				t.Errorf("%s is not distributed after the upgrade", tbl)
			}
		}
	}
	conn, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	want := map[int64]string{dice: db.GameDice, royale: db.GameRoyale, crew: db.GameCrew, night: db.GameDice}
	rows, err := conn.Query(ctx, "SELECT id, game FROM tables")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for rows.Next() {
		var id int64
		var g string
		if err := rows.Scan(&id, &g); err != nil {
			t.Fatal(err)
		}
		got[id] = g
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for id, g := range want {
		if got[id] != g {
			t.Errorf("table %d plays %q, want %q", id, got[id], g)
		}
	}
	var kind bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name = 'tables' AND column_name = 'kind')`).Scan(&kind); err != nil || kind {
		t.Errorf("tables.kind is still there (%v)", err)
	}
	// The checks hold on the stored rows as on new ones.
	for _, c := range []struct {
		what, stmt string
		id         int64
	}{
		{"a Battleship Royale table without its options", "UPDATE tables SET royale = NULL WHERE id = $1", royale},
		{"a crew that is a night of a crew", "UPDATE tables SET crew = $1 WHERE id = $1", crew},
	} {
		var pgErr *pgconn.PgError
		if _, err := conn.Exec(ctx, c.stmt, c.id); !errors.As(err, &pgErr) || pgErr.Code != "23514" {
			t.Errorf("%s: %v, want a check violation", c.what, err)
		}
	}
	if !dbtest.Citus() {
		return
	}
	var shards, checked int
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE success AND result = '3')
		FROM run_command_on_shards('public.tables', $1)`,
		`SELECT count(*) FROM pg_constraint WHERE conrelid = '%s'::regclass AND conname LIKE 'tables%%game%%'`).Scan(&shards, &checked); err != nil {
		t.Fatal(err)
	}
	if shards == 0 || checked != shards {
		t.Fatalf("the game's three checks are on %d of tables' %d shards", checked, shards)
	}
}

// pgxConnQueryBool reads one boolean on a connection of its own.
func pgxConnQueryBool(ctx context.Context, dsn, sql string, arg any, out *bool) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return conn.QueryRow(ctx, sql, arg).Scan(out)
}
