package odds

// scale numbers the final outcomes of a turn from worst to best, so that the
// rest of the advisor compares outcomes as plain integers whatever the game:
//
//	0                 no score (never wins)
//	1 .. n-2          the scores, worst first (highest first in a low game)
//	n-1               an automatic, which beats every score
//
// The automatic slot exists in every scale; in rulesets without automatics
// no turn ever reaches it.
type scale struct {
	min, max int  // the lowest and highest possible score
	low      bool // the lowest score wins
}

// noScore is the outcome index of a turn that did not qualify.
const noScore = 0

// size is the number of outcome indices.
func (s scale) size() int { return s.max - s.min + 3 }

// automatic is the outcome index of an automatic.
func (s scale) automatic() int { return s.size() - 1 }

// index is the outcome index of a score.
func (s scale) index(score int) int {
	if s.low {
		return 1 + s.max - score
	}
	return 1 + score - s.min
}

// score is the score an outcome index stands for; an automatic counts as its
// dice: the highest score (all cargo dice showing 6), or the lowest in a low
// game (all showing 1). It must not be called with noScore.
func (s scale) score(i int) int {
	switch {
	case i == s.automatic() && s.low:
		return s.min
	case i == s.automatic():
		return s.max
	case s.low:
		return 1 + s.max - i
	default:
		return i - 1 + s.min
	}
}

// objective is a lexicographic goal over final outcomes: a player compares
// choices by the expectation of primary and, when those are equal to within
// tolerance, by the expectation of secondary. Every goal the advisor uses is
// of this form, which is what lets one backward pass find the best play.
type objective struct {
	primary, secondary []float64 // indexed by outcome
}

// tolerance is how close two expectations must be to count as equal. Values
// that are mathematically equal can differ in the last bits when reached
// along different paths of the dynamic programme; treating them as equal
// makes the tie-break (stand first, then fewer dice) decide, deterministically.
const tolerance = 1e-12

// better reports whether the pair (a1, a2) beats (b1, b2) lexicographically.
func better(a1, a2, b1, b2 float64) bool {
	if a1 > b1+tolerance {
		return true
	}
	if a1 < b1-tolerance {
		return false
	}
	return a2 > b2+tolerance
}

// standing holds, for a point and a number of later players, what each final
// outcome of this turn means for the round: the chance it wins outright, ties
// for best, or loses.
type standing struct {
	win, tie, lose []float64 // indexed by outcome
}

// playToWin is the goal of every player in the model: win outright, and
// between equally good chances of that, tie for best.
func (st standing) playToWin() objective {
	return objective{primary: st.win, secondary: st.tie}
}

// avoidLosing maximizes win plus tie, breaking ties by the outright win.
func (st standing) avoidLosing() objective {
	notLose := make([]float64, len(st.win))
	for o := range notLose {
		notLose[o] = st.win[o] + st.tie[o]
	}
	return objective{primary: notLose, secondary: st.win}
}

// scoreGoal is the goal of a player who only wants the best score: first to
// score at all, then the highest expected score (lowest in a low game).
func (s scale) scoreGoal() objective {
	n := s.size()
	scored := make([]float64, n)
	value := make([]float64, n)
	for o := 1; o < n; o++ {
		scored[o] = 1
		value[o] = float64(s.score(o))
		if s.low {
			value[o] = -value[o]
		}
	}
	return objective{primary: scored, secondary: value}
}
