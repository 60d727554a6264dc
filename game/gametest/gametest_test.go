package gametest

import (
	"math/rand/v2"
	"testing"

	"github.com/tally-dice/tally/game"
)

// TestRandomTurnsAreLegal: under every preset, each throw of a random
// turn is one the engine accepts, in order, and a turn has one to three.
func TestRandomTurnsAreLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range game.Presets() {
		rs, err := game.NewRuleset(p.Name, game.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 500 {
			rolls := RandomTurn(rng, rs)
			if len(rolls) < 1 || len(rolls) > 3 {
				t.Fatalf("%s, turn %d: %d throws", p.Name, i, len(rolls))
			}
			turn := game.NewTurn(rs)
			for j, r := range rolls {
				if err := turn.Roll(r); err != nil {
					t.Fatalf("%s, turn %d, throw %d %+v: %v", p.Name, i, j+1, r, err)
				}
			}
		}
	}
}
