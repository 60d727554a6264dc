// Package ledger is a table's money in double entry: the accounts, the
// movements a game makes (antes, a round's settlement, the close-out of the
// pot), the cash movements people record (buy-ins, cash-outs, settlement
// payments), balances, statements (JSON rows and CSV) and settle-up plans.
//
// The ledger decides no amounts of a game: the engine (package game) does,
// and Antes, RoundSettlement and CloseOut turn its decisions into entries
// line for line. What the ledger decides is whether an entry may be
// written: Books.Post checks it against the balances read under the
// table's lock and returns the journal entry to store. The database checks
// again that every journal transaction sums to zero (package db).
//
// # Accounts and signs
//
// Each table has one account per player, one pot and one world account (the
// bank: cash coming in and going out). A player's balance is what the table
// owes them (positive) or what they owe (negative). A deposit (buy-in) of X
// posts player +X, world −X; a withdrawal (cash-out) player −X, world +X; an
// ante player −X, pot +X; a payout pot −X, winner +X; a per-point payment
// payer −X, payee +X; a settlement payment "A paid B X in cash" A +X, B −X.
// Every entry's lines sum to zero, so the balances of a table always sum to
// zero. Amounts are int64 units of the table's currency; there are no
// floats. Nothing is ever updated or deleted: a correction is a new,
// compensating entry.
//
// House decisions where the rules are silent:
//   - A round's money is one round_settle entry, written when the round is
//     settled: the payouts from the pot and the per-point payments as the
//     engine decided them, with "pot" (what it held), "carried" (what stays
//     for the next round, the remainder of a split included), "remainder"
//     and "winners" in its metadata. A round that moves no money (the pot
//     carries) is still recorded, with no lines. Antes are an entry of their
//     own when the round starts.
//   - Close-out: a closing table's pot goes to the players of its last round
//     as the engine shares it (game.CloseOut, docs/rules.md §6).
//   - no_overdraft: at such a table any entry that would leave a player below
//     zero is refused with ErrInsufficientFunds naming the player, balance
//     and amount. The net effect per player is what counts, so a player who
//     pays and is paid in the same settlement is judged on the difference.
//     The pot may never go below zero at any table (ErrPotEmpty).
//   - Limits: one line of a person's movement is 1 to MaxAmount; no account
//     (players, pot, bank) may go beyond MaxBalance either side of zero
//     (ErrInvalidAmount), so sums over a table's accounts are exact in int64
//     and no balance reaches PostgreSQL's bigint limit.
//   - The bank takes part in settle-ups and settlement payments (as player
//     Bank, 0) but never in game payments.
//
// # Settle-up
//
// SettleUp plans the fewest cash payments that bring every player, and the
// bank when cash went in or out, to zero: exact for up to ExactLimit (16)
// participants by dynamic programming over subsets (n minus the largest
// number of disjoint zero-sum groups), greedy beyond. It refuses while the
// pot is not empty. PlanTransfers is the pure algorithm.
package ledger
