package dbtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// LoadFixture loads the rows of file (SQL as `pg_dump --data-only
// --inserts` writes it) into the database of dsn, as the schema's owner
// and with the triggers that would check or move them again off, and then
// moves every time the rows hold to the present: the newest becomes now and
// the rest keep their distance from it. A fixture read on a later day thus
// reads as if it had just been written, and nothing in it (a stored
// answer's age, a recovery code's expiry) depends on the day the test runs.
//
// The events' times are the one exception: each event's hash covers its
// time, so they stay as written, as history does, and only move now's
// reference point (the newest time counts them too).
func LoadFixture(t testing.TB, dsn, file string, now time.Time) {
	t.Helper()
	ctx := context.Background()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, OwnerDSN(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// The rows are as they were stored, balances included: the triggers
	// that would move the balances again stay off while they load.
	if _, err := conn.PgConn().Exec(ctx, "SET session_replication_role = replica;\n"+string(data)).ReadAll(); err != nil {
		t.Fatalf("loading %s: %v", file, err)
	}
	if err := moveToPresent(ctx, conn, now); err != nil {
		t.Fatalf("moving the times of %s to the present: %v", file, err)
	}
	if _, err := conn.Exec(ctx, "SET session_replication_role = origin"); err != nil {
		t.Fatal(err)
	}
}

// timeColumn is a column of the schema holding a point in time.
type timeColumn struct{ table, column string }

// hashed says whether the column's values are covered by a hash, and so
// cannot move.
func (c timeColumn) hashed() bool { return c.table == "events" && c.column == "created_at" }

// moveToPresent shifts every time stored in the schema's tables by one
// amount, so that the newest is now; hashed times stay.
func moveToPresent(ctx context.Context, conn *pgx.Conn, now time.Time) error {
	rows, err := conn.Query(ctx, `SELECT c.table_name::text, c.column_name::text
		FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
		  AND c.data_type IN ('timestamp with time zone', 'timestamp without time zone')
		ORDER BY 1, 2`)
	if err != nil {
		return err
	}
	cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (timeColumn, error) {
		var c timeColumn
		return c, r.Scan(&c.table, &c.column)
	})
	if err != nil || len(cols) == 0 {
		return err
	}
	newest := make([]string, len(cols))
	for i, c := range cols {
		newest[i] = fmt.Sprintf("(SELECT max(%s)::timestamptz FROM %s)", ident(c.column), ident(c.table))
	}
	var latest *time.Time
	if err := conn.QueryRow(ctx, "SELECT greatest("+strings.Join(newest, ", ")+")").Scan(&latest); err != nil {
		return err
	}
	if latest == nil {
		return nil // no row holds a time
	}
	shift := now.Sub(*latest)
	for _, c := range cols {
		if c.hashed() {
			continue
		}
		q := fmt.Sprintf("UPDATE %s SET %s = %s + $1::interval", ident(c.table), ident(c.column), ident(c.column))
		if _, err := conn.Exec(ctx, q, fmt.Sprintf("%d microseconds", shift.Microseconds())); err != nil {
			return fmt.Errorf("%s.%s: %w", c.table, c.column, err)
		}
	}
	return nil
}

// ident quotes a name for SQL.
func ident(name string) string { return pgx.Identifier{name}.Sanitize() }
