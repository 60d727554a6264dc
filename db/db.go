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
// The schema enforces the ledger's rules itself, so that no bug in Go can
// break them:
//   - money moves only through one function, tally_journal_post, which
//     writes a journal transaction, its postings and the balances they move
//     in one call, and refuses postings that do not sum to zero, a movement
//     with no postings (but a carry-over marker or an empty round
//     settlement), and an account or round of another table
//     (ErrUnbalanced, ErrNotFound). Journal rows, postings and balances
//     written any other way are refused (ErrUnbalanced, ErrAppendOnly);
//   - journal transactions, postings and audit events are append-only
//     (ErrAppendOnly);
//   - a guarded change (a seat claimed, a table closed, a round settled)
//     that finds its row not as the service saw it under the table's lock
//     fails its statement, and so the transaction, instead of committing
//     half a write (tally_expect; ErrNotFound).
//
// These guards stop mistakes, not someone who can type SQL as Tally's own
// role: the function announces itself with a setting any session can set.
// Keeping the app role out of history is the tamper-evidence issue's work.
package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

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
	// the work now (down, restarting, out of connections or disk, or
	// unable to load a library such as PL/pgSQL); the same request may
	// succeed later.
	ErrUnavailable = errors.New("the database is unavailable")
	// ErrForbidden means the role Tally serves as may not do that: change or
	// remove history, move a balance but through tally_journal_post, or
	// alter the schema (migration 4's grants).
	ErrForbidden = errors.New("the database role may not do that")
	// ErrRetry means PostgreSQL aborted the transaction only because of
	// another one (a serialization failure or a deadlock): run it again.
	ErrRetry = errors.New("transaction aborted by a concurrent one")
	// ErrCorrupt means a stored row does not read as what it must be (a
	// Battleship Royale game's setup or action changed behind Tally's
	// back): the service reports the table's history as broken.
	ErrCorrupt = errors.New("a stored row does not read")
)

// SQLSTATE codes raised by the schema's triggers and PostgreSQL.
const (
	codeAppendOnly      = "TL001"
	codeUnbalanced      = "TL002"
	codeUniqueViolation = "23505"
	codeForbidden       = "42501" // insufficient_privilege
	codeForeignKey      = "23503"
	codeNoData          = "P0002" // tally_expect: a guarded change found its row changed
	codeDiskFull        = "53100"
)

// loaderSource is the source file of PostgreSQL's loader of libraries
// (dfmgr.c), which every error it raises names: "could not load library",
// "could not access file", "incompatible library".
const loaderSource = "dfmgr.c"

// Unique keys whose collisions callers tell apart (ConflictOn).
const (
	KeyPlayerName  = "players_name_key" // a name among the players still seated, ignoring case
	KeyJoinCode    = "join_codes_pkey"  // a join code
	KeyIdempotency = "idempotency_keys_pkey"
)

// ConflictOn names the unique key an ErrConflict collided with, or "".
func ConflictOn(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == codeUniqueViolation {
		name := pgErr.ConstraintName
		if name == "" { // Citus passes a shard's message on, not its fields
			if _, after, ok := strings.Cut(pgErr.Message, `unique constraint "`); ok {
				name, _, _ = strings.Cut(after, `"`)
			}
		}
		return unsharded(name)
	}
	return ""
}

// unsharded is a constraint's name as the schema names it: Citus names a
// shard's copy after it with the shard's number (join_codes_pkey_102364).
func unsharded(name string) string {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// DiskFull reports whether err is PostgreSQL refusing work for lack of disk
// space (disk_full, SQLSTATE 53100): an ErrUnavailable that lasts until
// someone frees space, which readiness reports.
func DiskFull(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == codeDiskFull
}

// CannotLoad reports whether err is PostgreSQL failing to load a library
// (PL/pgSQL after the server's package was upgraded under it): every write
// calls Tally's PL/pgSQL functions, so none can go through on that
// connection.
func CannotLoad(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.File == loaderSource
}

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
		case CannotLoad(err):
			// A library the server cannot load (PL/pgSQL after the
			// server's package was upgraded under it). Checked first:
			// the SQLSTATE is whatever errno the loader was left with,
			// which may read as insufficient_privilege.
			return ErrUnavailable
		case code == codeAppendOnly:
			return ErrAppendOnly
		case code == codeUnbalanced:
			return ErrUnbalanced
		case code == codeForbidden:
			return ErrForbidden
		case code == codeUniqueViolation:
			return ErrConflict
		case code == codeForeignKey, code == codeNoData:
			// A row that refers to a missing one (an account the table
			// does not have, say), or a guarded change whose row was not
			// as expected: the missing row is what the caller hears about.
			return ErrNotFound
		case code == "40001" || code == "40P01":
			return ErrRetry
		case code[:2] == "08" || code[:2] == "53" || code[:2] == "57" || code[:2] == "58" || code == "55P03":
			// Connection failures, insufficient resources (53100 disk
			// full, 53200 out of memory, 53300 too many connections),
			// operator intervention (57P01 shutdown, 57P03 starting up or
			// shutting down, a cancelled query), system errors outside
			// PostgreSQL (58030 I/O error, 58P01 a file missing) and lock
			// waits that timed out.
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
