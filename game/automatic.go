package game

// This file is the automatic of RULES.md §4, as it shows in one turn.
// Whether an automatic wins the pot is a round matter (see round.go).

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
