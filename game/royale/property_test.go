package royale

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
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

// randomSetup sets up a game of n players with random options.
func randomSetup(t testing.TB, r *rand.Rand, mode Mode, src FleetSource, seed string) Setup {
	n := MinPlayers + r.Intn(MaxPlayers-MinPlayers+1)
	s := Setup{Options: Options{Mode: mode, Fleet: src, Ante: int64(r.Intn(4) * 5), Bounty: int64(r.Intn(3))},
		CarriedPot: int64(r.Intn(5))}
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
		if g.opts.Mode == Advanced && f[i].Kind != Submarine {
			f[i].Bonus = r.Intn(maxBonus + 1)
		} else {
			f[i].Bonus = 0
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

// checkViews: every viewer sees the same game but for their own hand,
// fleet and salt; no view before the end holds a card afloat.
func checkViews(t testing.TB, g *Game) {
	t.Helper()
	public, _ := json.Marshal(g.View(0))
	for i, s := range g.seats {
		v := g.View(s.player)
		if len(v.Fleet) != len(s.fleet) {
			t.Fatalf("player %s sees %d own cards", s.player, len(v.Fleet))
		}
		v.Hand, v.Fleet, v.Salt = nil, nil, nil
		if j, _ := json.Marshal(v); string(j) != string(public) {
			t.Fatalf("player %s's view differs from the public one beyond their own:\n%s\n%s", s.player, j, public)
		}
		if g.Phase() == PhaseOver {
			continue
		}
		for _, sk := range g.View(0).SunkCards {
			k := slices.IndexFunc(g.seats[g.seatOf(sk.Owner)].fleet, func(c Card) bool { return slices.Equal(c.Cells, sk.Card.Cells) })
			if k < 0 || !g.seats[g.seatOf(sk.Owner)].sunk[k] {
				t.Fatalf("a card afloat is shown sunk: %+v", sk)
			}
		}
		if g.View(0).Revealed != nil {
			t.Fatal("fleets revealed before the end")
		}
		_ = i
	}
}

// checkEnd checks the winners and the money of a finished game.
func checkEnd(t *testing.T, pl played) {
	t.Helper()
	g, res := pl.g, pl.g.Result()
	if res == nil || g.Phase() != PhaseOver {
		t.Fatal("no result")
	}
	v := g.View(0)
	var afloat []game.PlayerID
	for _, p := range v.Players {
		if p.Afloat > 0 {
			afloat = append(afloat, p.Player)
		}
	}
	switch {
	case len(afloat) == 1:
		if !slices.Equal(res.Winners, afloat) {
			t.Fatalf("winners %v, afloat %v", res.Winners, afloat)
		}
	case len(afloat) == 0:
		if !slices.Equal(res.Winners, pl.last.Eliminated) || len(res.Winners) < 2 {
			t.Fatalf("a tie of %v, the last shot eliminated %v", res.Winners, pl.last.Eliminated)
		}
	default:
		t.Fatalf("over with %v afloat", afloat)
	}
	st := res.Settlement
	balance := map[game.PlayerID]int64{}
	var antes, payouts int64
	for _, a := range st.Antes {
		balance[a.Player] -= a.Amount
		antes += a.Amount
	}
	for _, a := range st.Payouts {
		balance[a.Player] += a.Amount
		payouts += a.Amount
	}
	for _, b := range pl.bounties {
		balance[b.From] -= b.Amount
		balance[b.To] += b.Amount
	}
	var net int64
	for _, p := range g.setup.Players {
		net += balance[p]
	}
	if st.PotBefore != g.setup.CarriedPot+antes || payouts+st.CarryOver != st.PotBefore ||
		net+st.CarryOver-g.setup.CarriedPot != 0 || st.CarryOver != st.Remainder || st.PerPoint == nil {
		t.Fatalf("money does not balance: %+v, bounties %v", st, pl.bounties)
	}
	for _, rv := range v.Revealed {
		if !Opens(g.Commitments()[rv.Player], rv.Fleet, rv.Salt) {
			t.Fatalf("player %s's revealed fleet does not open their commitment", rv.Player)
		}
	}
}

// checkReplay replays the game's setup and actions and compares every
// viewer's view.
func checkReplay(t *testing.T, pl played) {
	t.Helper()
	g, err := NewGame(pl.g.Setup())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range pl.actions {
		if _, err := g.Apply(a); err != nil {
			t.Fatalf("replay: %+v: %v", a, err)
		}
	}
	if snapshot(t, g) != snapshot(t, pl.g) {
		t.Fatal("the replay's views differ from the live game's")
	}
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
