package odds

import (
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/tally-dice/tally/game"
)

// advise runs a query that must succeed.
func advise(t testing.TB, q Query) Advice {
	t.Helper()
	adv, err := Advise(q)
	if err != nil {
		t.Fatalf("Advise(%+v): %v", q, err)
	}
	return adv
}

// stand returns the stand choice of an advice.
func stand(t testing.TB, adv Advice) Choice {
	t.Helper()
	if adv.Choices[0].Kind != KindStand {
		t.Fatalf("first choice is %q, want stand", adv.Choices[0].Kind)
	}
	return adv.Choices[0]
}

// sixes returns n cargo dice showing 6.
func sixes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 6
	}
	return out
}

func TestStandingOnTheTopScoreNeverLoses(t *testing.T) {
	t.Parallel()
	for _, preset := range []string{"bar", "classic", "ship-of-fools", "ship-captain", "low-or-high"} {
		rs := ruleset(t, preset, game.Options{})
		seq := rs.Sequences[0]
		points := []*int{nil}
		for p := rs.CargoDice; p <= 6*rs.CargoDice; p++ {
			points = append(points, intp(p))
		}
		for _, point := range points {
			q := Query{Ruleset: rs, Banked: seq, Cargo: sixes(rs.CargoDice), RollsLeft: 1, Point: point}
			if c := stand(t, advise(t, q)); c.PLose != 0 || math.Abs(c.PWin+c.PTie-1) > 1e-15 {
				t.Errorf("%s: standing on the top score against %v with nobody after: %+v", preset, point, c)
			}
		}
	}
	// With automatics, all 6s wins outright even with players to come.
	bar := ruleset(t, "bar", game.Options{})
	for later := range 4 {
		q := Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 2, Point: intp(12), Later: later}
		if c := stand(t, advise(t, q)); c.PWin != 1 || c.ExpectedScore != 12 {
			t.Errorf("bar automatic with %d later: %+v, want a sure win scoring 12", later, c)
		}
	}
}

func TestStandingBelowThePointLoses(t *testing.T) {
	t.Parallel()
	for _, preset := range []string{"bar", "classic", "ship-of-fools", "low-or-high"} {
		rs := ruleset(t, preset, game.Options{})
		for later := range 4 {
			q := Query{Ruleset: rs, Banked: []int{6, 5, 4}, Cargo: []int{1, 1}, RollsLeft: 1, Point: intp(8), Later: later}
			if c := stand(t, advise(t, q)); c.PLose != 1 || c.PWin != 0 || c.PTie != 0 {
				t.Errorf("%s: standing on 2 against 8 with %d later: %+v, want a sure loss", preset, later, c)
			}
		}
	}
}

func TestLowGameReversesTheOrder(t *testing.T) {
	t.Parallel()
	low := ruleset(t, "bar", game.Options{Low: new(true)})
	q := Query{Ruleset: low, Banked: []int{6, 5, 4}, Cargo: []int{1, 1}, RollsLeft: 1}
	if c := stand(t, advise(t, q)); c.PWin != 1 {
		t.Errorf("low game, standing on 2 alone: %+v, want a sure win", c)
	}
	q.Point = intp(2)
	if c := stand(t, advise(t, q)); c.PTie != 1 {
		t.Errorf("low game, standing on 2 against 2: %+v, want a sure tie", c)
	}
	q.Cargo, q.Point = []int{6, 6}, intp(11)
	if c := stand(t, advise(t, q)); c.PLose != 1 {
		t.Errorf("low game without automatics, standing on 12 against 11: %+v, want a sure loss", c)
	}
}

func TestStandingOddsAreMonotone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		preset string
		low    bool
	}{{"bar", false}, {"classic", false}, {"classic", true}} {
		rs := ruleset(t, tc.preset, game.Options{Low: &tc.low})
		// A better score never lowers the chance of winning by standing.
		prev := -1.0
		for sum := 2; sum <= 11; sum++ {
			score := sum
			if tc.low {
				score = 14 - sum // 12 down to 3
			}
			cargo := []int{(score + 1) / 2, score / 2}
			c := stand(t, advise(t, Query{Ruleset: rs, Banked: []int{6, 5, 4}, Cargo: cargo, RollsLeft: 2, Point: intp(7), Later: 2}))
			if c.PWin < prev-1e-15 {
				t.Errorf("%s low=%v: standing on %d wins %.6f, less than on a worse score (%.6f)", tc.preset, tc.low, score, c.PWin, prev)
			}
			prev = c.PWin
		}
		// More players to come never raise the chance of winning by standing.
		prev = 2
		for later := 0; later <= MaxLater; later++ {
			c := stand(t, advise(t, Query{Ruleset: rs, Banked: []int{6, 5, 4}, Cargo: []int{4, 5}, RollsLeft: 1, Later: later}))
			if c.PWin > prev+1e-15 {
				t.Errorf("%s low=%v: standing on 9 with %d later wins %.6f, more than with fewer (%.6f)", tc.preset, tc.low, later, c.PWin, prev)
			}
			prev = c.PWin
		}
	}
}

func TestOddsAreConsistent(t *testing.T) {
	t.Parallel()
	states := map[string][]Query{
		"bar":          {{RollsLeft: 3}, {Banked: []int{6}, RollsLeft: 2}, {Banked: []int{6, 5, 4}, Cargo: []int{2, 6}, RollsLeft: 2}},
		"classic":      {{RollsLeft: 2}, {Banked: []int{6, 5, 4}, Cargo: []int{1, 6}, RollsLeft: 2}},
		"ship-captain": {{Banked: []int{6, 5}, Cargo: []int{1, 3, 6}, RollsLeft: 2}},
		"low-or-high":  {{RollsLeft: 3}, {Banked: []int{1, 2, 3}, Cargo: []int{3, 5}, RollsLeft: 1}},
		"family-meier": {{RollsLeft: 3}, {Banked: []int{1}, RollsLeft: 2}},
	}
	for preset, qs := range states {
		rs := ruleset(t, preset, game.Options{})
		for _, q := range qs {
			q.Ruleset = rs
			for _, later := range []int{0, 1, 3, MaxLater} {
				for _, point := range []*int{nil, intp(5), intp(9)} {
					q.Later, q.Point = later, point
					checkConsistent(t, q, advise(t, q))
				}
			}
		}
	}
}

// checkConsistent checks what must hold for any advice: the odds of each
// choice add up, and each best pick is at least as good as every listed
// choice (the listed odds assume play to win, so only Best.Win must equal
// its choice's odds exactly).
func checkConsistent(t *testing.T, q Query, adv Advice) {
	t.Helper()
	maxWin, maxNotLose := 0.0, 0.0
	for _, c := range adv.Choices {
		for _, p := range []float64{c.PWin, c.PTie, c.PLose, c.PNoScore} {
			if p < -1e-12 || p > 1+1e-12 {
				t.Errorf("%+v: probability out of range in %+v", q, c)
			}
		}
		if math.Abs(c.PWin+c.PTie+c.PLose-1) > 1e-12 {
			t.Errorf("%+v: win+tie+lose = %.15f in %+v", q, c.PWin+c.PTie+c.PLose, c)
		}
		maxWin = max(maxWin, c.PWin)
		maxNotLose = max(maxNotLose, c.PWin+c.PTie)
	}
	if got := adv.Choices[adv.Best.Win.Choice].PWin; math.Abs(got-adv.Best.Win.Value) > 1e-12 || math.Abs(got-maxWin) > 1e-12 {
		t.Errorf("%+v: best win pick %+v, its choice wins %.15f, the best choice %.15f", q, adv.Best.Win, got, maxWin)
	}
	if adv.Best.WinOrTie.Value < maxNotLose-1e-12 {
		t.Errorf("%+v: best win-or-tie value %.15f below a listed choice's %.15f", q, adv.Best.WinOrTie.Value, maxNotLose)
	}
}

func TestAnsweringTheTableQuestion(t *testing.T) {
	t.Parallel()
	// 6-5-4 with cargo 7, one roll left, the point is 8, two players to come.
	bar := ruleset(t, "bar", game.Options{})
	adv := advise(t, Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{3, 4}, RollsLeft: 1, Point: intp(8), Later: 2})
	if len(adv.Choices) != 2 || adv.Choices[1].Kind != KindReroll || len(adv.Choices[1].Rethrow) != 2 {
		t.Fatalf("choices %+v, want stand and re-roll both", adv.Choices)
	}
	if adv.Choices[0].PLose != 1 {
		t.Errorf("standing on 7 against 8: %+v, want a sure loss", adv.Choices[0])
	}
	if adv.Best.Win.Choice != 1 || adv.Best.WinOrTie.Choice != 1 {
		t.Errorf("best %+v, want the re-roll for win and win-or-tie", adv.Best)
	}
	// Re-rolling both dice has expected cargo 7; the score objective sees
	// no gain and keeps the first of equals, standing.
	if adv.Best.Score.Choice != 0 || math.Abs(adv.Choices[1].ExpectedScore-7) > 1e-12 {
		t.Errorf("best %+v, re-roll %+v: want stand first among equal expected scores of 7", adv.Best, adv.Choices[1])
	}
}

func TestPlayingToWinTakesTheTieWhenNoWinIsPossible(t *testing.T) {
	t.Parallel()
	// Against a point of 12 without automatics nothing wins: standing ties
	// for sure, re-rolling ties one time in 36 at best.
	classic := ruleset(t, "classic", game.Options{})
	adv := advise(t, Query{Ruleset: classic, Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 1, Point: intp(12)})
	if adv.Best.Win.Choice != 0 || adv.Best.Win.Value != 0 || adv.Choices[0].PTie != 1 {
		t.Errorf("best %+v, choices %+v: want stand, a sure tie", adv.Best, adv.Choices)
	}
	// Nobody can beat 12 without automatics, so standing on it before
	// another player never loses.
	adv = advise(t, Query{Ruleset: classic, Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 1, Later: 1})
	if c := stand(t, adv); c.PLose > 1e-12 || c.PTie <= 0 {
		t.Errorf("standing on 12 without automatics before one player: %+v, want no chance of losing", c)
	}
}

func TestConcurrentFirstQueriesAgree(t *testing.T) {
	t.Parallel()
	// A shape no other test uses, so its table is built under contention.
	rs := ruleset(t, "ship-captain", game.Options{Low: new(true), Automatic: new(true)})
	q := Query{Ruleset: rs, Banked: []int{6, 5}, Cargo: []int{1, 2, 6}, RollsLeft: 2, Point: intp(6), Later: 3}
	const n = 8
	results := make([]Advice, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = advise(t, q) })
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		for j, c := range results[i].Choices {
			if c.PWin != results[0].Choices[j].PWin || c.PLose != results[0].Choices[j].PLose {
				t.Fatalf("goroutine %d choice %d: %+v, goroutine 0: %+v", i, j, c, results[0].Choices[j])
			}
		}
	}
}

func TestPrepareRejectsAnUnknownFamily(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "bar", game.Options{})
	if err := Prepare(rs); err != nil {
		t.Fatalf("Prepare(bar): %v", err)
	}
	rs.Family = "yahtzee"
	if err := Prepare(rs); !errors.Is(err, ErrRuleset) {
		t.Fatalf("Prepare(yahtzee) = %v, want ErrRuleset", err)
	}
}
