package game

// This file is the automatic of docs/rules.md §4, as it shows in one turn. How
// a claimed automatic wins the pot is a round matter (see round.go).

// AutomaticWins reports whether an automatic can win anything under rs, so
// that the engine and the odds advisor agree on when all-6s cargo ends a
// turn. It needs the automatic option, and a table that settles each round
// on its own by best score: with a progressive pot the declared score is the
// only winning score, and in Scarne's game of rounds points accumulate, so
// there a 6-6 is just a 12 and the player may keep re-rolling.
func (rs Ruleset) AutomaticWins() bool {
	return rs.Automatic && !rs.Progressive && rs.Goal.Kind == GoalRound && rs.Family != FamilyMeier
}

// isAutomatic reports whether the turn's cargo is an automatic: with the
// automatic option on, every cargo die shows 6 (6-6 with two cargo dice,
// 6-6-6 with ship-captain's three). In a low game with automatic explicitly
// on, every cargo die shows 1 instead: the best possible low cargo.
func (t *Turn) isAutomatic() bool {
	if !t.rules.automatic || !t.qualified || t.rules.meier || t.cargo.n == 0 {
		return false
	}
	face := 6
	if t.rules.low {
		face = 1
	}
	for _, v := range t.ints(t.cargo) {
		if v != face {
			return false
		}
	}
	return true
}
