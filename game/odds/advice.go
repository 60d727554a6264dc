package odds

import (
	"fmt"
	"slices"

	"github.com/tally-dice/tally/game"
)

// ChoiceKind names what a player may do between throws.
type ChoiceKind string

// The choices. kindPath is internal: the pick of sequence in low-or-high
// when a throw could start either, made inside a roll.
const (
	KindStand  ChoiceKind = "stand"  // keep the cargo and end the turn (or, with the turn over, accept its result)
	KindReroll ChoiceKind = "reroll" // throw the Rethrow cargo dice again
	KindRoll   ChoiceKind = "roll"   // throw the dice not yet banked (forced before qualifying)
	kindPath   ChoiceKind = "path"
)

// Choice is one thing the player may do now, with what it leads to when the
// player afterwards keeps playing to win.
type Choice struct {
	Kind ChoiceKind `json:"kind"`
	// Rethrow lists the cargo faces picked up, for a re-roll.
	Rethrow []int `json:"rethrow,omitempty"`
	// PWin, PTie and PLose are the chances of winning the round outright,
	// sharing the best result, and losing; they add up to 1.
	PWin  float64 `json:"pWin"`
	PTie  float64 `json:"pTie"`
	PLose float64 `json:"pLose"`
	// ExpectedScore is the mean final score given that the player scores
	// (an automatic counts as its dice); 0 when no score is possible.
	ExpectedScore float64 `json:"expectedScore"`
	// PNoScore is the chance of not completing the sequence.
	PNoScore float64 `json:"pNoScore"`
}

// Pick is the best choice under one objective: its index in
// Advice.Choices and its value under that objective.
type Pick struct {
	Choice int     `json:"choice"`
	Value  float64 `json:"value"`
}

// Best holds the best choice under each objective. Each is found with the
// player continuing to pursue the same objective on later throws.
type Best struct {
	// Win maximizes the chance of winning outright (ties broken by the
	// chance of a tie). Its value is that chance.
	Win Pick `json:"win"`
	// WinOrTie maximizes the chance of not losing: win plus tie (ties
	// broken by the outright win). Its value is win plus tie.
	WinOrTie Pick `json:"winOrTie"`
	// Score maximizes the chance of scoring at all and then the expected
	// score (minimizes it in a low game). Its value is the expected score
	// given that the player scores.
	Score Pick `json:"score"`
}

// Advice is the answer to a Query: every legal choice with its odds, and the
// best one under each objective.
type Advice struct {
	Choices []Choice `json:"choices"`
	Best    Best     `json:"best"`
}

// Prepare builds the precomputed table for the ruleset's shape now instead
// of on the first query, so that a server can pay for it at start-up.
func Prepare(rs game.Ruleset) error {
	if err := checkRuleset(rs); err != nil {
		return err
	}
	tableFor(shapeOf(rs))
	return nil
}

// Advise answers a query exactly, by dynamic programming over the turn
// graph (see the package documentation for the model). It returns a wrapped
// sentinel error for a query no turn can be in.
func Advise(q Query) (Advice, error) {
	pos, err := q.locate()
	if err != nil {
		return Advice{}, err
	}
	t := tableFor(pos.shape)
	g := t.g
	root, ok := g.index[pos.state]
	if !ok {
		return Advice{}, fmt.Errorf("%w: banked %v, cargo %v, %d rolls left", ErrImpossibleState, q.Banked, q.Cargo, q.RollsLeft)
	}
	var options [][]edge
	var kinds []action
	if nd := g.nodes[root]; nd.outcome >= 0 {
		options = [][]edge{{{to: root, p: 1}}}
		kinds = []action{{kind: KindStand}}
	} else {
		for a := nd.acts[0]; a < nd.acts[1]; a++ {
			options = append(options, g.actionEdges(a))
			kinds = append(kinds, g.acts[a])
		}
	}
	st := t.standing(pos.point, pos.later)
	toWin := g.solve(st.playToWin())
	adv := Advice{Choices: make([]Choice, len(options))}
	for i, from := range options {
		c := st.describe(g.distribution(toWin, from), g.scale)
		// The graph is shared by every query, so the caller gets a copy.
		c.Kind, c.Rethrow = kinds[i].kind, slices.Clone(kinds[i].rethrow)
		adv.Choices[i] = c
	}
	adv.Best.Win = best(toWin, options, func(q1, _ float64) float64 { return q1 })
	adv.Best.WinOrTie = best(g.solve(st.avoidLosing()), options, func(q1, _ float64) float64 { return q1 })
	adv.Best.Score = best(g.solve(g.scale.scoreGoal()), options, func(scored, total float64) float64 {
		if scored == 0 {
			return 0
		}
		if g.scale.low {
			total = -total
		}
		return total / scored
	})
	return adv, nil
}

// describe turns a distribution of final outcomes into a Choice's odds.
func (st standing) describe(dist []float64, sc scale) Choice {
	var c Choice
	var scored, total float64
	for o, p := range dist {
		c.PWin += p * st.win[o]
		c.PTie += p * st.tie[o]
		c.PLose += p * st.lose[o]
		if o != noScore {
			scored += p
			total += p * float64(sc.score(o))
		}
	}
	// Sums of exact terms can stray past 0 or 1 by a rounding error; a
	// probability printed as -0.000000 would only confuse.
	c.PWin, c.PTie, c.PLose = unit(c.PWin), unit(c.PTie), unit(c.PLose)
	c.PNoScore = unit(dist[noScore])
	if scored > 0 {
		c.ExpectedScore = total / scored
	}
	return c
}

// unit clamps a probability to [0, 1].
func unit(p float64) float64 { return min(max(p, 0), 1) }

// best picks the option that is best under a plan, first among equals (the
// options come stand first, then re-rolls of fewer dice first), and reports
// its value through value.
func best(p plan, options [][]edge, value func(q1, q2 float64) float64) Pick {
	pick := Pick{Choice: -1}
	var b1, b2 float64
	for i, from := range options {
		var q1, q2 float64
		for _, e := range from {
			q1 += e.p * p.v1[e.to]
			q2 += e.p * p.v2[e.to]
		}
		if pick.Choice < 0 || better(q1, q2, b1, b2) {
			pick.Choice, b1, b2 = i, q1, q2
		}
	}
	pick.Value = value(b1, b2)
	return pick
}
