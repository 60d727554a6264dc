// Package game is the rulebook of Tally: pure, deterministic rules for the
// Ship, Captain and Crew family of dice games and Die Familie Meier.
//
// It judges what players report from real dice and either accepts it, with
// the exact outcome, or rejects it with a reason a person understands. It
// decides every money movement of a round as data (who wins what from the
// pot, what carries over, who pays whom per point); the ledger only records
// those decisions. The package does no I/O: no HTTP, no SQL, no clock, no
// randomness.
//
// # How it is used
//
// A table's rules are a Ruleset, made from a preset and the table's
// options (NewRuleset, docs/rules.md §2). A turn is judged roll by roll
// (Turn) or whole (ValidateTurn); a Round plays the turns in order, with
// the point, the hammer, automatics, claims and closed rolls, and shows
// each player only what they may see; its Result says who won what
// (docs/rules.md §4 and §6). A Game carries a table from round to round:
// antes, carried pots, who goes first (docs/rules.md §7), Scarne's game of
// rounds, and what closing the table hands back (CloseOut). docs/rules.md
// ends with where each rule lives in the code.
//
// A round is replayed from its RoundSetup plus the ordered Actions applied
// to it; Apply either applies an action whole or changes nothing, so the
// server stores setups and actions and replays them through the engine.
//
// # House rules
//
// docs/rules.md decides where the sources are silent or disagree; these are its
// decisions, and the engine's own where docs/rules.md is silent too. The option
// that changes a rule is named where one exists.
//
// Turns:
//
//   - Banking is derived from the dice (docs/rules.md §1, a house rule): the submitter
//     never says which dice were banked. The next required value is banked if
//     shown, then the next, one die per value.
//   - Dice in a RollResult are kept as reported; cargo is listed highest
//     first.
//   - A whole-turn submission (ValidateTurn) that is qualified with rolls left
//     stands; one that stops unqualified with rolls left, or a Meier turn
//     short of three throws, is rejected with ErrTurnIncomplete. Stand is
//     refused (ErrStandNotAllowed) without the sequence and in Meier; an
//     explicit stand at the end of a finished, qualified turn is accepted.
//   - Rethrow empty means all cargo. Faces not in the cargo are rejected
//     (ErrRethrowNotCargo) before the cargo policy is checked; under
//     "together" a rethrow must be empty or all of the cargo (ErrRerollPolicy).
//     Under cargo policy "none" the turn ends when the sequence is complete.
//   - low-or-high (docs/rules.md §2, Low or High): a first banking roll showing both a 6
//     and a 1 must name its path, else ErrAmbiguousPath. A path named on a
//     roll that banks nothing fixes nothing; in single-sequence games a path,
//     if given, must name that sequence; Meier has no path.
//   - Die Familie Meier (docs/rules.md §3, a house rule): the children are the other dice
//     of the throw that completes the 1+2 pair plus all later dice. A second
//     1 or 2 in that throw is a child. Meier has no stand, re-roll or closed
//     rolls.
//   - Not qualifying is "no score" (Outcome.Qualified false), never a score
//     of 0; it never wins, in high or low games.
//
// Automatics (option automatic; on by default only for bar):
//
//   - An automatic is cargo of all 6s: 6-6, or 6-6-6 with ship-captain's
//     three cargo dice. In a low game the automatic option is off unless the
//     table turns it on; then the automatic is all 1s.
//   - An open automatic ends the turn: it is the best cargo there is and is
//     claimed as it is recorded. A closed automatic with a roll left does not
//     end the turn by itself: the player claims it (claim-automatic) or
//     stands, exactly as on any other cargo under the cup, so a turn that
//     stops under the cup gives nothing away. The player may even re-roll it
//     away, and then it can no longer be claimed.
//   - Automatics win only at tables that settle each round by best score: with
//     a progressive pot the declared score is the only winning score, and in
//     Scarne's game of rounds points accumulate. There 6-6 is a plain 12 and
//     the player may re-roll it.
//   - An open automatic is claimed when recorded. A closed one is claimable
//     (claim-automatic) until the next player's first roll is recorded;
//     unclaimed it scores a plain 12 and does not tie a later claimed
//     automatic. A closed automatic of the round's last player is taken as
//     claimed when the round ends, because nobody rolled after it.
//   - A claimed automatic wins the pot at once; players who have not thrown
//     forfeit and count as no score (this matters for per-point payoffs).
//
// Closed rolls (option closed-rolls; on by default only for bar):
//
//   - Roll 1 is open. Every cargo re-roll is closed. A third roll taken
//     without the sequence complete is closed, even if it completes it.
//   - A view (Round.View) shows another player's closed throws sealed: no
//     dice, no banking, and no cargo, score or automatic for the turn, since
//     a closed throw may have changed them; nor whether the player stood
//     (only a third roll ends a closed turn without one); nor does its Next
//     list the faces that may be re-rolled. What was thrown in the open stays
//     visible. The point a view shows ignores sealed scores. The player's own
//     view and Round.State show everything.
//   - Sealed means sealed for whoever records a throw, too: the host's
//     phone recording for a player without one (Round.ApplyAs). A throw on
//     cargo sealed from the recorder is judged by what they can see (how
//     many cargo dice, never which) and may not name the dice picked up
//     (ErrCargoSealed): it re-rolls the whole cargo, the only re-roll under
//     the together rule anyway. Otherwise the refusal of a wrong guess
//     would read the cup, one guess at a time. Only the player's own phone
//     may keep some of a sealed cargo. The engine takes a claim of a
//     sealed automatic as the player's, whoever records it; the table
//     (package table) sends it only from the phone that saw the dice, the
//     player's own or the one that recorded the throw, and refuses anyone
//     else's before the engine is asked, alike whatever is under the cup.
//   - lift-cups: the player whose turn it is, having completed the sequence
//     in roll 1 or 2 and not yet finished, may call every preceding player
//     with closed rolls to lift their cups; this reveals them to all. It is
//     refused when no cup is down. Every roll is revealed when the round ends.
//
// Rounds and money:
//
//   - A round has at least two players. The point is the best score among
//     finished turns (the lowest in a low game); the hammer is the player
//     who throws last in the round's play order ("the last person to throw
//     the dice in a round", Ship of Fools): a seat known from the start,
//     whose advantage is knowing the point, not whoever threw most recently.
//   - Ties (preset only): one-tie-all-tie carries the whole pot; split pays
//     equal whole-unit shares and the indivisible remainder stays in the pot
//     as Settlement.Remainder (docs/rules.md §2, ties); playoff carries the pot to
//     a one-round playoff of the tied players (Result.Playoff).
//   - Nobody qualifies: all-tie carries the pot like a tie; score-zero makes
//     everyone score 0, so all are tied under the tie rule; refund splits the
//     whole pot among all players, remainder carrying.
//   - Progressive (option progressive): only a score exactly equal to the
//     declared one wins; several are tied under the tie rule; nobody carries
//     the whole pot. Everyone antes every round, whatever reante-on-tie says.
//     The declarer rotates one seat each regular round, starting with the
//     first player of the first round; the caller fills in the declared score.
//   - Low (option low): the lowest qualified score wins.
//   - Per-point (options payoff, stake): antes still go to the pot and the
//     pot is settled as with the pot payoff; in addition each other player
//     pays the winner stake × margin. No score counts 0; in a low game the
//     margin is measured the other way and no score counts as the worst
//     possible score (CargoDice × 6; 24 in Meier), so missing never costs less than a poor
//     cargo. Nobody pays on a margin of 0 or less. Tied winners under split
//     share each loser's payment equally, leftover units one each to the tied
//     winners in play order, so a loser pays exactly stake × margin. Rounds
//     that carry (ties, no winner) make no per-point payments.
//   - Re-ante (option reante-on-tie, default on): after a round that carried
//     because of a tie, nobody qualifying or a playoff, the next regular
//     round antes only with reante-on-tie. Playoff rounds never ante.
//   - A closing table returns its pot to the players of its last round
//     equally, leftover units one each in play order (CloseOut).
//
// Who goes first (option start):
//
//   - rotate-left (default): the next round starts one seat to the left, the
//     next seat in play order. rotate-right (ship-of-fools): the seat to the
//     right of the previous first player.
//   - roll-off (scarne): before the first round each player throws five dice
//     in seat order; the lowest total goes first; players tied for lowest
//     throw again, in seat order, until one is lowest. Later rounds rotate
//     left.
//   - loser-first: the lowest scorer of the previous round starts (the
//     highest scorer in a low game); no score is below any score; among tied
//     losers the one who threw earliest in that round starts.
//   - Playoff rounds are played by the tied players in play order and do
//     not move the rotation or the declarer.
//
// Scarne's game of rounds (option goal: first to Target points, default 100,
// or highest after Target rounds, default 10):
//
//   - Every player antes once, before the first round; rounds only score
//     (ResultScored) and the pot waits for the game's winner.
//   - A turn without a score adds 0. The round in which someone reaches the
//     target is completed; the highest total wins. A tie for the win is
//     settled by one-round playoffs among the tied, repeated while they tie;
//     playoff scores are not added to totals.
//   - The winner takes the pot; with per-point payoff each other player pays
//     stake × the winner's margin in total points.
//   - A game of rounds cannot be played low: NewRuleset rejects the option.
package game
