package royale

import (
	"reflect"
	"testing"

	"github.com/tally-dice/tally/game"
)

func sonar(p game.PlayerID, line string) Action {
	return Action{Player: p, Kind: ActSonar, Line: line}
}

// TestAdvancedGame plays volleys, double hits, trophies and their bonus
// volleys, and sonar earned by sinking submarines.
func TestAdvancedGame(t *testing.T) {
	t.Parallel()
	g := entered(t, Options{Mode: Advanced, Bounty: 3},
		fleet(t, "submarine A1 A2 A3", "battleship:3 A1 B1 C1 D1", "patrol-boat:1 J9 J10"),
		fleet(t, "submarine A1 A2 A3", "destroyer:2 F1 F2 F3", "carrier:4 H1 H2 H3 H4 H5"),
		fleet(t, "submarine E5 E6 E7", "patrol-boat:1 G9 G10", "destroyer:2 I1 I2 I3"))
	if v := g.View(0); !v.CanSonar || v.Players[0].Sonars != 1 || v.Players[1].Sonars != 1 {
		t.Fatalf("the base sonar: %+v", v)
	}
	for _, line := range []string{"K", "0", "11", "01", " C", "j ", ""} {
		refuse(t, g, sonar(1, line), ErrLine)
	}
	if o := apply(t, g, sonar(1, "a")); o.Ping == nil || !*o.Ping {
		t.Fatalf("sonar on row A: %+v", o)
	}
	if calls := g.View(0).Sonar; len(calls) != 1 || calls[0].Line != "A" {
		t.Fatalf("sonar on row a is written %+v", calls)
	}
	refuse(t, g, sonar(1, "B"), ErrSonar)
	apply(t, g, roll(1, 3))
	refuse(t, g, shoot(t, 1, "A1 A2"), ErrTooFewShots)
	refuse(t, g, shoot(t, 1, "A1 A2 A1"), ErrShot)
	refuse(t, g, shoot(t, 1, "A1 A2 A3 A4"), ErrTooManyShots)
	refuse(t, g, end(1), ErrNotDone)
	o := apply(t, g, shoot(t, 1, "A1 A2 A3"))
	if !reflect.DeepEqual(o.Shots, []Shot{{cell(t, "A1"), 3}, {cell(t, "A2"), 2}, {cell(t, "A3"), 2}}) {
		t.Fatalf("the volley: %+v", o.Shots)
	}
	if len(o.Sunk) != 2 || o.Sunk[0].Owner != 1 || o.Sunk[1].Owner != 2 || !o.Sunk[0].Sonar || o.Sunk[1].Shots != 0 ||
		!reflect.DeepEqual(o.Bounties, []game.Payment{{From: 2, To: 1, Amount: 3}}) {
		t.Fatalf("two submarines: %+v", o)
	}
	for c, want := range map[string]Peg{"A1": {cell(t, "A1"), "hit", 3}, "A2": {cell(t, "A2"), "sunk", 2}, "A3": {cell(t, "A3"), "sunk", 2}} {
		if p := pegAt(t, g, c); p != want {
			t.Errorf("%s: %+v, want %+v", c, p, want)
		}
	}
	if v := g.View(0); !v.CanSonar || v.Players[0].Sonars != 2 || v.Players[1].Sonars != 0 || v.ShotsLeft != 0 {
		t.Fatalf("after the volley: %+v", v)
	}
	refuse(t, g, shoot(t, 1, "B5 B6 B7"), ErrTooManyShots)
	refuse(t, g, bonus(t, 1, "B5", 0), ErrTooManyShots)
	refuse(t, g, bonus(t, 1, "B5", 1), ErrTooManyShots)
	refuse(t, g, bonus(t, 1, "B5", 3), ErrBadAction)
	if o := apply(t, g, sonar(1, "5")); !*o.Ping {
		t.Fatal("column 5 holds the carrier and a submarine")
	}
	if o := apply(t, g, sonar(1, "J")); !*o.Ping {
		t.Fatal("row J holds player 1's own patrol boat")
	}
	refuse(t, g, sonar(1, "C"), ErrSonar)
	if v := g.View(0); v.CanSonar || len(v.Sonar) != 3 || v.Sonar[1] != (SonarCall{1, "5", true}) {
		t.Fatalf("sonar calls %+v", v.Sonar)
	}
	apply(t, g, end(1))
	refuse(t, g, sonar(2, "A"), ErrSonar) // player 2's submarine sank
	apply(t, g, roll(2, 2))
	refuse(t, g, end(2), ErrNotDone)
	apply(t, g, shoot(t, 2, "B1 C1"))
	apply(t, g, end(2))
	if !g.View(0).CanSonar {
		t.Fatal("player 3 has the base sonar")
	}
	apply(t, g, roll(3, 1))
	refuse(t, g, sonar(3, "A"), ErrSonar) // after the roll
	if o := apply(t, g, shoot(t, 3, "D1")); len(o.Sunk) != 1 || o.Sunk[0].Shots != 3 || o.Sunk[0].Card.Kind != Battleship {
		t.Fatalf("the battleship: %+v", o)
	}
	refuse(t, g, sonar(3, "A"), ErrSonar) // a battleship earns no sonar
	refuse(t, g, bonus(t, 3, "J9 J10", 0), ErrTooFewShots)
	refuse(t, g, bonus(t, 3, "J9 J10 D1", 0), ErrShot)
	o = apply(t, g, bonus(t, 3, "J9 J10 G9", 0))
	if !reflect.DeepEqual(o.Eliminated, []game.PlayerID{1}) || g.Turn() != 3 || o.Result != nil {
		t.Fatalf("player 1 out: %+v", o)
	}
	if pv := g.View(0).Players[2]; pv.BonusShots != 1 || len(pv.Trophies) != 2 || !pv.Trophies[0].Used {
		t.Fatalf("player 3's trophies: %+v", pv)
	}
	apply(t, g, end(3))
	if g.Turn() != 2 {
		t.Fatalf("player 1 is not skipped: %s", g.Turn())
	}
	apply(t, g, roll(2, 3))
	o = apply(t, g, shoot(t, 2, "E5 E6 E7"))
	if len(o.Sunk) != 1 || !o.Sunk[0].Sonar || !g.View(0).CanSonar {
		t.Fatalf("player 3's submarine: %+v", o)
	}
	if o := apply(t, g, sonar(2, "e")); *o.Ping {
		t.Fatal("row E has no card afloat")
	}
	apply(t, g, end(2))
	refuse(t, g, sonar(3, "A"), ErrSonar) // player 3's submarine sank
	apply(t, g, roll(3, 2))
	apply(t, g, shoot(t, 3, "F1 F2"))
	refuse(t, g, bonus(t, 3, "F3", 1), ErrTooManyShots) // used
	o = apply(t, g, bonus(t, 3, "F3", 2))
	if len(o.Sunk) != 1 || o.Sunk[0].Shots != 2 {
		t.Fatalf("player 2's destroyer: %+v", o)
	}
	if pv := g.View(0).Players[2]; pv.BonusShots != 2 {
		t.Fatalf("player 3: %+v", pv)
	}
	// A bonus volley may come before the die's volley.
	apply(t, g, end(3))
	apply(t, g, roll(2, 1))
	apply(t, g, shoot(t, 2, "B9"))
	apply(t, g, end(2))
	apply(t, g, roll(3, 1))
	apply(t, g, bonus(t, 3, "H1 H2", 0))
	if v := g.View(0); v.ShotsLeft != 1 || v.Players[2].BonusShots != 0 {
		t.Fatalf("after a bonus volley: %+v", v)
	}
	apply(t, g, shoot(t, 3, "H3"))
	o = apply(t, g, Action{Kind: ActAbandon})
	if o.Result == nil || !o.Result.Abandoned || len(o.Result.Winners) != 0 || o.Result.Settlement.PotBefore != 0 ||
		len(o.Result.Settlement.Payouts) != 0 || len(g.View(0).Revealed) != 3 {
		t.Fatalf("abandoned: %+v", o.Result)
	}
}

// TestSonarTiming: one sonar at a turn's start; the sonars a volley earns
// right after it, the base sonar used first; or at a later turn's start.
func TestSonarTiming(t *testing.T) {
	t.Parallel()
	g := entered(t, Options{Mode: Advanced},
		fleet(t, "submarine A1 A2 A3", "patrol-boat:1 J9 J10", "destroyer:2 J1 J2 J3"),
		fleet(t, "submarine C1 C2 C3", "patrol-boat:1 G9 G10", "destroyer:2 E1 E2 E3"))
	apply(t, g, roll(1, 3))
	apply(t, g, shoot(t, 1, "C1 C2 C3"))
	if pv := g.View(0).Players[0]; pv.Sonars != 2 {
		t.Fatalf("base and trophy: %+v", pv)
	}
	apply(t, g, end(1)) // the earned sonar keeps for a later turn's start
	apply(t, g, roll(2, 1))
	refuse(t, g, sonar(2, "A"), ErrSonar)
	apply(t, g, shoot(t, 2, "H5"))
	apply(t, g, end(2))
	if o := apply(t, g, sonar(1, "1")); !*o.Ping {
		t.Fatal("J1")
	}
	if v := g.View(0); v.CanSonar || v.Players[0].Sonars != 1 || g.seats[0].baseSonar || g.seats[0].trophies[0].Used {
		t.Fatalf("the base sonar goes first: %+v", v)
	}
	refuse(t, g, sonar(1, "2"), ErrSonar)
	apply(t, g, roll(1, 1))
	refuse(t, g, sonar(1, "2"), ErrSonar)
	apply(t, g, shoot(t, 1, "D4"))
	apply(t, g, end(1))
	apply(t, g, roll(2, 1))
	apply(t, g, shoot(t, 2, "H6"))
	apply(t, g, end(2))
	apply(t, g, sonar(1, "C"))
	if pv := g.View(0).Players[0]; pv.Sonars != 0 || !pv.Trophies[0].Used {
		t.Fatalf("the trophy's sonar: %+v", pv)
	}
	refuse(t, g, sonar(1, "C"), ErrSonar)
}
