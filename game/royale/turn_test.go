package royale

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
)

// pegAt is the board's peg at cell s, or a peg with state "" if unshot.
func pegAt(t testing.TB, g *Game, s string) Peg {
	t.Helper()
	for _, p := range g.View(0).Board {
		if p.Cell == cell(t, s) {
			return p
		}
	}
	return Peg{}
}

func shoot(t testing.TB, p game.PlayerID, s string) Action {
	return Action{Player: p, Kind: ActShoot, Cells: cells(t, s)}
}

func bonus(t testing.TB, p game.PlayerID, s string, card int) Action {
	return Action{Player: p, Kind: ActBonus, Cells: cells(t, s), Card: card}
}

func roll(p game.PlayerID, die int) Action { return Action{Player: p, Kind: ActRoll, Die: die} }
func end(p game.PlayerID) Action           { return Action{Player: p, Kind: ActEnd} }

// TestStandardGame plays a three-player standard game to its end,
// checking every rule and refusal of a turn on the way.
func TestStandardGame(t *testing.T) {
	t.Parallel()
	g := entered(t, Options{Ante: 10, Bounty: 5},
		fleet(t, "patrol-boat A1 A2", "destroyer C1 C2 C3", "submarine E1 E2 E3"),
		fleet(t, "patrol-boat A2 A3", "destroyer G1 G2 G3", "carrier J1 J2 J3 J4 J5"),
		fleet(t, "patrol-boat H9 H10", "destroyer F8 F9 F10", "submarine I8 I9 I10"))
	if g.Pot() != 30 || len(g.Antes()) != 3 || g.Antes()[2] != (game.Amount{Player: 3, Amount: 10}) {
		t.Fatalf("pot %d antes %v", g.Pot(), g.Antes())
	}
	for name, tc := range map[string]struct {
		a    Action
		want error
	}{
		"shoot before the roll": {shoot(t, 1, "A1"), ErrRollFirst},
		"bonus before the roll": {bonus(t, 1, "A1", 0), ErrRollFirst},
		"end before the roll":   {end(1), ErrNotDone},
		"sonar":                 {Action{Player: 1, Kind: ActSonar, Line: "A"}, ErrSonar},
		"die 0":                 {Action{Player: 1, Kind: ActRoll}, ErrDie},
		"die 4":                 {roll(1, 4), ErrDie},
		"die -1":                {roll(1, -1), ErrDie},
		"out of turn":           {roll(2, 2), ErrOutOfTurn},
		"a stranger":            {roll(5, 2), ErrUnknownPlayer},
		"player 0 rolls":        {roll(0, 2), ErrUnknownPlayer},
		"roll with cells":       {Action{Player: 1, Kind: ActRoll, Die: 2, Cells: cells(t, "A1")}, ErrBadAction},
		"end with a line":       {Action{Player: 1, Kind: ActEnd, Line: "A"}, ErrBadAction},
		"abandon by a player":   {Action{Player: 1, Kind: ActAbandon}, ErrBadAction},
		"keep in play":          {Action{Player: 1, Kind: ActKeep, Discard: []int{0, 1}, Salt: salt(1)}, ErrPhase},
	} {
		t.Run(name, func(t *testing.T) { refuse(t, g, tc.a, tc.want) })
	}
	if err := refuse(t, g, roll(2, 2), ErrOutOfTurn); !strings.Contains(err.Error(), "1's turn") {
		t.Fatalf("the refusal does not say whose turn: %v", err)
	}
	if o := apply(t, g, roll(1, 2)); o.Die != 2 || g.View(0).ShotsLeft != 2 || g.View(0).Die != 2 {
		t.Fatalf("roll: %+v", o)
	}
	refuse(t, g, roll(1, 1), ErrSecondRoll)
	refuse(t, g, shoot(t, 1, "A2 A3"), ErrTooManyShots)
	refuse(t, g, Action{Player: 1, Kind: ActShoot}, ErrTooFewShots)
	refuse(t, g, Action{Player: 1, Kind: ActShoot, Cells: []Cell{{10, 0}}}, ErrCell)
	o := apply(t, g, shoot(t, 1, "A2"))
	if !reflect.DeepEqual(o.Shots, []Shot{{cell(t, "A2"), 2}}) || o.Sunk != nil {
		t.Fatalf("a double hit: %+v", o)
	}
	refuse(t, g, shoot(t, 1, "A2"), ErrShot)
	refuse(t, g, end(1), ErrNotDone)
	refuse(t, g, bonus(t, 1, "A3", 0), ErrTooManyShots)
	// Player 1 sinks their own patrol boat: a trophy, no bounty.
	o = apply(t, g, shoot(t, 1, "A1"))
	if len(o.Sunk) != 1 || o.Sunk[0].Owner != 1 || o.Sunk[0].Shooter != 1 || o.Sunk[0].Shots != 1 || o.Bounties != nil {
		t.Fatalf("own card sunk: %+v", o)
	}
	if p := pegAt(t, g, "A2"); p.State != "hit" || p.Hits != 2 {
		t.Fatalf("A2 under player 2's patrol boat afloat: %+v", p)
	}
	if err := refuse(t, g, shoot(t, 1, "A3"), ErrTooManyShots); !strings.Contains(err.Error(), "bonus") {
		t.Fatalf("the refusal does not point at the bonus shot: %v", err)
	}
	o = apply(t, g, bonus(t, 1, "A3", 7)) // the card number means nothing in the standard game
	if len(o.Sunk) != 1 || o.Sunk[0].Owner != 2 || !reflect.DeepEqual(o.Bounties, []game.Payment{{From: 2, To: 1, Amount: 5}}) {
		t.Fatalf("player 2's patrol boat: %+v", o)
	}
	for _, c := range []string{"A1", "A2", "A3"} {
		if p := pegAt(t, g, c); p.State != "sunk" {
			t.Fatalf("%s: %+v", c, p)
		}
	}
	if pv := g.View(0).Players[0]; pv.BonusShots != 1 || len(pv.Trophies) != 2 || !pv.Trophies[0].Used || pv.Trophies[1].Used {
		t.Fatalf("player 1: %+v", pv)
	}
	apply(t, g, end(1))
	if g.Turn() != 2 || g.View(0).Die != 0 || g.View(0).ShotsLeft != 0 {
		t.Fatalf("turn %s", g.Turn())
	}
	apply(t, g, roll(2, 1))
	apply(t, g, shoot(t, 2, "C1"))
	apply(t, g, end(2))
	apply(t, g, roll(3, 3))
	for _, c := range []string{"J1", "J2", "J3"} {
		apply(t, g, shoot(t, 3, c))
	}
	apply(t, g, end(3))
	// Bonus shots keep for later turns, between and after the die's shots.
	refuse(t, g, bonus(t, 1, "J4", 0), ErrRollFirst)
	apply(t, g, roll(1, 1))
	apply(t, g, bonus(t, 1, "J4", 0))
	if o := apply(t, g, shoot(t, 1, "J5")); len(o.Sunk) != 1 || o.Sunk[0].Card.Kind != Carrier {
		t.Fatalf("the carrier: %+v", o)
	}
	apply(t, g, bonus(t, 1, "G1", 0))
	refuse(t, g, bonus(t, 1, "G2", 0), ErrTooManyShots)
	apply(t, g, end(1))
	// Player 2 sinks their own last card: eliminated, the turn passes at once.
	apply(t, g, roll(2, 3))
	apply(t, g, shoot(t, 2, "G2"))
	o = apply(t, g, shoot(t, 2, "G3"))
	if !reflect.DeepEqual(o.Eliminated, []game.PlayerID{2}) || g.Turn() != 3 || o.Result != nil {
		t.Fatalf("elimination: %+v, turn %s", o, g.Turn())
	}
	if pv := g.View(0).Players[1]; !pv.Eliminated || pv.Afloat != 0 || pv.BonusShots != 0 || len(pv.Trophies) != 1 {
		t.Fatalf("player 2 eliminated: %+v", pv)
	}
	refuse(t, g, end(2), ErrOutOfTurn)
	apply(t, g, roll(3, 3))
	if o := apply(t, g, shoot(t, 3, "C2")); o.Sunk != nil {
		t.Fatal(o)
	}
	if o := apply(t, g, shoot(t, 3, "C3")); len(o.Sunk) != 1 || !reflect.DeepEqual(o.Bounties, []game.Payment{{From: 1, To: 3, Amount: 5}}) {
		t.Fatalf("player 1's destroyer: %+v", o)
	}
	apply(t, g, shoot(t, 3, "E1"))
	apply(t, g, end(3))
	if g.Turn() != 1 {
		t.Fatalf("player 2 is not skipped: turn %s", g.Turn())
	}
	apply(t, g, roll(1, 1))
	apply(t, g, shoot(t, 1, "H9"))
	apply(t, g, end(1))
	apply(t, g, roll(3, 2))
	apply(t, g, shoot(t, 3, "E2"))
	o = apply(t, g, shoot(t, 3, "E3"))
	want := &Result{Winners: []game.PlayerID{3}, Settlement: game.Settlement{
		Antes:     []game.Amount{{Player: 1, Amount: 10}, {Player: 2, Amount: 10}, {Player: 3, Amount: 10}},
		PotBefore: 30, Payouts: []game.Amount{{Player: 3, Amount: 30}}, PerPoint: []game.Payment{},
	}}
	if !reflect.DeepEqual(o.Result, want) || !reflect.DeepEqual(g.Result(), want) || !reflect.DeepEqual(o.Eliminated, []game.PlayerID{1}) {
		t.Fatalf("the end: %+v / %+v", o, g.Result())
	}
	if g.Phase() != PhaseOver || g.Turn() != 0 || g.Pot() != 0 {
		t.Fatalf("after the end: phase %s turn %s pot %d", g.Phase(), g.Turn(), g.Pot())
	}
	for _, a := range []Action{roll(3, 1), end(3), shoot(t, 3, "B5"), {Kind: ActAbandon}, {Player: 1, Kind: "x"}} {
		refuse(t, g, a, ErrGameOver)
	}
}

// TestSonarRightAwayIsTheSunkSubmarines: Ann sinks Bob's submarine and
// sonars right away: that sonar is the sunk submarine's, so when her own
// submarine sinks she loses her base sonar and has none left.
func TestSonarRightAwayIsTheSunkSubmarines(t *testing.T) {
	g := entered(t, Options{Mode: Advanced},
		fleet(t, "submarine A1 A2 A3", "battleship:3 J1 J2 J3 J4", "patrol-boat:1 J9 J10"),
		fleet(t, "submarine E1 E2 E3", "destroyer:2 F1 F2 F3", "carrier:4 H1 H2 H3 H4 H5"))
	apply(t, g, roll(1, 3))
	apply(t, g, shoot(t, 1, "E1 E2 E3"))
	if v := g.View(0); !v.CanSonar || v.Players[0].Sonars != 2 {
		t.Fatalf("after sinking Bob's submarine Ann may sonar twice, once now: %+v", v.Players[0])
	}
	apply(t, g, sonar(1, "B"))
	apply(t, g, end(1))
	apply(t, g, roll(2, 3))
	apply(t, g, shoot(t, 2, "A1 A2 A3"))
	apply(t, g, end(2))
	if v := g.View(0); v.Players[0].Sonars != 0 || v.CanSonar {
		t.Fatalf("Ann's submarine sank after she used the trophy's sonar: %d sonars left, want 0", v.Players[0].Sonars)
	}
}

// TestTwoSubmarinesMayNotShareACell: a standard fleet may hold two
// submarines, but not on one cell (a submarine shares only a ship's cells).
func TestTwoSubmarinesMayNotShareACell(t *testing.T) {
	f := Fleet{
		{Kind: Submarine, Cells: []Cell{{0, 0}, {0, 1}, {0, 2}}},
		{Kind: Submarine, Cells: []Cell{{0, 2}, {1, 2}, {2, 2}}},
		{Kind: Destroyer, Cells: []Cell{{0, 0}, {1, 0}, {2, 0}}},
	}
	if err := f.Check(); !errors.Is(err, ErrFleet) {
		t.Fatalf("two submarines on A3: %v", err)
	}
	f[1].Cells = []Cell{{1, 1}, {2, 1}, {3, 1}}
	if err := f.Check(); err != nil {
		t.Fatalf("a submarine on a ship's cell: %v", err)
	}
}
