package royale

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/tally-dice/tally/game"
)

// played is a game played to its end by random players, with what the
// test saw on the way.
type played struct {
	g        *Game
	actions  []Action // accepted, in order
	last     Outcome  // the outcome that ended the game
	bounties []game.Payment
}

// randomSetup sets up a game of n players with random options, under
// rules of any version.
func randomSetup(t testing.TB, r *rand.Rand, mode Mode, src FleetSource, seed string) Setup {
	n := MinPlayers + r.Intn(MaxPlayers-MinPlayers+1)
	s := Setup{Options: Options{Mode: mode, Fleet: src, Ante: int64(r.Intn(4) * 5), Bounty: int64(r.Intn(3))},
		CarriedPot: int64(r.Intn(5)), Rules: Rules(r.Intn(int(CurrentRules) + 1))}
	for i := range n {
		s.Players = append(s.Players, game.PlayerID(10+7*i))
	}
	s.First = s.Players[r.Intn(n)]
	if src == Dealt {
		s.Hands = map[game.PlayerID]Fleet{}
		deck := newStream(seed)
		for _, p := range s.Players {
			h, err := DealHand(deck, mode, n)
			if err != nil {
				t.Fatal(err)
			}
			s.Hands[p] = h
		}
	}
	return s
}

// fleetAction is a random keep or enter for player p.
func fleetAction(t testing.TB, r *rand.Rand, g *Game, p game.PlayerID, seed string) Action {
	salt := make([]byte, SaltSize)
	r.Read(salt)
	n := len(g.seats)
	if g.opts.Fleet == Dealt {
		first := 0
		if g.opts.Mode == Advanced {
			first = 1
		}
		d := r.Perm(HandSize(g.opts.Mode, n) - first)[:2]
		return Action{Player: p, Kind: ActKeep, Discard: []int{d[0] + first, d[1] + first}, Salt: salt}
	}
	h, err := DealHand(newStream(seed+p.String()), g.opts.Mode, n)
	if err != nil {
		t.Fatal(err)
	}
	f := h[:KeepSize(g.opts.Mode, n)]
	for i := range f {
		switch {
		case g.opts.Mode == Standard:
			f[i].Bonus = 0
		case f[i].Kind == Submarine:
			f[i].Bonus = r.Intn(maxBonus + 1) // as printed, or none
		default:
			f[i].Bonus = 1 + r.Intn(maxBonus)
		}
	}
	return Action{Player: p, Kind: ActEnter, Fleet: f, Salt: salt}
}

// unshotCells are k random cells nobody has shot.
func unshotCells(r *rand.Rand, g *Game, k int) []Cell {
	var free []Cell
	for at, h := range g.board {
		if h == unshotPeg {
			free = append(free, Cell{at / Size, at % Size})
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	return free[:min(k, len(free))]
}

// nextAction is a random legal action of the turn's player.
func nextAction(r *rand.Rand, g *Game) Action {
	p, v := g.Turn(), g.View(0)
	me := v.Players[g.cur]
	switch {
	case v.CanSonar && r.Intn(3) == 0:
		return Action{Player: p, Kind: ActSonar, Line: []string{"a", "B", "7", "10", "j"}[r.Intn(5)]}
	case v.Die == 0:
		return roll(p, 1+r.Intn(3))
	case me.BonusShots > 0 && r.Intn(3) == 0:
		k := 1
		if g.opts.Mode == Advanced {
			for _, tr := range me.Trophies {
				if !tr.Used && tr.Shots > 0 {
					k = tr.Shots
					break
				}
			}
		}
		return Action{Player: p, Kind: ActBonus, Cells: unshotCells(r, g, k)}
	case v.ShotsLeft > 0:
		k := 1
		if g.opts.Mode == Advanced {
			k = v.ShotsLeft
		}
		return Action{Player: p, Kind: ActShoot, Cells: unshotCells(r, g, k)}
	}
	return end(p)
}

// wrongAction is a random action that may well be refused.
func wrongAction(r *rand.Rand, g *Game) Action {
	ps := append([]game.PlayerID{0, 99}, g.setup.Players...)
	a := Action{Player: ps[r.Intn(len(ps))], Kind: []ActionKind{ActKeep, ActEnter, ActSonar, ActRoll, ActShoot, ActBonus, ActEnd, "x"}[r.Intn(8)]}
	switch r.Intn(4) {
	case 0:
		a.Die = r.Intn(6) - 1
	case 1:
		a.Cells = []Cell{{r.Intn(11), r.Intn(10)}, {r.Intn(10), r.Intn(10)}}[:1+r.Intn(2)]
	case 2:
		a.Line = []string{"K", "0", "c", "x1"}[r.Intn(4)]
	case 3:
		a.Card = r.Intn(4) - 1
	}
	return a
}

// playRandom plays one game to its end, checking invariants after every
// action.
func playRandom(t testing.TB, r *rand.Rand, mode Mode, src FleetSource, seed string) played {
	t.Helper()
	g, err := NewGame(randomSetup(t, r, mode, src, seed))
	if err != nil {
		t.Fatal(err)
	}
	pl := played{g: g}
	do := func(a Action) Outcome {
		o, err := g.Apply(a)
		if err != nil {
			t.Fatalf("%s: %+v refused: %v", seed, a, err)
		}
		pl.actions = append(pl.actions, a)
		pl.bounties = append(pl.bounties, o.Bounties...)
		return o
	}
	for _, i := range r.Perm(len(g.seats)) {
		do(fleetAction(t, r, g, g.seats[i].player, seed))
	}
	shot := map[Cell]bool{}
	for step := 0; g.Phase() == PhasePlaying; step++ {
		if step > 5000 {
			t.Fatalf("%s: no end after %d actions", seed, step)
		}
		a := nextAction(r, g)
		before := g.View(0).Players[g.cur]
		die, left := g.t.die, g.View(0).ShotsLeft
		var o Outcome
		if r.Intn(25) == 0 {
			// A random action, often refused: refused, it changes nothing;
			// accepted, it was legal after all and is played.
			a = wrongAction(r, g)
			snap := snapshot(t, g)
			var err error
			if o, err = g.Apply(a); err != nil {
				if snapshot(t, g) != snap {
					t.Fatalf("%s: %+v refused (%v) changed the game", seed, a, err)
				}
				continue
			}
			pl.actions = append(pl.actions, a)
			pl.bounties = append(pl.bounties, o.Bounties...)
		} else {
			o = do(a)
		}
		for _, s := range o.Shots {
			if shot[s.Cell] {
				t.Fatalf("%s: %s shot twice", seed, s.Cell)
			}
			shot[s.Cell] = true
		}
		switch {
		case a.Kind == ActShoot && (len(o.Shots) > left || left > die):
			t.Fatalf("%s: %d shots with %d of the die's %d left", seed, len(o.Shots), left, die)
		case a.Kind == ActBonus && len(o.Shots) > before.BonusShots:
			t.Fatalf("%s: %d bonus shots with %d", seed, len(o.Shots), before.BonusShots)
		}
		if step%10 == 0 {
			checkViews(t, g)
		}
		pl.last = o
	}
	checkViews(t, g)
	return pl
}

func TestRandomGames(t *testing.T) {
	t.Parallel()
	for _, mode := range []Mode{Standard, Advanced} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(int64(len(mode))))
			games := 300
			if testing.Short() {
				games = 40
			}
			for i := range games {
				src := []FleetSource{Dealt, Entered}[i%2]
				pl := playRandom(t, r, mode, src, fmt.Sprintf("%s %d", mode, i))
				checkEnd(t, pl)
				checkReplay(t, pl)
			}
		})
	}
}
