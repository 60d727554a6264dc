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
