package ledger

import (
	"errors"

	"github.com/tally-dice/tally/db"
)

// The ledger's business errors, wrapped with details by the functions that
// return them. The HTTP layer maps them to statuses in one place.
var (
	// ErrInsufficientFunds refuses a movement that would take a player
	// below zero at a table with the no_overdraft option.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrInvalidAmount refuses a zero or negative amount, or a malformed
	// list of amounts (a player named twice, no players at all).
	ErrInvalidAmount = errors.New("invalid amount")
	// ErrTableNotFound means the table does not exist.
	ErrTableNotFound = errors.New("table not found")
	// ErrTableClosed refuses game movements at a closed table.
	ErrTableClosed = errors.New("table is closed")
	// ErrUnknownPlayer means a player is not seated at the table.
	ErrUnknownPlayer = errors.New("player is not at this table")
	// ErrPotEmpty refuses a payout or split when the pot holds too little
	// to give anyone a unit.
	ErrPotEmpty = errors.New("pot is empty")
	// ErrPotNotEmpty refuses a settle-up while money is still in the pot.
	ErrPotNotEmpty = errors.New("pot is not empty")
	// ErrIdempotencyInFlight means another request with the same key is
	// being processed right now.
	ErrIdempotencyInFlight = errors.New("a request with this idempotency key is in progress")
	// ErrIdempotencyMismatch means the key was used before for a different
	// request.
	ErrIdempotencyMismatch = errors.New("idempotency key reused for a different request")
	// ErrNonInteger refuses an audit payload with a non-integer number: the
	// canonical encoding admits integers only (amounts are integer units).
	ErrNonInteger = errors.New("audit payload numbers must be integers")
	// ErrContention is returned when a transaction kept failing with
	// serialization failures or deadlocks after every retry.
	ErrContention = errors.New("database contention: retries exhausted")
)

// errorsIsNotFound reports whether a db function found no row.
func errorsIsNotFound(err error) bool { return errors.Is(err, db.ErrNotFound) }
