// Package play runs the tables: who sits where, who may do what, and each
// round from its antes to its settlement. It is the one place where the
// rules (package game) meet the books (package ledger).
//
// A round is stored as its setup plus every accepted action, in order. Every
// request rebuilds the table's state by replaying those actions through the
// engine, applies the new action, and only then writes it, in one database
// transaction with the table row locked, so a rejected action changes
// nothing and two phones can never both act on the same moment of a round.
// Replaying is cheap (a round of eight players replays in microseconds) and
// makes the engine, not the database, the single judge of the game.
//
// Player ids are the database ids; the engine sees them as decimal strings.
//
// A game of rounds (Scarne) keeps the players it began with until it is won:
// seating a player, joining into a new seat and leaving are refused with
// ErrGameUnderway from its first round on, because the engine cannot compare
// totals across a change of seats and the game could never go on.
//
// Names, table names and currency labels are trimmed printable text within
// openapi.yaml's limits (40, 80 and 24 characters): control characters
// (PostgreSQL cannot store NUL; a newline garbles phones and statements) and
// bidirectional overrides (which make one name display as another) are
// refused with ErrInvalid. Text that cannot be a join code is answered as
// an unknown code without asking the database.
package play
