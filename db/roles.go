package db

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// RuntimeGroup is the role migration 4 makes and grants what serving
// needs: tallyd serves as a login role that is a member of it and owns
// nothing (README, "Database roles").
const RuntimeGroup = "tally_runtime"

// EnsureRuntimeLogin makes sure the login role name exists, is a member of
// RuntimeGroup and has password (none when empty), connecting as an owner
// of the server's roles at ownerDSN; after the migrations, which make the
// group.
func EnsureRuntimeLogin(ctx context.Context, ownerDSN, name, password string) error {
	conn, err := pgx.Connect(ctx, ownerDSN)
	if err != nil {
		return fmt.Errorf("%w: connect: %w", ErrUnavailable, err)
	}
	defer conn.Close(ctx)
	role := pgx.Identifier{name}.Sanitize()
	pw := "NULL"
	if password != "" {
		pw = "'" + strings.ReplaceAll(password, "'", "''") + "'"
	}
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	stmts := []string{"ALTER ROLE " + role + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD " + pw}
	if !exists {
		stmts[0] = "CREATE ROLE " + role + " LOGIN PASSWORD " + pw
	}
	stmts = append(stmts, "GRANT "+RuntimeGroup+" TO "+role)
	for _, sql := range stmts {
		if _, err := conn.Exec(ctx, sql); err != nil && !strings.Contains(err.Error(), "already exists") {
			return fmt.Errorf("runtime role %s: %w", name, err)
		}
	}
	return nil
}

// Overreach lists what the role serving on conn can do that it should not:
// own the schema, be a superuser, bypass row security, or change or remove
// history. Empty means least privilege.
func Overreach(ctx context.Context, conn interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) ([]string, error) {
	var super, owns, rewrites, creates bool
	var role string
	err := conn.QueryRow(ctx, `
SELECT current_user, r.rolsuper OR r.rolbypassrls,
       EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = 'public' AND c.relname IN ('events', 'journal_transactions', 'postings', 'accounts')
                 AND pg_has_role(current_user, c.relowner, 'USAGE')),
       has_table_privilege('events', 'UPDATE, DELETE, TRUNCATE, TRIGGER')
         OR has_table_privilege('journal_transactions', 'INSERT, UPDATE, DELETE, TRUNCATE, TRIGGER')
         OR has_table_privilege('postings', 'INSERT, UPDATE, DELETE, TRUNCATE, TRIGGER')
         OR has_column_privilege('accounts', 'balance', 'UPDATE')
         OR has_table_privilege('turns', 'UPDATE, DELETE, TRUNCATE')
         OR has_table_privilege('round_actions', 'UPDATE, DELETE, TRUNCATE')
         -- An account may be inserted (migration 5) only while the
         -- schema's own trigger makes it open empty.
         OR (has_column_privilege('accounts', 'balance', 'INSERT')
             AND NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'accounts'::regclass
                             AND tgname = 'accounts_open_empty' AND tgenabled <> 'D')),
       has_schema_privilege('public', 'CREATE') OR has_database_privilege(current_database(), 'TEMPORARY')
FROM pg_roles r WHERE r.rolname = current_user`).Scan(&role, &super, &owns, &rewrites, &creates)
	if err != nil {
		return nil, err
	}
	var out []string
	if super {
		out = append(out, fmt.Sprintf("role %s is a superuser (or bypasses row security)", role))
	}
	if owns {
		out = append(out, fmt.Sprintf("role %s owns the schema: it can disable the triggers that keep history append-only", role))
	}
	if rewrites {
		out = append(out, fmt.Sprintf("role %s may change or remove history, or move balances, directly", role))
	}
	if creates {
		out = append(out, fmt.Sprintf("role %s may create objects in schema public or temporary tables, which could stand in for Tally's own", role))
	}
	return out, nil
}
