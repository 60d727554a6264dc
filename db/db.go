// Package db is Tally's storage: the schema (embedded migrations), the
// queries over it, and the plumbing to send them.
//
// The queries are written in SQL, one file per table under queries/, and
// compiled by sqlc into internal/dbsqlc; `go generate ./db` regenerates it
// and `make test` fails when it is stale. Every statement that touches a
// table's data names the table id, the key every row of it leads with. The
// generated rows never leave this package: the queueing methods of Batch
// (one file per table) convert them to the domain types defined here, whose
// player ids are the engine's and whose round setups, actions and game
// states are the engine's values.
//
// Work is sent in batches: a Batch holds any number of statements and goes
// to PostgreSQL in one round trip (see Batch).
//
// The schema enforces the ledger's rules itself, so that no bug in Go (and
// no one typing SQL) can break them:
//   - a journal transaction's postings sum to zero when the statement that
//     writes them ends, and every journal transaction but a carry-over
//     marker or an empty round settlement has postings, checked at commit
//     (ErrUnbalanced);
//   - journal transactions, postings and audit events are append-only, and
//     an account balance moves only with postings (ErrAppendOnly): a
//     statement-level trigger adds each statement's postings to the
//     balances, in the same transaction;
//   - a posting can only touch an account of its transaction's own table
//     (composite foreign keys).
package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

//go:generate go tool sqlc generate

// Errors returned (wrapped) by Batch.Send and the other functions here.
var (
	// ErrNotFound means a row that must exist does not.
	ErrNotFound = errors.New("not found")
	// ErrConflict means a unique key is taken (a seat, a name, a join code,
	// an idempotency key).
	ErrConflict = errors.New("already exists")
	// ErrAppendOnly means the statement tried to change or remove a journal
	// row, a posting, an audit event or a balance directly.
	ErrAppendOnly = errors.New("append-only data cannot be changed")
	// ErrUnbalanced means a journal transaction's postings did not sum to
	// zero.
	ErrUnbalanced = errors.New("journal transaction does not balance")
	// ErrUnavailable means the database cannot be reached or cannot take
	// the work now (down, restarting, out of connections or disk); the same
	// request may succeed later.
	ErrUnavailable = errors.New("the database is unavailable")
	// ErrRetry means PostgreSQL aborted the transaction only because of
	// another one (a serialization failure or a deadlock): run it again.
	ErrRetry = errors.New("transaction aborted by a concurrent one")
)

// SQLSTATE codes raised by the schema's triggers and PostgreSQL.
const (
	codeAppendOnly      = "TL001"
	codeUnbalanced      = "TL002"
	codeUniqueViolation = "23505"
	codeForeignKey      = "23503"
)

// interpretError turns driver errors into this package's sentinel errors,
// keeping the original error in the chain for its details.
func interpretError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	if sentinel := SentinelFor(err); sentinel != nil && !errors.Is(err, sentinel) {
		return fmt.Errorf("%w: %w", sentinel, err)
	}
	return err
}

// SentinelFor maps a PostgreSQL or connection error to the sentinel it
// stands for, or nil.
func SentinelFor(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch code := pgErr.Code; {
		case code == codeAppendOnly:
			return ErrAppendOnly
		case code == codeUnbalanced:
			return ErrUnbalanced
		case code == codeUniqueViolation:
			return ErrConflict
		case code == codeForeignKey:
			// A row that refers to a missing one (a player who is not
			// seated at the table, say): the missing row is what the
			// caller hears about.
			return ErrNotFound
		case code == "40001" || code == "40P01":
			return ErrRetry
		case code[:2] == "08" || code[:2] == "53" || code[:2] == "57" || code == "55P03":
			// Connection failures, insufficient resources (disk full, too
			// many connections), operator intervention (shutdown, a
			// cancelled query) and lock waits that timed out.
			return ErrUnavailable
		}
		return nil
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connectErr), errors.As(err, &netErr), pgconn.SafeToRetry(err),
		errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, net.ErrClosed):
		return ErrUnavailable
	}
	return nil
}
