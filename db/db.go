// Package db holds Tally's schema (embedded migrations), the query functions
// over it, and the plumbing they share.
//
// Every query function takes a DBTX as its first argument after the context,
// so it runs on a pool, a connection or inside a transaction alike; callers
// that need several statements to be atomic pass a pgx.Tx. Rows come back as
// plain structs defined here; callers never see pgx rows.
//
// The schema enforces the ledger's rules itself, so that no bug in Go (and no
// one typing SQL) can break them:
//   - every journal transaction's postings sum to zero, checked at commit by
//     a deferred constraint trigger (ErrUnbalanced);
//   - journal transactions, postings and audit events are append-only, and an
//     account balance moves only through a posting (ErrAppendOnly);
//   - a posting can only touch an account of the transaction's own table
//     (composite foreign keys).
//
// Account balances are kept by an AFTER INSERT trigger on postings, in the
// same transaction, so they always equal the sum of the account's postings.
package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DBTX is what every query function runs on: *pgxpool.Pool, *pgx.Conn and
// pgx.Tx all satisfy it.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Errors returned (wrapped) by the query functions.
var (
	// ErrNotFound means the row asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict means a unique key is taken (a seat, a name, a join code).
	ErrConflict = errors.New("already exists")
	// ErrAppendOnly means the statement tried to change or remove a journal
	// row, a posting, an audit event or a balance directly.
	ErrAppendOnly = errors.New("append-only data cannot be changed")
	// ErrUnbalanced means a journal transaction's postings did not sum to
	// zero at commit.
	ErrUnbalanced = errors.New("journal transaction does not balance")
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
	if sentinel := SentinelFor(err); sentinel != nil {
		return fmt.Errorf("%w: %w", sentinel, err)
	}
	return err
}

// SentinelFor maps a PostgreSQL error to the sentinel it stands for, or nil.
// Callers that commit transactions themselves use it on the commit error,
// where the deferred balance check reports.
func SentinelFor(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return nil
	}
	switch pgErr.Code {
	case codeAppendOnly:
		return ErrAppendOnly
	case codeUnbalanced:
		return ErrUnbalanced
	case codeUniqueViolation:
		return ErrConflict
	case codeForeignKey:
		// A row that refers to a missing one (a player who is not seated at
		// the table, say): the missing row is what the caller hears about.
		return ErrNotFound
	}
	return nil
}
