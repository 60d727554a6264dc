package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/db/pgserver"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestTallydWarnsWhenItsRoleCanRewriteHistory: served as the runtime role
// (migrated as the owner) tallyd says nothing; served as the schema's
// owner, it says loudly that the database trusts it with history.
func TestTallydWarnsWhenItsRoleCanRewriteHistory(t *testing.T) {
	ctx := context.Background()
	runtime := dbtest.DSN(t)
	owner := dbtest.OwnerDSN(t, runtime)
	for _, c := range []struct {
		name, serve, migrate string
		warned               bool
	}{
		{"the runtime role", runtime, owner, false},
		{"the owner", owner, "", true},
	} {
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		d, err := openDatabase(ctx, config{DatabaseURL: c.serve, MigrateURL: c.migrate}, log)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.migrate(ctx); err != nil {
			t.Fatalf("%s: migrate: %v", c.name, err)
		}
		pool, err := openPool(ctx, d.dsn, 2)
		if err != nil {
			t.Fatal(err)
		}
		warnOverreach(ctx, pool, log)
		pool.Close()
		if got := strings.Contains(logs.String(), "LEAST PRIVILEGE"); got != c.warned {
			t.Errorf("serving as %s: warned %v, want %v\n%s", c.name, got, c.warned, logs.String())
		}
	}
}

// TestMigratingAsTheRuntimeRoleSaysHow: a database with migrations to run
// and only the runtime role's connection is refused with what to do.
func TestMigratingAsTheRuntimeRoleSaysHow(t *testing.T) {
	ctx := context.Background()
	empty, _ := emptyDatabase(t)
	d, err := openDatabase(ctx, config{DatabaseURL: empty}, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.migrate(ctx); err == nil || !strings.Contains(err.Error(), "--migrate-database-url") {
		t.Fatalf("migrating as the runtime role: %v", err)
	}
}

// TestMigrateUpSaysWhenHistoryNeedsSealing: `tallyd migrate up` from
// before migration 4 says to run `tallyd seal-legacy`; on a fresh, empty
// database, which has no history written before seals, it does not.
func TestMigrateUpSaysWhenHistoryNeedsSealing(t *testing.T) {
	_, empty := emptyDatabase(t)
	for _, c := range []struct {
		name, owner string
		says        bool
	}{
		{"an empty database", empty, false},
		{"a database at version 3", dbtest.OwnerDSN(t, dbtest.DSNAt(t, 3)), true},
	} {
		var out, errOut strings.Builder
		if code := run([]string{"migrate", "up", "--database-url", c.owner}, &out, &errOut); code != 0 {
			t.Fatalf("%s: migrate up: exit %d: %s", c.name, code, errOut.String())
		}
		if !strings.HasPrefix(out.String(), "version ") {
			t.Errorf("%s: migrate up printed %q, want the version", c.name, out.String())
		}
		if says := strings.Contains(out.String(), "seal-legacy"); says != c.says {
			t.Errorf("%s: says to seal %v, want %v: %q", c.name, says, c.says, out.String())
		}
	}
}

// emptyDatabase makes a database with no schema, dropped when the test
// ends, and returns its connection strings as the runtime role and as the
// server's administrator.
func emptyDatabase(t *testing.T) (runtime, owner string) {
	t.Helper()
	ctx := context.Background()
	test := dbtest.DSN(t)
	admin, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, test))
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("tally_empty_%d", admin.PgConn().PID())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		admin.Close(context.Background())
	})
	runtime, err = pgserver.WithDatabase(test, name)
	if err == nil {
		owner, err = pgserver.WithDatabase(admin.Config().ConnString(), name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return runtime, owner
}

// TestSealLegacyCommand: `tallyd seal-legacy` on a database with nothing
// from before migration 4 seals nothing, and says so.
func TestSealLegacyCommand(t *testing.T) {
	runtime := dbtest.DSN(t)
	var out bytes.Buffer
	cfg := config{DatabaseURL: runtime, MigrateURL: dbtest.OwnerDSN(t, runtime), SecretFile: t.TempDir() + "/secret.key"}
	if err := sealLegacyCommand(context.Background(), cfg, slog.Default(), &out); err != nil || !strings.Contains(out.String(), "sealed 0 events") {
		t.Fatalf("seal-legacy: %v: %s", err, out.String())
	}
}
