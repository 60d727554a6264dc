package odds

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tally-dice/tally/game"
)

// The Monte Carlo check plays whole rounds with seeded pseudo-random dice.
// Every decision (the asking player's after the first, and every later
// player's) is taken from the advisor's Best.Win, as the model assumes, but
// the dice, the banking, automatics and who wins are worked out here
// directly from docs/rules.md. If the advisor's arithmetic were wrong anywhere
// (the graph, the merging of throws, the later players' tables) the
// observed frequencies would drift from its numbers.

// trialsPerChoice is how many rounds each choice is played; the standard
// error of a probability is then at most 0.0035, and the check allows four.
const trialsPerChoice = 20000

// simulator plays rounds for one ruleset.
type simulator struct {
	t    testing.TB
	rs   game.Ruleset
	rng  *rand.Rand
	memo map[adviceKey]Advice
}

// adviceKey is a query without its ruleset, for memoizing advice.
type adviceKey struct {
	banked, cargo [5]int
	rolls, later  int
	point         int // -1 for none
	hint          string
}

// advice asks the advisor, remembering answers: a round asks the same few
// questions over and over.
func (s *simulator) advice(q Query) Advice {
	k := adviceKey{rolls: q.RollsLeft, later: q.Later, point: -1, hint: q.PathHint}
	copy(k.banked[:], q.Banked)
	copy(k.cargo[:], q.Cargo)
	if q.Point != nil {
		k.point = *q.Point
	}
	if adv, ok := s.memo[k]; ok {
		return adv
	}
	q.Ruleset = s.rs
	adv := advise(s.t, q)
	s.memo[k] = adv
	return adv
}

// throwDice throws n dice.
func (s *simulator) throwDice(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1 + s.rng.IntN(6)
	}
	return out
}

// result is how a turn ended.
type result struct {
	scored, automatic bool
	score             int
}

// rank orders results: no score lowest, then scores (reversed in a low
// game), an automatic highest.
func (s *simulator) rank(r result) int {
	switch {
	case r.automatic:
		return 1000
	case !r.scored:
		return -1
	case s.rs.Low:
		return 100 - r.score
	default:
		return r.score
	}
}

// round plays the asking player's turn from q, taking choice first at the
// first decision, then every later player's turn from scratch, and returns
// the asking player's result and whether they won (1), tied (0) or lost (-1).
func (s *simulator) round(q Query, first int) (result, int) {
	mine := s.turn(q, first)
	if mine.automatic {
		return mine, 1
	}
	others := -1
	if q.Point != nil {
		others = s.rank(result{scored: true, score: *q.Point})
	}
	point := q.Point
	if s.rank(mine) > others && mine.scored {
		point = &mine.score
	}
	for j := 1; j <= q.Later; j++ {
		theirs := s.turn(Query{RollsLeft: 3, Point: point, Later: q.Later - j}, -1)
		if theirs.automatic {
			return mine, -1 // the round ends; the rest forfeit
		}
		if theirs.scored && (point == nil || s.rank(theirs) > s.rank(result{scored: true, score: *point})) {
			point = &theirs.score
		}
		others = max(others, s.rank(theirs))
	}
	switch r := s.rank(mine); {
	case r > others:
		return mine, 1
	case r == others:
		return mine, 0
	default:
		return mine, -1
	}
}

// turn plays one turn from the position in q (whose Point and Later say
// what the player faces), taking choice first at the first decision when
// it is not negative.
func (s *simulator) turn(q Query, first int) result {
	if s.rs.Family == game.FamilyMeier {
		return s.meierTurn(q)
	}
	banked, cargo, rolls := slices.Clone(q.Banked), slices.Clone(q.Cargo), q.RollsLeft
	seqLen := len(s.rs.Sequences[0])
	for {
		if len(banked) == seqLen {
			score := 0
			for _, f := range cargo {
				score += f
			}
			if s.rs.Automatic && slices.Equal(cargo, sixes(len(cargo))) {
				return result{scored: true, automatic: true, score: score}
			}
			if rolls == 0 || s.rs.Cargo == game.CargoNone {
				return result{scored: true, score: score}
			}
			adv := s.advice(Query{Banked: banked, Cargo: cargo, RollsLeft: rolls, Point: q.Point, Later: q.Later})
			pick := adv.Best.Win.Choice
			if first >= 0 {
				pick, first = first, -1
			}
			c := adv.Choices[pick]
			if c.Kind == KindStand {
				return result{scored: true, score: score}
			}
			cargo = append(removeFaces(cargo, c.Rethrow), s.throwDice(len(c.Rethrow))...)
			slices.Sort(cargo)
			rolls--
			continue
		}
		if rolls == 0 {
			return result{}
		}
		first = -1 // before qualifying the only choice is to roll
		dice := s.throwDice(maxDice - len(banked))
		rolls--
		banked, cargo = s.bankDice(q, banked, dice, rolls)
	}
}

// bankDice banks from a throw (docs/rules.md §1), choosing the path in
// low-or-high the way a player playing to win would: by asking the advisor
// about each position the throw could lead to.
func (s *simulator) bankDice(q Query, banked, dice []int, rolls int) ([]int, []int) {
	if len(banked) > 0 {
		seq := s.rs.Sequences[slices.IndexFunc(s.rs.Sequences, func(seq []int) bool { return seq[0] == banked[0] })]
		return bankAlong(seq, banked, dice)
	}
	var bestBanked, bestCargo []int
	var b1, b2 float64
	// A hint settles the choice when the throw starts the hinted sequence;
	// otherwise banking is mandatory along whatever sequence it starts.
	hinted := slices.ContainsFunc(s.rs.Sequences, func(seq []int) bool {
		return q.PathHint == pathName(seq) && slices.Contains(dice, seq[0])
	})
	for _, seq := range s.rs.Sequences {
		if !slices.Contains(dice, seq[0]) || (hinted && q.PathHint != pathName(seq)) {
			continue
		}
		nb, nc := bankAlong(seq, nil, dice)
		adv := s.advice(Query{Banked: nb, Cargo: nc, RollsLeft: rolls, Point: q.Point, Later: q.Later})
		c := adv.Choices[adv.Best.Win.Choice]
		if bestBanked == nil || better(c.PWin, c.PTie, b1, b2) {
			bestBanked, bestCargo, b1, b2 = nb, nc, c.PWin, c.PTie
		}
	}
	return bestBanked, bestCargo
}

// bankAlong banks the next required values of seq from dice, one die each,
// and returns the banked values and, once complete, the sorted cargo.
func bankAlong(seq, banked, dice []int) ([]int, []int) {
	banked = slices.Clone(banked)
	left := slices.Clone(dice)
	for len(banked) < len(seq) {
		i := slices.Index(left, seq[len(banked)])
		if i < 0 {
			return banked, nil
		}
		banked = append(banked, seq[len(banked)])
		left = slices.Delete(left, i, i+1)
	}
	slices.Sort(left)
	return banked, left
}

// meierTurn plays Die Familie Meier from the position in q (docs/rules.md §3).
func (s *simulator) meierTurn(q Query) result {
	mr, mrs := slices.Contains(q.Banked, 1), slices.Contains(q.Banked, 2)
	children := 0
	for _, f := range q.Cargo {
		children += f
	}
	for rolls := q.RollsLeft; rolls > 0; rolls-- {
		before := mr && mrs
		others := 0
		for _, d := range s.throwDice(rolls) {
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
			children += others
		}
	}
	return result{scored: mr && mrs, score: children}
}

func TestAdviceMatchesMonteCarlo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		preset  string
		options game.Options
		q       Query
	}{
		{"bar fresh turn, two to come", "bar", game.Options{}, Query{RollsLeft: 3, Later: 2}},
		{"bar cargo 7 against 8", "bar", game.Options{}, Query{Banked: []int{6, 5, 4}, Cargo: []int{3, 4}, RollsLeft: 1, Point: intp(8), Later: 2}},
		{"bar chasing an automatic", "bar", game.Options{}, Query{Banked: []int{6, 5, 4}, Cargo: []int{5, 6}, RollsLeft: 2, Point: intp(11), Later: 1}},
		{"bar needing an automatic to beat a closed 12", "bar", game.Options{}, Query{Banked: []int{6, 5, 4}, Cargo: []int{1, 6}, RollsLeft: 2, Point: intp(12)}},
		{"bar low boy", "bar", game.Options{Low: new(true)}, Query{Banked: []int{6, 5}, RollsLeft: 2, Point: intp(5), Later: 1}},
		{"classic one die or both", "classic", game.Options{}, Query{Banked: []int{6, 5, 4}, Cargo: []int{1, 6}, RollsLeft: 2, Point: intp(9), Later: 1}},
		{"classic low, fresh", "classic", game.Options{Low: new(true)}, Query{RollsLeft: 3, Point: intp(4), Later: 2}},
		{"ship-captain three cargo dice", "ship-captain", game.Options{}, Query{Banked: []int{6, 5}, Cargo: []int{2, 4, 6}, RollsLeft: 1, Point: intp(11), Later: 1}},
		{"ship-captain fresh", "ship-captain", game.Options{}, Query{RollsLeft: 3, Point: intp(10), Later: 1}},
		{"low-or-high fresh", "low-or-high", game.Options{}, Query{RollsLeft: 3, Later: 2}},
		{"low-or-high on the low path", "low-or-high", game.Options{}, Query{Banked: []int{1}, RollsLeft: 2, Point: intp(7), Later: 1}},
		{"low-or-high low game", "low-or-high", game.Options{Low: new(true)}, Query{RollsLeft: 2, Point: intp(6), Later: 1}},
		{"family-meier", "family-meier", game.Options{}, Query{RollsLeft: 3, Point: intp(7), Later: 2}},
	}
	for ci, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := ruleset(t, tc.preset, tc.options)
			q := tc.q
			q.Ruleset = rs
			adv := advise(t, q)
			for i, want := range adv.Choices {
				sim := &simulator{t: t, rs: rs, rng: rand.New(rand.NewPCG(uint64(ci), uint64(i))), memo: map[adviceKey]Advice{}}
				checkAgainstSimulation(t, sim, q, i, want)
			}
		})
	}
}

// checkAgainstSimulation plays choice i of q many times and compares the
// observed frequencies and mean score with the advisor's numbers, allowing
// four standard errors.
func checkAgainstSimulation(t *testing.T, sim *simulator, q Query, i int, want Choice) {
	t.Helper()
	var win, tie, lose, none, scored int
	var sum, sumSq float64
	for range trialsPerChoice {
		r, verdict := sim.round(q, i)
		switch verdict {
		case 1:
			win++
		case 0:
			tie++
		default:
			lose++
		}
		if !r.scored {
			none++
			continue
		}
		scored++
		sum += float64(r.score)
		sumSq += float64(r.score) * float64(r.score)
	}
	n := float64(trialsPerChoice)
	for _, c := range []struct {
		what  string
		got   int
		exact float64
	}{{"win", win, want.PWin}, {"tie", tie, want.PTie}, {"lose", lose, want.PLose}, {"no score", none, want.PNoScore}} {
		se := math.Sqrt(math.Max(c.exact*(1-c.exact), 0) / n)
		if diff := math.Abs(float64(c.got)/n - c.exact); diff > 4*se+1e-9 {
			t.Errorf("choice %d %s %v: P(%s) simulated %.5f, exact %.5f (4 SE = %.5f)", i, want.Kind, want.Rethrow, c.what, float64(c.got)/n, c.exact, 4*se)
		}
	}
	if scored > 1 {
		mean := sum / float64(scored)
		sd := math.Sqrt(math.Max(sumSq/float64(scored)-mean*mean, 0))
		if diff := math.Abs(mean - want.ExpectedScore); diff > 4*sd/math.Sqrt(float64(scored))+1e-9 {
			t.Errorf("choice %d %s %v: mean score simulated %.4f, exact %.4f (4 SE = %.4f)", i, want.Kind, want.Rethrow, mean, want.ExpectedScore, 4*sd/math.Sqrt(float64(scored)))
		}
	}
}
