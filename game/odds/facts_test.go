package odds

import (
	"math"
	"math/big"
	"testing"

	"github.com/tally-dice/tally/game"
)

// TestBarFacts pins the two published facts for bar rules with nobody to
// beat: completing 6-5-4 within three rolls, and on the first roll (one
// roll left with nothing banked is exactly one roll of five dice).
func TestBarFacts(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", game.Options{})
	tests := []struct {
		rolls int
		want  float64
	}{
		{3, 0.53998},
		{1, 0.15818},
	}
	for _, tc := range tests {
		adv, err := Advise(Query{Ruleset: bar, RollsLeft: tc.rolls})
		if err != nil {
			t.Fatal(err)
		}
		got := 1 - adv.Choices[0].PNoScore
		if math.Round(got*1e5)/1e5 != tc.want {
			t.Errorf("P(6-5-4 within %d rolls) = %.7f, want %.5f", tc.rolls, got, tc.want)
		}
	}
}

// qualifyExact is an independent reference: the exact chance of completing
// the sequence from a position, rolling ordered dice one by one (all 6^n
// outcomes, no multisets) with big.Rat. With several sequences open, a throw
// that could start more than one goes the way that qualifies more often.
func qualifyExact(seqs [][]int, path, progress, rolls int, memo map[[3]int]*big.Rat) *big.Rat {
	if path >= 0 && progress == len(seqs[path]) {
		return big.NewRat(1, 1)
	}
	if rolls == 0 {
		return new(big.Rat)
	}
	key := [3]int{path, progress, rolls}
	if r, ok := memo[key]; ok {
		return r
	}
	n := maxDice - progress
	total := new(big.Rat)
	dice := make([]int, n)
	var walk func(i int)
	walk = func(i int) {
		if i < n {
			for f := 1; f <= 6; f++ {
				dice[i] = f
				walk(i + 1)
			}
			return
		}
		var best *big.Rat
		for p := range seqs {
			if path >= 0 && p != path {
				continue
			}
			got := bankExact(seqs[p], progress, dice)
			if path < 0 && got == 0 {
				continue // this throw does not start sequence p
			}
			r := qualifyExact(seqs, p, got, rolls-1, memo)
			if best == nil || r.Cmp(best) > 0 {
				best = r
			}
		}
		if best == nil {
			best = qualifyExact(seqs, -1, 0, rolls-1, memo)
		}
		total.Add(total, best)
	}
	walk(0)
	outcomes := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(n)), nil))
	total.Quo(total, outcomes)
	memo[key] = total
	return total
}

// bankExact is the progress along seq after banking from dice, written
// directly from docs/rules.md §1: look for the next required value among the
// unused dice, as long as it shows.
func bankExact(seq []int, progress int, dice []int) int {
	used := make([]bool, len(dice))
	for progress < len(seq) {
		found := false
		for i, d := range dice {
			if !used[i] && d == seq[progress] {
				used[i], found = true, true
				break
			}
		}
		if !found {
			break
		}
		progress++
	}
	return progress
}

func TestQualifyingMatchesExactRationals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		preset string
		banked []int
		rolls  int
	}{
		{"bar", nil, 3},
		{"bar", nil, 2},
		{"bar", []int{6}, 2},
		{"bar", []int{6, 5}, 1},
		{"ship-captain", nil, 3},
		{"ship-captain", []int{6}, 1},
		{"low-or-high", nil, 3},
		{"low-or-high", []int{1}, 2},
	}
	for _, tc := range tests {
		rs := ruleset(t, tc.preset, game.Options{})
		adv, err := Advise(Query{Ruleset: rs, Banked: tc.banked, RollsLeft: tc.rolls})
		if err != nil {
			t.Fatal(err)
		}
		path := -1
		if len(tc.banked) > 0 {
			path = 0
			if tc.banked[0] == 1 {
				path = 1
			}
		}
		exact, _ := qualifyExact(rs.Sequences, path, len(tc.banked), tc.rolls, map[[3]int]*big.Rat{}).Float64()
		// With no point and nobody after, every score wins, so playing to
		// win is playing to qualify.
		if got := 1 - adv.Choices[0].PNoScore; math.Abs(got-exact) > 1e-12 {
			t.Errorf("%s banked %v, %d rolls: P(qualify) = %.15f, exact %.15f", tc.preset, tc.banked, tc.rolls, got, exact)
		}
		if got := adv.Choices[0].PWin; math.Abs(got-exact) > 1e-12 {
			t.Errorf("%s banked %v, %d rolls: P(win alone) = %.15f, want P(qualify) %.15f", tc.preset, tc.banked, tc.rolls, got, exact)
		}
	}
}

// meierExact enumerates all 6^6 ordered Meier turns, scoring each directly
// from docs/rules.md §3, and returns the exact chance of each score (index 0 to
// 24) and of no score.
func meierExact() (scores [meierMax + 1]*big.Rat, none *big.Rat) {
	counts := make([]int64, meierMax+1)
	var noneCount int64
	dice := make([]int, 6)
	var walk func(i int)
	walk = func(i int) {
		if i < len(dice) {
			for f := 1; f <= 6; f++ {
				dice[i] = f
				walk(i + 1)
			}
			return
		}
		mr, mrs, children := false, false, 0
		for _, throw := range [][]int{dice[0:3], dice[3:5], dice[5:6]} {
			before := mr && mrs
			others := 0
			for _, d := range throw {
				switch {
				case before:
					children += d
				case d == 1 && !mr:
					mr = true
				case d == 2 && !mrs:
					mrs = true
				default:
					others += d
				}
			}
			if !before && mr && mrs {
				// The other dice of the throw that completed the pair are
				// children; dice of earlier throws are not.
				children += others
			}
		}
		if mr && mrs {
			counts[children]++
		} else {
			noneCount++
		}
	}
	walk(0)
	for s := range scores {
		scores[s] = big.NewRat(counts[s], 46656)
	}
	return scores, big.NewRat(noneCount, 46656)
}

func TestMeierMatchesEnumeration(t *testing.T) {
	t.Parallel()
	meier := ruleset(t, "family-meier", game.Options{})
	scores, none := meierExact()
	adv, err := Advise(Query{Ruleset: meier, RollsLeft: 3})
	if err != nil {
		t.Fatal(err)
	}
	c := adv.Choices[0]
	if want, _ := none.Float64(); math.Abs(c.PNoScore-want) > 1e-12 {
		t.Errorf("P(no score) = %.15f, exact %.15f", c.PNoScore, want)
	}
	mean := new(big.Rat)
	scored := new(big.Rat)
	for s, p := range scores {
		mean.Add(mean, new(big.Rat).Mul(p, big.NewRat(int64(s), 1)))
		scored.Add(scored, p)
	}
	if want, _ := new(big.Rat).Quo(mean, scored).Float64(); math.Abs(c.ExpectedScore-want) > 1e-12 {
		t.Errorf("expected score = %.15f, exact %.15f", c.ExpectedScore, want)
	}
	// Against a point and nobody after, the win chance is the chance of
	// beating the point and the tie chance that of equalling it.
	for point := 0; point <= meierMax; point++ {
		adv, err := Advise(Query{Ruleset: meier, RollsLeft: 3, Point: intp(point)})
		if err != nil {
			t.Fatal(err)
		}
		above := new(big.Rat)
		for s := point + 1; s <= meierMax; s++ {
			above.Add(above, scores[s])
		}
		win, _ := above.Float64()
		tie, _ := scores[point].Float64()
		if c := adv.Choices[0]; math.Abs(c.PWin-win) > 1e-12 || math.Abs(c.PTie-tie) > 1e-12 {
			t.Errorf("point %d: win %.15f tie %.15f, exact %.15f %.15f", point, c.PWin, c.PTie, win, tie)
		}
	}
}
