// Package gametest makes legal play for tests and load runs, as
// net/http/httptest does requests: nothing in Tally itself imports it.
package gametest

import (
	"math/rand/v2"

	"github.com/tally-dice/tally/game"
)

// RandomTurn is a legal whole turn under rs: up to three throws of random
// dice, as many as the turn calls for, each banking what it shows (naming
// the 6-5-4 path where a first banking throw of low-or-high is ambiguous),
// standing on whatever it makes.
func RandomTurn(rng *rand.Rand, rs game.Ruleset) []game.Roll {
	turn := game.NewTurn(rs)
	var rolls []game.Roll
	for !turn.Next().Over && len(rolls) < 3 {
		n := turn.Next().Throw
		if n == 0 {
			break // qualified: a whole turn stands on its cargo
		}
		dice := make([]int, n)
		for i := range dice {
			dice[i] = 1 + rng.IntN(6)
		}
		r := game.Roll{Dice: dice}
		if err := turn.Roll(r); err != nil {
			r.Path = "6-5-4"
			if turn.Roll(r) != nil {
				continue
			}
		}
		rolls = append(rolls, r)
	}
	return rolls
}
