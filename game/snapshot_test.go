package game

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestSnapshotResumesTheSameGame plays random games and, before every round,
// swaps the game for one resumed from its snapshot: the setups and the end
// must be exactly those of the game that was never interrupted.
func TestSnapshotResumesTheSameGame(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"bar", "classic", "scarne", "ship-of-fools", "family-meier"} {
		opts := Options{}
		if name == "scarne" {
			opts.Goal = &Goal{Kind: GoalPoints, Target: 25}
		}
		rs := ruleset(t, name, opts)
		first := PlayerID(0)
		if rs.Start == StartRollOff {
			first = pB
		}
		seats := []PlayerID{pA, pB, pC}
		plain, err := NewGame(rs, seats, first)
		if err != nil {
			t.Fatal(err)
		}
		resumed, _ := NewGame(rs, seats, first)
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for round := 0; round < 30 && !plain.Over(); round++ {
			snap, err := resumed.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if resumed, err = ResumeGame(rs, snap); err != nil {
				t.Fatalf("%s round %d: %v", name, round, err)
			}
			s1, err1 := plain.NextRound()
			s2, err2 := resumed.NextRound()
			if err1 != nil || err2 != nil || !reflect.DeepEqual(s1, s2) {
				t.Fatalf("%s round %d: setups differ: %+v %v / %+v %v", name, round, s1, err1, s2, err2)
			}
			if rs.Progressive {
				s1.Declared = 7
			}
			r, _ := randomRound(t, rng, rs, s1)
			res, _ := r.Result()
			if err := plain.Record(res); err != nil {
				t.Fatal(err)
			}
			if err := resumed.Record(res); err != nil {
				t.Fatal(err)
			}
		}
		a, _ := plain.Snapshot()
		b, _ := resumed.Snapshot()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: final states differ:\n%+v\n%+v", name, a, b)
		}
	}
}

func TestResumeGameRefusesImpossibleStates(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{})
	good := GameState{Seats: []PlayerID{pA, pB}, Totals: []int64{0, 0}, Ante: true}
	if _, err := ResumeGame(rs, good); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(*GameState){
		"first outside":      func(s *GameState) { s.First = 2 },
		"totals short":       func(s *GameState) { s.Totals = []int64{0} },
		"negative pot":       func(s *GameState) { s.Pot = -1 },
		"winner not seated":  func(s *GameState) { s.Over, s.Winner = true, pZ },
		"over without":       func(s *GameState) { s.Over = true },
		"playoff not seated": func(s *GameState) { s.Playoff = []PlayerID{pA, pZ} },
		"one seat":           func(s *GameState) { s.Seats, s.Totals = []PlayerID{pA}, []int64{0} },
	} {
		s := good
		s.Seats, s.Totals = append([]PlayerID(nil), good.Seats...), append([]int64(nil), good.Totals...)
		mutate(&s)
		if _, err := ResumeGame(rs, s); !errors.Is(err, ErrBadSetup) {
			t.Errorf("%s: %v", name, err)
		}
	}
	g, _ := NewGame(rs, []PlayerID{pA, pB}, 0)
	if _, err := g.NextRound(); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Snapshot(); !errors.Is(err, ErrBadSetup) {
		t.Fatalf("snapshot mid-round: %v", err)
	}
}
