package game

import (
	"fmt"
	"slices"
)

// This file is who sits at the table between rounds: players join at the
// end of the seat order and leave from any seat, and the rotation carries
// on as if they had always (or never) been there.

// Seats are the players clockwise.
func (g *Game) Seats() []PlayerID { return slices.Clone(g.seats) }

// Playoff lists the players of a pending playoff, in play order.
func (g *Game) Playoff() []PlayerID { return slices.Clone(g.playoff) }

// Reseat changes who sits at the table between rounds. The player due to
// throw first next round keeps that turn if still seated; if they left, it
// passes clockwise to the next player still seated, and so does the
// progressive declarer's turn. A pending playoff must be played first, and
// nobody joins or leaves a game of rounds once it has begun, because the
// totals would no longer compare.
func (g *Game) Reseat(seats []PlayerID) error {
	if err := checkSeats(seats); err != nil {
		return err
	}
	switch {
	case g.pending != nil:
		return fmt.Errorf("%w: seats change only between rounds", ErrBadSetup)
	case len(g.playoff) > 0:
		return fmt.Errorf("%w: the playoff among %v must be played before anyone joins or leaves", ErrBadSetup, g.playoff)
	case g.rs.Goal.Kind != GoalRound && g.rounds > 0:
		return fmt.Errorf("%w: nobody joins or leaves a game of rounds once it has begun", ErrBadSetup)
	}
	first := successor(g.seats, g.first, seats)
	declarer := successor(g.seats, g.declarer, seats)
	g.seats = slices.Clone(seats)
	g.first, g.declarer = first, declarer
	g.totals = make([]int64, len(seats))
	return nil
}

// successor is the index in seats of the player at old[i], or, if they
// left, of the next player clockwise from them who is still seated; the
// first seat when none of the old players remain.
func successor(old []PlayerID, i int, seats []PlayerID) int {
	for k := range old {
		if j := slices.Index(seats, old[(i+k)%len(old)]); j >= 0 {
			return j
		}
	}
	return 0
}
