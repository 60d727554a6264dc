package table

import (
	"errors"

	"github.com/tally-dice/tally/ledger"
)

// The service's errors, wrapped with details. Package api maps them, and
// the engine's (package game), to HTTP in one place.
var (
	ErrInvalid      = errors.New("invalid request")
	ErrNotFound     = errors.New("not found")
	ErrUnknownToken = errors.New("unknown token")
	ErrForbidden    = errors.New("not allowed")
	ErrTableClosed  = errors.New("table is closed")
	ErrRoundPlaying = errors.New("a round is being played")
	ErrNoRound      = errors.New("no round is being played")
	ErrNameTaken    = errors.New("name taken")
	ErrKeyMismatch  = errors.New("idempotency key reused for a different request")
	ErrUnavailable  = errors.New("the database is unavailable")
	// ErrDiskFull means the database is short of disk space (Ready): it
	// refused a write for lack of it, or its disk is nearly full.
	ErrDiskFull      = errors.New("the database is short of disk space")
	ErrHistoryBroken = errors.New("the table's stored history no longer replays; its audit shows where it breaks")
	// ErrChanged means a guard in the database refused a write because
	// what it acts on was not as the service read it under the table's
	// lock. It should not happen; nothing was written.
	ErrChanged = errors.New("the table changed while the request was written")
	// ErrTurnRecorded refuses a turn, or a throw or stand of it, sent again
	// once the turn is over (under a new Idempotency-Key: the same key
	// replays the answer).
	ErrTurnRecorded = errors.New("the turn is already recorded")
	// ErrRecordedSince refuses a write of play entered against a state
	// the table has moved on from: the write said how many actions it
	// had seen (seen.go), and more were recorded since, by another phone
	// or by this one under another Idempotency-Key. Its message says what
	// was recorded and by whose phone, as the caller may know it.
	ErrRecordedSince = errors.New("recorded since the phone's view")
	// ErrGameUnderway refuses a change of seats while a game of rounds is
	// being played: the totals would no longer compare (game.Reseat).
	ErrGameUnderway = errors.New("a game of rounds is under way")
	// ErrWrongGame refuses a dice request at a Battleship Royale table,
	// and a Battleship Royale request at a dice table.
	ErrWrongGame = errors.New("the table plays another game")
	// ErrNotCorrectable refuses a correction of what cannot be corrected
	// (any more): a round that is not the latest, a movement of money
	// reversed already, an action of a round that was reversed.
	ErrNotCorrectable = errors.New("cannot be corrected")
)

// The ledger's refusals, as the service reports them.
var (
	ErrInsufficientFunds = ledger.ErrInsufficientFunds
	ErrInvalidAmount     = ledger.ErrInvalidAmount
	ErrPotNotEmpty       = ledger.ErrPotNotEmpty
	ErrUnknownPlayer     = ledger.ErrUnknownPlayer
)
