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
	runtime := dbtest.DSN(t)
	admin, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, runtime))
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
	empty, err := pgserver.WithDatabase(runtime, name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := openDatabase(ctx, config{DatabaseURL: empty}, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.migrate(ctx); err == nil || !strings.Contains(err.Error(), "--migrate-database-url") {
		t.Fatalf("migrating as the runtime role: %v", err)
	}
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
