package game

import (
	"errors"
	"slices"
	"testing"
)

func TestReseatKeepsTheRotation(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{})
	g, err := NewGame(rs, []string{"a", "b", "c"}, "")
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
	if s := playRound(); !slices.Equal(s.Players, []string{"a", "b", "c"}) {
		t.Fatalf("round 1 order %v", s.Players)
	}
	// b would start round 2; b leaves and d joins: c starts, then d, then a.
	if err := g.Reseat([]string{"a", "c", "d"}); err != nil {
		t.Fatal(err)
	}
	if s := playRound(); !slices.Equal(s.Players, []string{"c", "d", "a"}) {
		t.Fatalf("round 2 order %v, want c d a", s.Players)
	}
	if !slices.Equal(g.Seats(), []string{"a", "c", "d"}) {
		t.Fatalf("seats %v", g.Seats())
	}
}

func TestReseatRefusals(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{})
	g, err := NewGame(rs, []string{"a", "b"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Reseat([]string{"a"}); !errors.Is(err, ErrBadSetup) {
		t.Fatalf("one player: %v", err)
	}
	if _, err := g.NextRound(); err != nil {
		t.Fatal(err)
	}
	if err := g.Reseat([]string{"a", "b", "c"}); !errors.Is(err, ErrBadSetup) {
		t.Fatalf("mid-round: %v", err)
	}
}
