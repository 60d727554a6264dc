package odds

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tally-dice/tally/game"
)

// modelledRulesets are the rulesets whose turns the advisor must model exactly
// as the engine plays them: every preset, and the options that change a
// turn (low, automatic on or off, progressive, Scarne with automatics).
func modelledRulesets(t testing.TB) map[string]game.Ruleset {
	t.Helper()
	on, off := true, false
	out := map[string]game.Ruleset{}
	for _, p := range game.Presets() {
		out[p.Name] = ruleset(t, p.Name, game.Options{})
		if p.Name != "scarne" {
			out[p.Name+" low"] = ruleset(t, p.Name, game.Options{Low: &on})
		}
		if p.Name != "family-meier" {
			out[p.Name+" automatic"] = ruleset(t, p.Name, game.Options{Automatic: &on})
		}
	}
	out["bar low automatic"] = ruleset(t, "bar", game.Options{Low: &on, Automatic: &on})
	out["ship-captain low automatic"] = ruleset(t, "ship-captain", game.Options{Low: &on, Automatic: &on})
	out["bar progressive"] = ruleset(t, "bar", game.Options{Progressive: &on})
	out["bar open"] = ruleset(t, "bar", game.Options{ClosedRolls: &off})
	none := ruleset(t, "classic", game.Options{Automatic: &on})
	none.Cargo = game.CargoNone
	out["classic automatic cargo none"] = none
	return out
}

// queryOf is the advisor's question for the engine's turn as it stands.
func queryOf(rs game.Ruleset, tr *game.Turn, point *int) Query {
	o := tr.Outcome()
	q := Query{Ruleset: rs, Banked: o.Banked, Cargo: o.Cargo, RollsLeft: 3 - len(o.Rolls), Point: point}
	if len(rs.Sequences) > 1 && len(o.Banked) > 0 {
		q.PathHint = pathName(o.Path)
	}
	if o.Over {
		// A turn that is over has no rolls left, whatever it did not use.
		q.RollsLeft = 0
	}
	return q
}

// topScore is the best plain score of a ruleset: all cargo dice on 6 (on 1
// in a low game); Meier's top is four children of 6.
func topScore(rs game.Ruleset) int {
	if rs.Family == game.FamilyMeier {
		if rs.Low {
			return 0
		}
		return 24
	}
	if rs.Low {
		return rs.CargoDice
	}
	return 6 * rs.CargoDice
}

// checkAdviceMatchesTurn asserts that the advisor offers exactly the
// choices the engine allows now, and that a finished turn's result is the
// engine's: no score, the same score, and an automatic exactly when the
// engine calls it one (against a point of the top plain score with nobody
// after, only an automatic wins outright).
func checkAdviceMatchesTurn(t *testing.T, name string, rs game.Ruleset, tr *game.Turn) {
	t.Helper()
	o, nx := tr.Outcome(), tr.Next()
	top := topScore(rs)
	q := queryOf(rs, tr, &top)
	adv, err := Advise(q)
	if err != nil {
		t.Fatalf("%s: the engine reached %+v but the advisor refuses %+v: %v", name, o, q, err)
	}
	var kinds []ChoiceKind
	var rethrows [][]int
	for _, c := range adv.Choices {
		kinds = append(kinds, c.Kind)
		if c.Kind == KindReroll {
			rethrows = append(rethrows, c.Rethrow)
		}
	}
	switch {
	case nx.Over:
		if !slices.Equal(kinds, []ChoiceKind{KindStand}) {
			t.Fatalf("%s: the engine's turn is over (%+v) but the advisor offers %v", name, o, kinds)
		}
		c := adv.Choices[0]
		if !o.Qualified {
			if c.PNoScore != 1 {
				t.Fatalf("%s: no score in the engine, advisor %+v", name, c)
			}
			return
		}
		if c.PNoScore != 0 || c.ExpectedScore != float64(o.Score) {
			t.Fatalf("%s: the engine scores %d (%+v), the advisor %+v", name, o.Score, o, c)
		}
		if won := c.PWin == 1; won != o.Automatic {
			t.Fatalf("%s: engine automatic %v, advisor wins outright against %d: %v (%+v)", name, o.Automatic, top, won, o)
		}
	case nx.Throw > 0:
		if !slices.Equal(kinds, []ChoiceKind{KindRoll}) {
			t.Fatalf("%s: the engine wants %d dice thrown (%+v) but the advisor offers %v", name, nx.Throw, o, kinds)
		}
	default:
		want := engineRethrows(rs, nx)
		if kinds[0] != KindStand || !nx.MayStand || !sameSets(rethrows, want) {
			t.Fatalf("%s: at %+v the engine allows stand %v and re-rolls %v, the advisor offers %v %v", name, o, nx.MayStand, want, kinds, rethrows)
		}
	}
}

// engineRethrows lists the re-rolls the engine accepts now, by trying every
// sub-multiset of the cargo on a copy of nothing: it asks the rules.
func engineRethrows(rs game.Ruleset, nx game.Next) [][]int {
	if !nx.MayReroll {
		return nil
	}
	cargo := slices.Sorted(slices.Values(nx.Rerollable))
	var out [][]int
	for mask := 1; mask < 1<<len(cargo); mask++ {
		var pick []int
		for i, f := range cargo {
			if mask&(1<<i) != 0 {
				pick = append(pick, f)
			}
		}
		if nx.RerollAll && len(pick) != len(cargo) {
			continue
		}
		if !slices.ContainsFunc(out, func(p []int) bool { return slices.Equal(p, pick) }) {
			out = append(out, pick)
		}
	}
	return out
}

// sameSets reports whether two lists of sorted multisets hold the same ones.
func sameSets(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y []int) bool { return slices.Equal(x, slices.Sorted(slices.Values(y))) }) {
			return false
		}
	}
	return true
}

// TestAdviceFollowsTheEngineTurnByTurn plays random legal turns through the
// engine and, before every throw and at the end, asks the advisor about
// the same position.
func TestAdviceFollowsTheEngineTurnByTurn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	for name, rs := range modelledRulesets(t) {
		for range 300 {
			tr := game.NewTurn(rs)
			for {
				checkAdviceMatchesTurn(t, name, rs, tr)
				nx := tr.Next()
				if nx.Over {
					break
				}
				var r game.Roll
				switch {
				case nx.Throw > 0:
					r.Dice = dice(rng, nx.Throw)
					if len(rs.Sequences) > 1 && len(tr.Outcome().Banked) == 0 && slices.Contains(r.Dice, 6) && slices.Contains(r.Dice, 1) {
						r.Path = []string{"6-5-4", "1-2-3"}[rng.IntN(2)]
					}
				case rng.IntN(4) == 0:
					if err := tr.Stand(); err != nil {
						t.Fatal(err)
					}
					continue
				default:
					opts := engineRethrows(rs, nx)
					r.Rethrow = opts[rng.IntN(len(opts))]
					r.Dice = dice(rng, len(r.Rethrow))
				}
				if err := tr.Roll(r); err != nil {
					t.Fatalf("%s: generated roll %+v rejected: %v", name, r, err)
				}
			}
		}
	}
}

// dice throws n random dice.
func dice(rng *rand.Rand, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1 + rng.IntN(6)
	}
	return out
}

// TestAdviceOnFixedPositions pins positions where the advisor and the
// engine once disagreed, with the engine's reading of the rules.
func TestAdviceOnFixedPositions(t *testing.T) {
	t.Parallel()
	on := true
	tests := []struct {
		name      string
		rs        game.Ruleset
		q         Query
		kinds     []ChoiceKind
		score     float64 // ExpectedScore of the first choice, -1 to skip
		pWinFirst float64 // PWin of the first choice, -1 to skip
	}{
		{name: "low automatic is 1-1: standing claims it and wins; re-rolling it away is still allowed",
			rs:    ruleset(t, "bar", game.Options{Low: &on, Automatic: &on}),
			q:     Query{Banked: []int{6, 5, 4}, Cargo: []int{1, 1}, RollsLeft: 2, Point: intp(2), Later: 3},
			kinds: []ChoiceKind{KindStand, KindReroll}, score: 2, pWinFirst: 1},
		{name: "low game with automatics: 6-6 is the worst cargo, not an automatic",
			rs:    ruleset(t, "bar", game.Options{Low: &on, Automatic: &on}),
			q:     Query{Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 1, Point: intp(7)},
			kinds: []ChoiceKind{KindStand, KindReroll}, score: 12, pWinFirst: 0},
		{name: "scarne with automatics: 6-6 is a plain 12 that may be re-rolled",
			rs:    ruleset(t, "scarne", game.Options{Automatic: &on}),
			q:     Query{Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 1, Point: intp(12)},
			kinds: []ChoiceKind{KindStand, KindReroll, KindReroll}, score: 12, pWinFirst: 0},
		{name: "progressive: 6-6 is a plain 12, as in the engine",
			rs:    ruleset(t, "bar", game.Options{Progressive: &on}),
			q:     Query{Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 1, Point: intp(12)},
			kinds: []ChoiceKind{KindStand, KindReroll}, score: 12, pWinFirst: 0},
		{name: "ship-captain low automatic is 1-1-1",
			rs:    ruleset(t, "ship-captain", game.Options{Low: &on, Automatic: &on}),
			q:     Query{Banked: []int{6, 5}, Cargo: []int{1, 1, 1}, RollsLeft: 1, Point: intp(3), Later: 2},
			kinds: []ChoiceKind{KindStand, KindReroll, KindReroll, KindReroll}, score: 3, pWinFirst: 1},
	}
	for _, tc := range tests {
		q := tc.q
		q.Ruleset = tc.rs
		adv := advise(t, q)
		var kinds []ChoiceKind
		for _, c := range adv.Choices {
			kinds = append(kinds, c.Kind)
		}
		if !slices.Equal(kinds, tc.kinds) {
			t.Errorf("%s: choices %v, want %v", tc.name, kinds, tc.kinds)
			continue
		}
		c := adv.Choices[0]
		if tc.score >= 0 && c.ExpectedScore != tc.score {
			t.Errorf("%s: expected score %v, want %v", tc.name, c.ExpectedScore, tc.score)
		}
		if tc.pWinFirst >= 0 && math.Abs(c.PWin-tc.pWinFirst) > 1e-12 {
			t.Errorf("%s: pWin %v, want %v", tc.name, c.PWin, tc.pWinFirst)
		}
	}
}

// TestPathHintKeepsBankingMandatory: in low-or-high a path named before
// anything is banked only settles the choice on a throw that could start
// either sequence. Banking stays mandatory (docs/rules.md §1): the engine banks
// a 1 from a throw without a 6 and refuses a 6-5-4 path named on it, so the
// advisor must not let a player with the 6-5-4 hint skip the 1-2-3 path.
func TestPathHintKeepsBankingMandatory(t *testing.T) {
	t.Parallel()
	lowHigh := ruleset(t, "low-or-high", game.Options{})
	tr := game.NewTurn(lowHigh)
	if err := tr.Roll(game.Roll{Dice: []int{1, 2, 3, 5, 5}, Path: "6-5-4"}); err == nil {
		t.Fatal("the engine accepted a 6-5-4 path on a throw that must bank 1-2-3")
	}
	for _, hint := range []string{"6-5-4", "1-2-3"} {
		want := 0.0 // the chance of no score from one throw, by enumeration
		for n := range 7776 {
			var d [5]int
			for i, k := 0, n; i < 5; i, k = i+1, k/6 {
				d[i] = 1 + k%6
			}
			if !qualifiesWithHint(lowHigh.Sequences, hint, d[:]) {
				want += 1.0 / 7776
			}
		}
		adv := advise(t, Query{Ruleset: lowHigh, RollsLeft: 1, PathHint: hint})
		if got := adv.Choices[0].PNoScore; math.Abs(got-want) > 1e-12 {
			t.Errorf("hint %s, one roll left: no score %.6f, want %.6f", hint, got, want)
		}
	}
}

// qualifiesWithHint banks one throw as the engine does for a player who
// names hint whenever the throw could start either sequence.
func qualifiesWithHint(seqs [][]int, hint string, d []int) bool {
	var path []int
	for _, seq := range seqs {
		if slices.Contains(d, seq[0]) && (path == nil || pathName(seq) == hint) {
			path = seq
		}
	}
	if path == nil {
		return false
	}
	banked, _ := bankAlong(path, nil, d)
	return len(banked) == len(path)
}
