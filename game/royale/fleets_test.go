package royale

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
)

// dealt starts a game under the current rules with fleets dealt from a
// stream seeded with seed, players 1..n, player 1 first.
func dealt(t testing.TB, o Options, n int, seed string) *Game {
	t.Helper()
	o = o.WithDefaults()
	o.Fleet = Dealt
	s := Setup{Rules: CurrentRules, Options: o, First: 1, Hands: map[game.PlayerID]Fleet{}}
	r := newStream(seed)
	for i := range n {
		p := game.PlayerID(i + 1)
		s.Players = append(s.Players, p)
		h, err := DealHand(r, o.Mode, n)
		if err != nil {
			t.Fatal(err)
		}
		s.Hands[p] = h
	}
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestKeep(t *testing.T) {
	t.Parallel()
	g := dealt(t, Options{Mode: Advanced}, 3, "keep")
	hand := g.setup.Hands[2]
	if v := g.View(2); !reflect.DeepEqual(v.Hand, hand) || v.Fleet != nil {
		t.Fatalf("the player's own view while choosing: hand %v fleet %v", v.Hand, v.Fleet)
	}
	if v := g.View(1); !reflect.DeepEqual(v.Hand, g.setup.Hands[1]) {
		t.Fatalf("player 1 sees hand %v", v.Hand)
	}
	if v := g.View(0); v.Hand != nil || v.Fleet != nil || v.Salt != nil {
		t.Fatalf("the public view shows a hand: %v", v.Hand)
	}
	for name, tc := range map[string]struct {
		a    Action
		want error
	}{
		"one discard":       {Action{Player: 2, Kind: ActKeep, Discard: []int{1}, Salt: salt(2)}, ErrDiscard},
		"three discards":    {Action{Player: 2, Kind: ActKeep, Discard: []int{1, 2, 3}, Salt: salt(2)}, ErrDiscard},
		"repeated":          {Action{Player: 2, Kind: ActKeep, Discard: []int{1, 1}, Salt: salt(2)}, ErrDiscard},
		"out of range":      {Action{Player: 2, Kind: ActKeep, Discard: []int{1, 5}, Salt: salt(2)}, ErrDiscard},
		"negative":          {Action{Player: 2, Kind: ActKeep, Discard: []int{-1, 2}, Salt: salt(2)}, ErrDiscard},
		"the submarine":     {Action{Player: 2, Kind: ActKeep, Discard: []int{0, 2}, Salt: salt(2)}, ErrDiscard},
		"no salt":           {Action{Player: 2, Kind: ActKeep, Discard: []int{1, 2}}, ErrBadAction},
		"short salt":        {Action{Player: 2, Kind: ActKeep, Discard: []int{1, 2}, Salt: salt(2)[:31]}, ErrBadAction},
		"enter when dealt":  {Action{Player: 2, Kind: ActEnter, Fleet: hand[:3], Salt: salt(2)}, ErrBadAction},
		"a stranger":        {Action{Player: 9, Kind: ActKeep, Discard: []int{1, 2}, Salt: salt(2)}, ErrUnknownPlayer},
		"a field of shots":  {Action{Player: 2, Kind: ActKeep, Discard: []int{1, 2}, Salt: salt(2), Die: 2}, ErrBadAction},
		"shooting too soon": {Action{Player: 1, Kind: ActShoot, Cells: cells(t, "A1 A2 A3")}, ErrPhase},
		"rolling too soon":  {Action{Player: 1, Kind: ActRoll, Die: 2}, ErrPhase},
		"ending too soon":   {Action{Player: 1, Kind: ActEnd}, ErrPhase},
		"unknown kind":      {Action{Player: 1, Kind: "pass"}, ErrBadAction},
	} {
		t.Run(name, func(t *testing.T) { refuse(t, g, tc.a, tc.want) })
	}
	if o := apply(t, g, Action{Player: 2, Kind: ActKeep, Discard: []int{3, 1}, Salt: salt(2)}); o.Started {
		t.Fatal("play started with fleets missing")
	}
	refuse(t, g, Action{Player: 2, Kind: ActKeep, Discard: []int{2, 4}, Salt: salt(2)}, ErrPhase)
	v := g.View(2)
	if v.Hand != nil || len(v.Fleet) != 3 || v.Fleet[0].Card.Kind != Submarine ||
		!reflect.DeepEqual(v.Fleet[1].Card, hand[2]) || !reflect.DeepEqual(v.Fleet[2].Card, hand[4]) {
		t.Fatalf("kept fleet %+v from hand %v", v.Fleet, hand)
	}
	if g.Commitments() != nil || g.View(0).Commitments != nil || !g.View(0).Players[1].Ready || g.View(0).Players[0].Ready {
		t.Fatalf("before play: %+v", g.View(0))
	}
	apply(t, g, Action{Player: 3, Kind: ActKeep, Discard: []int{1, 2}, Salt: salt(3)})
	o := apply(t, g, Action{Player: 1, Kind: ActKeep, Discard: []int{4, 3}, Salt: salt(1)})
	if !o.Started || g.Phase() != PhasePlaying || g.Turn() != 1 {
		t.Fatalf("the last fleet in: %+v, phase %s, turn %s", o, g.Phase(), g.Turn())
	}
	refuse(t, g, Action{Player: 1, Kind: ActKeep, Discard: []int{1, 2}, Salt: salt(1)}, ErrPhase)
	c := g.Commitments()
	for _, p := range []game.PlayerID{1, 2, 3} {
		s := g.seats[g.seatOf(p)]
		if !Opens(c[p], s.fleet, salt(byte(p))) || len(s.fleet) != 3 {
			t.Errorf("player %s's commitment does not open with their fleet", p)
		}
		if g.View(0).Commitments[p] != fmt.Sprintf("%x", c[p]) {
			t.Errorf("the view's commitment of %s", p)
		}
	}
}

func TestEnter(t *testing.T) {
	t.Parallel()
	std := Setup{Options: Options{Fleet: Entered}, Players: []game.PlayerID{1, 2}, First: 2}
	adv := Setup{Options: Options{Fleet: Entered, Mode: Advanced}, Players: []game.PlayerID{1, 2, 3, 4, 5}, First: 2}
	for name, tc := range map[string]struct {
		s    Setup
		f    Fleet
		want error // nil: accepted
	}{
		"standard":              {std, fleet(t, "carrier A1 A2 A3 A4 A5", "submarine B1 B2 B3", "submarine C1 C2 C3"), nil},
		"standard, two cards":   {std, fleet(t, "carrier A1 A2 A3 A4 A5", "submarine B1 B2 B3"), ErrFleet},
		"standard, a bonus":     {std, fleet(t, "carrier:4 A1 A2 A3 A4 A5", "submarine B1 B2 B3", "submarine C1 C2 C3"), ErrCard},
		"standard, overlap":     {std, fleet(t, "carrier A1 A2 A3 A4 A5", "destroyer A1 B1 C1", "submarine C2 C3 C4"), ErrFleet},
		"standard, bent":        {std, fleet(t, "carrier A1 A2 A3 A4 A5", "destroyer B1 B2 C2", "submarine C3 C4 C5"), ErrCard},
		"standard, too long":    {std, fleet(t, "carrier A1 A2 A3 A4 A5 A6", "destroyer B1 B2 B3", "submarine C3 C4 C5"), ErrCard},
		"advanced":              {adv, fleet(t, "submarine A1 A2 A3", "battleship:5 A1 B1 C1 D1"), nil},
		"advanced, bonus 0":     {adv, fleet(t, "battleship:0 A1 B1 C1 D1", "submarine A1 A2 A3"), ErrCard},
		"advanced, no bonus":    {adv, fleet(t, "submarine A1 A2 A3", "battleship A1 B1 C1 D1"), ErrCard},
		"advanced, no sub":      {adv, fleet(t, "destroyer:2 A1 A2 A3", "battleship:5 B1 B2 B3 B4"), ErrFleet},
		"advanced, two subs":    {adv, fleet(t, "submarine A1 A2 A3", "submarine B1 B2 B3"), ErrFleet},
		"advanced, sub bonus":   {adv, fleet(t, "submarine:2 A1 A2 A3", "battleship:3 B1 B2 B3 B4"), nil},
		"advanced, sub bonus 6": {adv, fleet(t, "submarine:6 A1 A2 A3", "battleship:3 B1 B2 B3 B4"), ErrCard},
		"advanced, bonus 6":     {adv, fleet(t, "submarine A1 A2 A3", "battleship:6 B1 B2 B3 B4"), ErrCard},
		"advanced, three":       {adv, fleet(t, "submarine A1 A2 A3", "battleship B1 B2 B3 B4", "destroyer C1 C2 C3"), ErrFleet},
		"advanced, off board":   {adv, Fleet{{Kind: Submarine, Cells: []Cell{{9, 8}, {9, 9}, {9, 10}}}, {Kind: PatrolBoat, Cells: cells(t, "A1 A2")}}, ErrCard},
		"advanced, ship share":  {adv, fleet(t, "submarine A1 A2 A3", "battleship:3 A1 B1 C1 D1"), nil},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g, err := NewGame(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			a := Action{Player: 1, Kind: ActEnter, Fleet: tc.f, Salt: salt(1)}
			if tc.want != nil {
				refuse(t, g, a, tc.want)
				return
			}
			want := cloneFleet(tc.f)
			apply(t, g, a)
			refuse(t, g, a, ErrPhase)
			refuse(t, g, Action{Player: 2, Kind: ActKeep, Discard: []int{0, 1}, Salt: salt(2)}, ErrBadAction)
			tc.f[0].Cells[0] = Cell{9, 9} // the game keeps its own copy
			for j, fc := range g.View(1).Fleet {
				if !reflect.DeepEqual(fc.Card, want[j]) || fc.Sunk || len(fc.Hit) != 0 {
					t.Fatalf("own card %d: %+v, want %+v", j, fc, want[j])
				}
			}
		})
	}
}

func TestEnterStartsPlay(t *testing.T) {
	t.Parallel()
	s := Setup{Options: Options{Fleet: Entered}, Players: []game.PlayerID{4, 7}, First: 7}
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	f := fleet(t, "carrier A1 A2 A3 A4 A5", "submarine B1 B2 B3", "patrol-boat C1 C2")
	apply(t, g, Action{Player: 7, Kind: ActEnter, Fleet: f, Salt: salt(7)})
	o := apply(t, g, Action{Player: 4, Kind: ActEnter, Fleet: f, Salt: salt(4)})
	if !o.Started || g.Turn() != 7 || g.Phase() != PhasePlaying {
		t.Fatalf("outcome %+v turn %s", o, g.Turn())
	}
	c := g.Commitments()
	if c[4] == c[7] || !Opens(c[4], f, salt(4)) {
		t.Fatal("commitments are not each fleet's with its own salt")
	}
	if _, err := g.Apply(Action{Player: 4, Kind: ActRoll, Die: 1}); !errors.Is(err, ErrOutOfTurn) {
		t.Fatalf("out of turn: %v", err)
	}
}

// TestBonusNumbersDealtAndEntered: a submarine carries a bonus number the
// same way dealt and entered: Tally deals it one (2), and a player enters
// the one printed on theirs, or none; either way sinking it earns a sonar
// and no shots. An advanced ship entered without its bonus number is
// refused with a refusal asking for it, rather than taken as 0 and earning
// no shots when it sinks.
func TestBonusNumbersDealtAndEntered(t *testing.T) {
	t.Parallel()
	if h := dealt(t, Options{Mode: Advanced}, 2, "bonus").setup.Hands[1]; h[0].Kind != Submarine || h[0].Bonus != 2 {
		t.Fatalf("the dealt submarine: %+v", h[0])
	}
	for _, tc := range []struct {
		sub   string
		bonus int
	}{
		{"submarine:2 A1 A2 A3", 2},
		{"submarine A1 A2 A3", 0},
		{"submarine:4 A1 A2 A3", 4},
	} {
		t.Run(tc.sub, func(t *testing.T) {
			t.Parallel()
			g := entered(t, Options{Mode: Advanced},
				fleet(t, tc.sub, "battleship:3 C1 C2 C3 C4", "patrol-boat:1 E1 E2"),
				fleet(t, "submarine J1 J2 J3", "destroyer:2 G1 G2 G3", "carrier:4 I1 I2 I3 I4 I5"))
			if c := g.View(1).Fleet[0].Card; c.Kind != Submarine || c.Bonus != tc.bonus {
				t.Fatalf("the entered submarine is kept as %+v", c)
			}
			apply(t, g, roll(1, 3))
			o := apply(t, g, shoot(t, 1, "A1 A2 A3"))
			if len(o.Sunk) != 1 || o.Sunk[0].Card.Bonus != tc.bonus || o.Sunk[0].Shots != 0 || !o.Sunk[0].Sonar {
				t.Fatalf("the submarine sunk: %+v", o.Sunk)
			}
			apply(t, g, end(1))
			apply(t, g, roll(2, 3))
			apply(t, g, shoot(t, 2, "C1 C2 C3"))
			apply(t, g, end(2))
			apply(t, g, roll(1, 1))
			if o := apply(t, g, shoot(t, 1, "C4")); len(o.Sunk) != 1 || o.Sunk[0].Shots != 3 {
				t.Fatalf("the battleship sunk: %+v", o.Sunk)
			}
		})
	}
	g, err := NewGame(Setup{Options: Options{Mode: Advanced, Fleet: Entered}, Players: []game.PlayerID{1, 2}, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = refuse(t, g, Action{Player: 1, Kind: ActEnter, Salt: salt(1),
		Fleet: fleet(t, "submarine A1 A2 A3", "battleship:3 C1 C2 C3 C4", "patrol-boat E1 E2")}, ErrCard)
	if !strings.Contains(err.Error(), "card 3") || !strings.Contains(err.Error(), "the patrol-boat's bonus number is missing: enter the number printed on the card") {
		t.Fatalf("a patrol boat without its bonus number: %v", err)
	}
}
