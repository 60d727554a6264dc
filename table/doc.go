// Package table is Tally's one application service: everything about a game
// table goes through it. It decides who may do what and what each token may
// see, seats players, runs rounds from their antes to their settlement,
// records money movements, and reads the history and its audit. Package api
// turns HTTP into one call here and the answer back into HTTP; it reaches
// the ledger and the database only through this package.
//
// A request is one database transaction and a few round trips. A write
// sends one batch that begins the transaction, locks the table row and
// reads the table (its players, accounts, latest round and that round's
// actions) and the request's Idempotency-Key; it then decides everything
// in Go, through the engine (package game) and the ledger, and sends a
// second batch with every write, the audit events, the table row's new
// chain head and round count, one notification and the COMMIT. Seating a
// player takes one more round trip, for the player's new id. A read is one
// batch in a read-only snapshot; a read of the whole history (rounds,
// ledger, audit) authenticates the caller in a first batch and reads the
// history in a second, of the same snapshot.
//
// The service says what happened, not how HTTP says it: a write returns
// its typed value (Reply.Value). The caller's encoder (Key.Encode: package
// api's status and JSON) makes the answer of it before the COMMIT, and an
// Idempotency-Key stores that answer, locked, in the write's own
// transaction, so a retry gets the same status and bytes back whether or
// not the first attempt's reply reached the phone.
//
// A round is stored as its setup plus every accepted action, in order, and
// the game's state just before it. A request resumes the game from the
// latest round's stored state and replays that round's actions through the
// engine, so it costs the same on the first round of the night as on the
// five hundredth, and the engine, not the database, judges the game. The
// audit replays every round from the first.
//
// Tokens are 256 random bits with a prefix saying what they are and the id
// of their table (tly_h_7.…), stored only as SHA-256 hashes. The host token
// may do anything at its table, including recording any player's turn; a
// player token records its own player's turns; the audit token reads
// everything and writes nothing. A host who plays has a seat of its own,
// named when the table is made (db.Player.Host): the host token is that
// player's token too, and the seat moves with the host role. A closed
// automatic is claimed only from the phone that saw the dice: the player's
// own, or the host's when it recorded the player's latest throw. Each round
// action records whether the host's phone recorded it for someone else
// (db.Action.ByHost, also in its event), which is also how a write refused
// as recorded since (seen.go) names the phone that recorded what it missed.
//
// A game of rounds (Scarne) keeps the players it began with until it is
// won: seating a player, joining into a new seat and leaving are refused
// with ErrGameUnderway from its first round on, because the engine cannot
// compare totals across a change of seats.
//
// Names, table names and currency labels are trimmed printable text within
// openapi.yaml's limits (40, 80 and 24 characters): control characters and
// bidirectional overrides are refused with ErrInvalid.
package table
