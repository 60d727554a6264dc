// Package stats is a crew's books read back as figures: each member's
// lifetime record, the season table, and whether anyone's dice look loaded.
// It computes from a History (the crew's nights, their rounds as the engine
// judged them, and the throws as thrown) and is pure: no I/O, no clock, no
// randomness; the same history always gives the same Report.
//
// Nothing here judges a round again: who won, who qualified, what each took
// from the pot and each member's balance for the night are taken as the
// engine and the ledger decided them.
//
// # What the figures mean
//
//   - A member played a round when they have a score in it, whatever the
//     score, and played a night when they played a round of it or closed it
//     with a balance.
//   - A win is a round the member is a winner of. A split is a win for each
//     of its winners. A carried tie, a playoff call, a refund and a round of
//     Scarne's game of rounds are nobody's win; a feeder that wants a Scarne
//     game's winner counted lists them as winner of the game's last round.
//   - Win rates are wins over rounds played, all rounds counted, carried ones
//     too.
//   - Money is Night.Net: a member's total is the sum over the nights, and
//     the season table's totals add up to everything the nights put in.
//   - Head to head (Rival): a round's winner beat everyone who did not win
//     it; otherwise a qualified score beat no score, and the better score
//     (higher, or lower at a low table) beat the worse; anything else is even.
//
// # Dice fairness
//
// Each member's dice, and the table's (every die thrown, all members
// together), are tested with Pearson's chi-square goodness-of-fit test
// against a fair die: five degrees of freedom, the p-value from the
// regularized upper incomplete gamma function Q(5/2, χ²/2). A set of dice
// gets a verdict only from MinThrows (30) dice on, when a fair die is
// expected to show every face at least five times; before that it is
// "not enough dice yet". Dice are flagged at the 1% level (p < 0.01).
//
// A crew tests many sets of dice, and each test flags fair dice one time in
// a hundred by chance alone, so with many members some fair dice will be
// flagged (the problem of multiple comparisons). The report says how likely
// such a false alarm is (Fairness.FalseAlarm), a flag with a p-value above
// 1 in 10,000 is called suspicious rather than loaded, and its explanation
// asks the crew to keep watching before accusing anyone.
//
// The test sees each die once per throw: banked dice are not thrown again
// and must not be listed again (Throw), or fair dice would look loaded with
// sixes, fives and fours.
package stats
