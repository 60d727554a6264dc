package game

import (
	"errors"
	"slices"
	"testing"
)

func TestReseatKeepsTheRotation(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{})
	g, err := NewGame(rs, []PlayerID{pA, pB, pC}, 0)
	if err != nil {
		t.Fatal(err)
	}
	playRound := func() RoundSetup {
		t.Helper()
		s, err := g.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRound(rs, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Players {
			if err := r.Apply(Action{Player: p, Kind: ActionRoll, Roll: &Roll{Dice: []int{1, 1, 2, 2, 3}}}); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 2; k++ {
				if err := r.Apply(Action{Player: p, Kind: ActionRoll, Roll: &Roll{Dice: []int{1, 1, 2, 2, 3}}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		res, ok := r.Result()
		if !ok {
			t.Fatal("round not over")
		}
		if err := g.Record(res); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := playRound(); !slices.Equal(s.Players, []PlayerID{pA, pB, pC}) {
		t.Fatalf("round 1 order %v", s.Players)
	}
	// b would start round 2; b leaves and d joins: c starts, then d, then a.
	if err := g.Reseat([]PlayerID{pA, pC, pD}); err != nil {
		t.Fatal(err)
	}
	if s := playRound(); !slices.Equal(s.Players, []PlayerID{pC, pD, pA}) {
		t.Fatalf("round 2 order %v, want c d a", s.Players)
	}
	if !slices.Equal(g.Seats(), []PlayerID{pA, pC, pD}) {
		t.Fatalf("seats %v", g.Seats())
	}
}

func TestReseatRefusals(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{})
	g, err := NewGame(rs, []PlayerID{pA, pB}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Reseat([]PlayerID{pA}); !errors.Is(err, ErrBadSetup) {
		t.Fatalf("one player: %v", err)
	}
	if _, err := g.NextRound(); err != nil {
		t.Fatal(err)
	}
	if err := g.Reseat([]PlayerID{pA, pB, pC}); !errors.Is(err, ErrBadSetup) {
		t.Fatalf("mid-round: %v", err)
	}
}
