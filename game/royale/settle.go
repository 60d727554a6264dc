package royale

import (
	"slices"

	"github.com/tally-dice/tally/game"
)

// This file is the money (docs/royale.md §4): the winner takes the pot, tied
// winners split it as the dice games do, an abandoned game returns it.

// Result is how a game ended and its money.
type Result struct {
	Winners    []game.PlayerID `json:"winners"` // one, or tied players; empty when abandoned
	Abandoned  bool            `json:"abandoned,omitempty"`
	Settlement game.Settlement `json:"settlement"` // Antes, PotBefore, Payouts, CarryOver, Remainder (PerPoint empty)
}

// finish ends the game won by winners: one takes the whole pot; tied
// winners take equal whole shares in seat order and the indivisible
// remainder stays in the pot.
func (g *Game) finish(winners []game.PlayerID) *Result {
	st := g.settlement()
	n := int64(len(winners))
	if share := st.PotBefore / n; share > 0 {
		for _, w := range winners {
			st.Payouts = append(st.Payouts, game.Amount{Player: w, Amount: share})
		}
	}
	st.Remainder = st.PotBefore % n
	st.CarryOver = st.Remainder
	return g.over(Result{Winners: slices.Clone(winners), Settlement: st})
}

// abandon ends the game without a winner: the whole pot goes back to the
// players as at closing a dice table (game.CloseOut), the indivisible
// units one each in play order from the game's first player (seat order
// under Rules0: Setup.ReturnOrder).
func (g *Game) abandon() Outcome {
	st := g.settlement()
	st.Payouts = game.CloseOut(st.PotBefore, g.setup.ReturnOrder())
	return Outcome{Result: g.over(Result{Winners: []game.PlayerID{}, Abandoned: true, Settlement: st})}
}

// settlement is the antes and the pot before it is paid out.
func (g *Game) settlement() game.Settlement {
	return game.Settlement{Antes: g.Antes(), PotBefore: g.potBefore()}
}

// over records the result and ends the game; it returns a copy for the
// outcome.
func (g *Game) over(r Result) *Result {
	st := &r.Settlement
	if st.Antes == nil {
		st.Antes = []game.Amount{}
	}
	if st.Payouts == nil {
		st.Payouts = []game.Amount{}
	}
	st.PerPoint = []game.Payment{}
	g.result = &r
	g.phase = PhaseOver
	g.t = turnState{}
	return cloneResult(g.result)
}

// cloneResult is a deep copy of r.
func cloneResult(r *Result) *Result {
	c := *r
	c.Winners = slices.Clone(r.Winners)
	c.Settlement.Antes = slices.Clone(r.Settlement.Antes)
	c.Settlement.Payouts = slices.Clone(r.Settlement.Payouts)
	c.Settlement.PerPoint = slices.Clone(r.Settlement.PerPoint)
	return &c
}
