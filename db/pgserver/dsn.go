package pgserver

import (
	"fmt"
	"net/url"
	"strings"
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
