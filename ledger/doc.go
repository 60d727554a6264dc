// Package ledger keeps a table's money in double entry: accounts, journal
// transactions and postings in PostgreSQL (through package db), the
// movements of a game (antes, payouts, splits, carry-overs, per-point
// payments, deposits, withdrawals, settlement payments, the close-out of the
// pot, whole-round settlements), balances and statements (JSON rows and
// CSV), settle-up plans, idempotency keys and the hash-chained audit log. It
// knows SQL, never HTTP.
//
// # Accounts and signs
//
// Each table has one account per player, one pot and one world account (the
// bank: cash coming in and going out), created on first use. A player's
// balance is what the table owes them (positive) or what they owe
// (negative). A deposit (buy-in) of X posts player +X, world −X; a
// withdrawal (cash-out) player −X, world +X; an ante player −X, pot +X; a
// payout pot −X, winner +X; a per-point payment payer −X, payee +X; a
// settlement payment "A paid B X in cash" A +X, B −X. Every journal
// transaction's postings sum to zero and the database refuses one that does
// not (see package db), so the balances of a table always sum to zero.
// Amounts are int64 units of the table's currency; there are no floats.
// Nothing is ever updated or deleted: a correction is a new, compensating
// transaction.
//
// # Movements
//
// Every movement is one function taking the caller's pgx.Tx, writes exactly
// one journal transaction of its kind and appends one audit event
// ("ledger.<kind>") in that transaction, so the HTTP layer can combine it
// with an idempotency key and round bookkeeping and commit once. Each first
// locks the table row FOR UPDATE, then the accounts it touches in id order
// (see lockBooks). Store.InTx runs such work and retries it on
// serialization failures and deadlocks.
//
// House decisions where the rules are silent:
//   - Split remainder: the pot is divided in whole units; what cannot be
//     divided stays in the pot for the next round, and the split's metadata
//     records "pot", "share" and "remainder" (RULES.md §2).
//   - Carry-over: no money moves, so Carry writes a journal transaction of
//     kind carry with no postings and the amount carried in its metadata
//     ("carried"), plus its audit event. Only carry and round_settle
//     transactions may be empty; the database enforces that.
//   - RoundSettle records a round's payouts, carry-over and per-point
//     payments as one round_settle transaction (metadata "pot", "share",
//     "remainder", "carried", "winners"); antes are posted separately when
//     the round starts.
//   - Close-out: a closing table's pot goes to the players of its last
//     round, pot/n each, and the leftover units one each to the first
//     players in play order (RULES.md §6). CloseTable does that, marks the
//     table closed and appends "table.closed". A closed table accepts only
//     withdrawals and settlement payments.
//   - no_overdraft: at such a table any movement that would leave a player
//     below zero is refused with ErrInsufficientFunds naming the player,
//     balance and amount, before anything is written. The net effect per
//     player is what counts, so a player who pays and is paid in the same
//     round settlement is judged on the difference. The pot may never go
//     below zero at any table.
//   - Limits: one movement line is 1 to MaxAmount; no account (players, pot,
//     bank) may go beyond MaxBalance either side of zero (ErrInvalidAmount),
//     so sums over a table's accounts are exact in int64 and no balance
//     reaches PostgreSQL's bigint limit.
//   - The bank takes part in settle-ups and settlement payments (as
//     PlayerID Bank, i.e. 0) but never in game payments.
//
// # Settle-up
//
// SettleUp plans the fewest cash payments that bring every player, and the
// bank when cash went in or out, to zero: exact for up to ExactLimit (16)
// participants by dynamic programming over subsets (n minus the largest
// number of disjoint zero-sum groups), greedy beyond. It refuses while the
// pot is not empty. PlanTransfers is the pure algorithm.
//
// # Idempotency
//
// Begin and Save make a request with an Idempotency-Key apply at most once:
// Begin takes a transaction-level advisory lock on (scope, key) without
// waiting and looks the key up; Save stores the response in the same
// transaction as the effect. See Begin for the outcomes.
//
// # Audit log
//
// Every state change of a table is an event (table_id, seq, kind, payload,
// created_at, prev_hash, hash), seq gap-free from 1 because events are
// appended under the table row lock. hash = SHA-256(prev_hash || canonical
// record); the first event's prev_hash is 32 zero bytes. The canonical
// record is the JSON object {"created_at","kind","payload","seq","table"}
// with keys sorted by byte order at every level, no whitespace, strings
// escaped as encoding/json does without HTML escaping, numbers as plain
// decimal integers (payloads may hold integers only: ErrNonInteger), and
// created_at in UTC as 2006-01-02T15:04:05.000000Z (microseconds, as
// PostgreSQL stores them). The payload read back from jsonb is decoded with
// UseNumber and re-encoded, so jsonb's normalization cannot break the chain.
// Verify walks the chain and reports the first event that does not match.
package ledger
