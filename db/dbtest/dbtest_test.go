package dbtest

import (
	"context"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

func TestDatabaseIsMigratedAndDroppedAfterTheTest(t *testing.T) {
	ctx := context.Background()
	var name string
	t.Run("user", func(t *testing.T) {
		pool := Pool(t)
		var tables int
		err := pool.QueryRow(ctx, `SELECT current_database(), count(*) FROM pg_tables WHERE tablename IN ('tables', 'postings', 'events')`).Scan(&name, &tables)
		if err != nil || tables != 3 {
			t.Fatalf("test database %q has %d of the 3 tables checked (err %v)", name, tables, err)
		}
	})
	var exists bool
	err := shared.admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists)
	if err != nil || exists {
		t.Fatalf("database %q still exists after its test (err %v)", name, err)
	}
}

func TestWithDatabase(t *testing.T) {
	cases := []struct{ in, want string }{
		{"postgres://u:p@h:5/postgres?sslmode=disable", "postgres://u:p@h:5/x?sslmode=disable"},
		{"postgresql://h/db", "postgresql://h/x"},
		{"host=h dbname=postgres", "host=h dbname=postgres dbname=x"},
	}
	for _, tc := range cases {
		got, err := withDatabase(tc.in, "x")
		if err != nil || got != tc.want {
			t.Errorf("withDatabase(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
