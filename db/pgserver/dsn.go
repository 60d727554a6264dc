package pgserver

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
)

// WithDatabase returns dsn pointing at another database on the same
// server, for URL and keyword/value connection strings alike.
func WithDatabase(dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("parse %s: %w", Redact(dsn), err)
		}
		u.Path = "/" + name
		return u.String(), nil
	}
	// In keyword/value form a later keyword overrides an earlier one.
	return dsn + " dbname=" + name, nil
}

// Redact names a server for messages without its password: a URL with the
// password hidden, or "the configured server".
func Redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		return u.Redacted()
	}
	return "the configured server"
}

// CreateDatabases makes the named databases on the server dsn reaches,
// unless they exist already.
func CreateDatabases(ctx context.Context, dsn string, names ...string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", Redact(dsn), err)
	}
	defer conn.Close(ctx)
	for _, name := range names {
		var exists bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
				return err
			}
		}
	}
	return nil
}

// WithUser returns dsn connecting as another role (with its password, when
// password is not empty), for URL and keyword/value strings alike.
func WithUser(dsn, user, password string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("parse %s: %w", Redact(dsn), err)
		}
		u.User = url.User(user)
		if password != "" {
			u.User = url.UserPassword(user, password)
		}
		return u.String(), nil
	}
	quote := func(s string) string { return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'" }
	dsn += " user=" + quote(user)
	if password != "" {
		dsn += " password=" + quote(password)
	}
	return dsn, nil
}
