package royale

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// copyGame is a copy of g in play that a shot can change without changing
// g; what play never changes (setup, fleets, covers) is shared.
func copyGame(g *Game) *Game {
	c := *g
	c.seats = slices.Clone(g.seats)
	for i := range c.seats {
		s := &c.seats[i]
		s.left, s.sunk, s.trophies = slices.Clone(s.left), slices.Clone(s.sunk), slices.Clone(s.trophies)
	}
	c.sunk, c.sonar = slices.Clone(g.sunk), slices.Clone(g.sonar)
	return &c
}

// recorded is a whole four-player advanced game played by random players.
func recorded(b *testing.B) played {
	r := rand.New(rand.NewSource(4))
	for i := 0; ; i++ {
		pl := playRandom(b, r, Advanced, Dealt, fmt.Sprintf("bench %d", i))
		if len(pl.g.seats) == 4 {
			return pl
		}
	}
}

// replay is a new game of pl's setup with its first n actions applied.
func replay(b *testing.B, pl played, n int) *Game {
	g, err := NewGame(pl.g.Setup())
	if err != nil {
		b.Fatal(err)
	}
	for _, a := range pl.actions[:n] {
		if _, err := g.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// BenchmarkVolley resolves one three-shot volley in an advanced game
// half-way through.
func BenchmarkVolley(b *testing.B) {
	pl := recorded(b)
	mid := len(pl.actions) / 2
	for pl.actions[mid].Kind != ActRoll {
		mid++
	}
	g := replay(b, pl, mid)
	p := g.Turn()
	volley := unshotCells(rand.New(rand.NewSource(1)), g, 3)
	if _, err := g.Apply(roll(p, 3)); err != nil {
		b.Fatal(err)
	}
	rolled := g
	b.ReportAllocs()
	b.ResetTimer()
	var games []*Game
	for range b.N {
		if len(games) == 0 {
			// Copies are made 1024 at a time: stopping the timer for each
			// one would cost far more than the volley.
			b.StopTimer()
			for range 1024 {
				games = append(games, copyGame(rolled))
			}
			b.StartTimer()
		}
		g := games[len(games)-1]
		games = games[:len(games)-1]
		if _, err := g.Apply(Action{Player: p, Kind: ActShoot, Cells: volley}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay rebuilds a whole recorded four-player advanced game from
// its setup and actions.
func BenchmarkReplay(b *testing.B) {
	pl := recorded(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		replay(b, pl, len(pl.actions))
	}
	b.ReportMetric(float64(len(pl.actions)), "actions/game")
}
