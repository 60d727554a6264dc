package game

import (
	"errors"
	"slices"
	"testing"
)

// playNext asks the game for the next round, plays it with the given scores
// (-1: no score) and records the result. It returns the setup and result.
func playNext(t *testing.T, g *Game, declared int, scores map[PlayerID]int) (RoundSetup, Result) {
	t.Helper()
	s, err := g.NextRound()
	if err != nil {
		t.Fatalf("NextRound: %v", err)
	}
	if s.Declarer != 0 {
		s.Declared = declared
	}
	sc := make([]int, len(s.Players))
	for i, p := range s.Players {
		sc[i] = scores[p]
	}
	r := play(t, g.rs, s, turns(s.Players, sc))
	res, _ := r.Result()
	if err := g.Record(res); err != nil {
		t.Fatalf("Record: %v", err)
	}
	return s, res
}

func TestGameStartRotation(t *testing.T) {
	t.Parallel()
	scores := map[PlayerID]int{alice: 7, bob: -1, carol: 3}
	tests := []struct {
		name   string
		preset string
		opts   Options
		first  PlayerID
		firsts []PlayerID // first player of rounds 1..4
	}{
		{"rotate-left", "classic", Options{}, 0, []PlayerID{alice, bob, carol, alice}},
		{"rotate-left from a chosen first", "classic", Options{}, carol, []PlayerID{carol, alice, bob, carol}},
		{"rotate-right (ship of fools)", "ship-of-fools", Options{}, 0, []PlayerID{alice, carol, bob, alice}},
		{"loser-first: no score is the loser", "classic", Options{Start: ptr(StartLoserFirst)}, 0, []PlayerID{alice, bob, bob, bob}},
		{"loser-first in a low game: the highest score loses to no score", "classic",
			Options{Start: ptr(StartLoserFirst), Low: ptr(true)}, 0, []PlayerID{alice, bob, bob, bob}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g, err := NewGame(ruleset(t, tc.preset, tc.opts), abc, tc.first)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.firsts {
				s, _ := playNext(t, g, 0, scores)
				if s.Players[0] != want || len(s.Players) != 3 {
					t.Fatalf("round %d play order %v, want %s first", i+1, s.Players, want)
				}
			}
		})
	}
}

func TestGameLoserFirstTies(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(ruleset(t, "classic", Options{Start: ptr(StartLoserFirst)}), abc, bob)
	playNext(t, g, 0, map[PlayerID]int{alice: 4, bob: 9, carol: 4})
	// Bob, Carol, Alice played; Carol and Alice tied lowest: Carol threw first.
	if s, _ := g.NextRound(); s.Players[0] != carol {
		t.Fatalf("play order %v, want carol first", s.Players)
	}
}

func TestGamePotCarriesAndReante(t *testing.T) {
	t.Parallel()
	tie := map[PlayerID]int{alice: 9, bob: 9, carol: 3}
	win := map[PlayerID]int{alice: 9, bob: 8, carol: 3}
	tests := []struct {
		name      string
		opts      Options
		secondPot int64
		ante      bool
	}{
		{"tie carries, everyone re-antes", Options{}, 3, true},
		{"tie carries, no re-ante", Options{ReanteOnTie: ptr(false)}, 3, false},
	}
	for _, tc := range tests {
		g, _ := NewGame(ruleset(t, "bar", tc.opts), abc, 0)
		playNext(t, g, 0, tie)
		s, res := playNext(t, g, 0, win)
		if s.CarriedPot != tc.secondPot || s.Ante != tc.ante {
			t.Errorf("%s: second round pot %d ante %v", tc.name, s.CarriedPot, s.Ante)
		}
		if want := tc.secondPot + 3*btoi64(tc.ante); res.Settlement.Payouts[0].Amount != want || g.Pot() != 0 {
			t.Errorf("%s: payout %v, pot %d", tc.name, res.Settlement.Payouts, g.Pot())
		}
		if s, _ := g.NextRound(); !s.Ante || s.CarriedPot != 0 {
			t.Errorf("%s: round after a win: %+v", tc.name, s)
		}
	}
}

func btoi64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func TestGameProgressiveDeclarer(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{Progressive: ptr(true), ReanteOnTie: ptr(false)})
	g, _ := NewGame(rs, abc, bob)
	scores := map[PlayerID]int{alice: 7, bob: 8, carol: 3}
	var declarers []PlayerID
	for _, d := range []int{5, 6, 4} {
		s, res := playNext(t, g, d, scores)
		declarers = append(declarers, s.Declarer)
		if res.Kind != ResultNoWinner || !s.Ante {
			t.Fatalf("round with declared %d: %s, ante %v", d, res.Kind, s.Ante)
		}
	}
	if !slices.Equal(declarers, []PlayerID{bob, carol, alice}) {
		t.Fatalf("declarers %v", declarers)
	}
	s, res := playNext(t, g, 7, scores)
	if res.Kind != ResultWin || res.Winners[0] != alice || res.Settlement.Payouts[0].Amount != 12 || s.CarriedPot != 9 {
		t.Fatalf("declared 7: %+v", res)
	}
}

func TestScarneGameToPoints(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "scarne", Options{Goal: &Goal{Kind: GoalPoints, Target: 20},
		Payoff: ptr(PayoffPerPoint), Stake: ptr(int64(2))})
	g, err := NewGame(rs, abc, bob)
	if err != nil {
		t.Fatal(err)
	}
	// Round 1: bob 11, carol 9, alice none. In round 2 carol reaches 20 and
	// bob 21; the round is completed and the highest total over 20 wins.
	s1, _ := playNext(t, g, 0, map[PlayerID]int{alice: -1, bob: 11, carol: 9})
	s2, _ := playNext(t, g, 0, map[PlayerID]int{alice: 5, bob: 10, carol: 11})
	if !s1.Ante || s2.Ante || s2.CarriedPot != 3 {
		t.Fatalf("antes: round 1 %v, round 2 %v pot %d", s1.Ante, s2.Ante, s2.CarriedPot)
	}
	if !g.Over() {
		t.Fatalf("game not over at totals %v", g.Totals())
	}
	res, _ := g.Result()
	want := []Payment{{alice, bob, 32}, {carol, bob, 2}}
	if res.Winner != bob || res.Settlement.Payouts[0] != (Amount{bob, 3}) || !slices.Equal(res.Settlement.PerPoint, want) {
		t.Fatalf("result %+v", res)
	}
	if _, err := g.NextRound(); !errors.Is(err, ErrGameOver) {
		t.Fatalf("NextRound after the end: %v", err)
	}
}

func TestScarneTieGoesToPlayoff(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "scarne", Options{Goal: &Goal{Kind: GoalRounds, Target: 2}})
	g, _ := NewGame(rs, abc, alice)
	playNext(t, g, 0, map[PlayerID]int{alice: 8, bob: 6, carol: 2})
	playNext(t, g, 0, map[PlayerID]int{alice: 4, bob: 6, carol: 2})
	if g.Over() {
		t.Fatal("a tie for the win ended the game")
	}
	s, _ := playNext(t, g, 0, map[PlayerID]int{alice: 7, bob: 7})
	if !s.Playoff || s.Ante || !slices.Equal(s.Players, []PlayerID{alice, bob}) {
		t.Fatalf("playoff setup %+v", s)
	}
	s, _ = playNext(t, g, 0, map[PlayerID]int{alice: 5, bob: -1})
	if !s.Playoff || !g.Over() {
		t.Fatalf("second playoff %+v over=%v", s, g.Over())
	}
	if res, _ := g.Result(); res.Winner != alice || res.Totals[0].Points != 12 || res.Totals[1].Points != 12 {
		t.Fatalf("result %+v", res)
	}
}

func TestRollOff(t *testing.T) {
	t.Parallel()
	five := func(p PlayerID, total int) RollOffThrow {
		d := []int{1, 1, 1, 1, 1}
		for i := 0; total > 5; i = (i + 1) % 5 {
			step := min(5, total-5)
			if d[i]+step > 6 {
				step = 6 - d[i]
			}
			d[i] += step
			total -= step
		}
		return RollOffThrow{p, d}
	}
	tests := []struct {
		name   string
		throws []RollOffThrow
		first  PlayerID
		err    error
	}{
		{"lowest total goes first", []RollOffThrow{five(alice, 20), five(bob, 9), five(carol, 15)}, bob, nil},
		{"tied lowest roll off again", []RollOffThrow{five(alice, 10), five(bob, 8), five(carol, 8), five(bob, 12), five(carol, 9)}, carol, nil},
		{"tied again, and again", []RollOffThrow{five(alice, 8), five(bob, 8), five(carol, 8), five(alice, 9), five(bob, 9), five(carol, 10),
			five(alice, 7), five(bob, 6)}, bob, nil},
		{"out of order", []RollOffThrow{five(bob, 8)}, 0, ErrRollOff},
		{"a player not in the re-roll", []RollOffThrow{five(alice, 10), five(bob, 8), five(carol, 8), five(alice, 5)}, 0, ErrRollOff},
		{"four dice", []RollOffThrow{{alice, []int{1, 2, 3, 4}}}, 0, ErrDiceCount},
		{"a 7", []RollOffThrow{{alice, []int{1, 2, 3, 4, 7}}}, 0, ErrFace},
		{"not decided", []RollOffThrow{five(alice, 8), five(bob, 8), five(carol, 9)}, 0, ErrRollOff},
		{"a throw after it is decided", []RollOffThrow{five(alice, 8), five(bob, 9), five(carol, 9), five(alice, 9)}, 0, ErrRollOff},
	}
	for _, tc := range tests {
		first, err := ResolveRollOff(abc, tc.throws)
		if !errors.Is(err, tc.err) || first != tc.first {
			t.Errorf("%s: first %q err %v; want %q %v", tc.name, first, err, tc.first, tc.err)
		}
	}
	if _, err := NewGame(ruleset(t, "scarne", Options{}), abc, 0); !errors.Is(err, ErrBadSetup) {
		t.Errorf("scarne game without a roll-off: %v", err)
	}
}

func TestGameRecordChecks(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(ruleset(t, "classic", Options{}), abc, 0)
	if err := g.Record(Result{}); !errors.Is(err, ErrNoRoundPending) {
		t.Fatalf("record without a round: %v", err)
	}
	s, _ := g.NextRound()
	again, _ := g.NextRound()
	if !slices.Equal(s.Players, again.Players) {
		t.Fatalf("NextRound is not stable before Record")
	}
	if err := g.Record(Result{Scores: []PlayerScore{{Player: bob}, {Player: alice}, {Player: carol}}}); !errors.Is(err, ErrResultMismatch) {
		t.Fatalf("mismatched result: %v", err)
	}
}

func TestCloseOut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pot  int64
		want []Amount
	}{
		{10, []Amount{{alice, 4}, {bob, 3}, {carol, 3}}},
		{2, []Amount{{alice, 1}, {bob, 1}}},
		{9, []Amount{{alice, 3}, {bob, 3}, {carol, 3}}},
		{0, nil},
	}
	for _, tc := range tests {
		if got := CloseOut(tc.pot, abc); !slices.Equal(got, tc.want) {
			t.Errorf("CloseOut(%d) = %v, want %v", tc.pot, got, tc.want)
		}
	}
}

func TestShares(t *testing.T) {
	t.Parallel()
	cases := []struct {
		total int64
		n     int
		want  []int64
	}{
		{9, 3, []int64{3, 3, 3}},
		{10, 3, []int64{4, 3, 3}},
		{11, 3, []int64{4, 4, 3}},
		{2, 4, []int64{1, 1, 0, 0}},
		{7, 1, []int64{7}},
	}
	for _, tc := range cases {
		if got := Shares(tc.total, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("Shares(%d, %d) = %v, want %v", tc.total, tc.n, got, tc.want)
		}
	}
}
