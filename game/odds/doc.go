// Package odds is the odds advisor. Between throws a player asks: with this
// ruleset, these dice banked and this cargo, this many rolls left, facing
// this point with this many players still to throw, should I stand or roll?
// Advise answers with every legal choice (stand, re-roll a subset of the
// cargo, or roll for the sequence when not yet qualified), each with its
// exact chance of winning the round outright, of tying for best and of
// losing, its expected final score and its chance of no score, and the best
// choice under three objectives. The package is pure computation: no I/O.
//
// # Exact, not simulated
//
// A turn is a small graph: the states between throws (what is banked, the
// cargo, rolls left), the choices at each, and the throws that lead on. Dice
// are treated as sorted multisets weighted by their multinomial counts (252
// results for five dice, not 7,776), and results that lead to the same state
// are merged, so a whole turn is 59 to 134 nodes. Backward induction over
// that graph finds the best play; a forward pass gives the distribution of
// final outcomes. Probabilities are float64 and reproducible to the last
// printed decimal; the tests pin known facts against exact rationals.
//
// # The round model
//
// These are the modelling assumptions; they decide what the numbers mean.
//
//   - Earlier players are summarised by the point: the best score so far, or
//     none. A player equal to the point ties with it; nothing else about
//     earlier players matters.
//   - Every later player sees the point as it then stands (closed rolls are
//     treated as open; the cups only delay the reveal) and plays to win: at
//     each choice they maximize their own chance of winning outright, and
//     between choices with equal chances they take the one with the better
//     chance of a tie. Among choices still equal they stand, or re-roll the
//     fewest dice.
//   - The asking player's listed odds assume they too play to win on every
//     later throw of the turn; Best.WinOrTie and Best.Score are each found
//     with the player pursuing that objective for the rest of the turn.
//   - Outcomes are ranked no score, then scores from worst to best (highest
//     best, or lowest in a low game), then an automatic. No score never wins.
//     A round in which nobody scores counts as a tie for everyone: the table's
//     no-one-qualifies rule (all-tie, refund, score-zero) only decides what a
//     tie pays, which is outside the odds.
//   - A tie is any shared best result, whatever the table's tie rule (one tie
//     all tie, split, playoff) does with it; "tie" is reported as such and
//     never folded into win.
//   - Automatic (rs.AutomaticWins, the engine's rule): cargo showing all 6s
//     ends the turn at once and wins the round; later players forfeit. In a
//     low game that turns automatics on, the automatic is all 1s, as in the
//     engine. With a progressive pot or in Scarne's game of rounds all-6s
//     cargo is a plain score, as in the engine. It is assumed always claimed
//     in time. A point equal to the top score (12 with two cargo dice) is an
//     ordinary score, such as an unclaimed closed automatic, which a later
//     claimed automatic beats (docs/rules.md §4).
//   - Low-or-high: the first banked die fixes the path. A throw that could
//     start either sequence (a 6 and a 1 with nothing banked) is a choice the
//     player makes to suit their objective. Query.PathHint names the path;
//     with nothing banked it settles that choice on every later throw that
//     shows both a 6 and a 1, but a throw that starts only the other
//     sequence still banks it: banking is mandatory, as in the engine.
//   - Die Familie Meier has no decisions: the only choice is the forced roll
//     (or, with no rolls left, the result as it stands). Query.Banked holds
//     the parents found and Query.Cargo the children thrown so far.
//   - With the turn already over (no rolls left, or qualified where cargo
//     may not be re-rolled) the one choice is "stand": the result as it is.
//     On an automatic with rolls left, "stand" claims it; re-rolling it away
//     is listed too, because the engine leaves a closed automatic's turn
//     open (an open automatic ends the round before anyone could ask).
//
// # Objectives
//
// Best.Win maximizes the outright win. Best.WinOrTie maximizes win plus tie
// (the chance of not losing), not win plus tie divided by the number tied:
// how a tie pays depends on the table's tie rule, and under one tie all tie
// a tie pays nothing now. Best.Score first maximizes the chance of scoring at
// all, then the expected score (the lowest in a low game); ExpectedScore is
// always the mean given that the player scores, with an automatic counted
// as its dice.
//
// # Precomputation
//
// Later players' play depends only on the ruleset's shape (family,
// sequences, cargo dice, cargo policy, low, automatic), the point and how
// many follow them. For each shape a table is built once, lazily, under a
// sync.Once: for every point and every count of later players up to
// MaxLater, the chance that they all stay below the point and the chance
// that none beats it. A query then costs three backward passes over one
// turn graph. Prepare builds a shape's table ahead of the first query.
package odds
