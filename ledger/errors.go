package ledger

import "errors"

// The ledger's refusals, wrapped with details by the functions that return
// them. The HTTP layer maps them to statuses in one place.
var (
	// ErrInsufficientFunds refuses an entry that would take a player below
	// zero at a table with the no_overdraft option.
	ErrInsufficientFunds = errors.New("insufficient funds")
	// ErrInvalidAmount refuses a zero or negative amount, a payment to
	// oneself, or a balance beyond MaxBalance.
	ErrInvalidAmount = errors.New("invalid amount")
	// ErrUnknownPlayer means an entry names a player who has no account at
	// the table.
	ErrUnknownPlayer = errors.New("player is not at this table")
	// ErrPotEmpty refuses an entry that would take more from the pot than
	// it holds.
	ErrPotEmpty = errors.New("pot is empty")
	// ErrPotNotEmpty refuses a settle-up while money is still in the pot.
	ErrPotNotEmpty = errors.New("pot is not empty")
	// ErrUnbalanced refuses an entry whose lines do not sum to zero.
	ErrUnbalanced = errors.New("the entry does not balance")
)
