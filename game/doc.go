// Package game is the rulebook of Tally: pure, deterministic rules for the
// Ship, Captain and Crew family of dice games and Die Familie Meier.
//
// It judges what players report from real dice and either accepts it, with
// the exact outcome, or rejects it with a reason a person understands. It
// decides every money movement of a round as data (who wins what from the
// pot, what carries over, who pays whom per point); the ledger only records
// those decisions. The package does no I/O: no HTTP, no SQL, no clock.
package game
