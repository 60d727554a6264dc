package game

import (
	"fmt"
	"slices"
)

// This file is the cargo re-roll of docs/rules.md §1: once qualified before the
// last roll, a player may stand or re-roll cargo with the rolls left, as the
// ruleset's cargo policy allows. A re-thrown result must be kept: there is
// no going back to an earlier cargo.

// validateReroll judges a throw made after the sequence is complete. When
// the cargo is sealed from whoever records the throw (another player's
// phone, or the host's recording for a player), everything is judged by
// what they can see (how many cargo dice there are, never which) and the
// faces picked up may not be named, so that the throw is refused for the
// same reason, in the same words, whatever is under the cup.
func (t *Turn) validateReroll(k int, r Roll, sealed bool) error {
	if t.rules.policy == CargoNone {
		return rollErr(k, 0, ErrRerollPolicy, "cargo may not be re-rolled in this game")
	}
	n, picked := int(t.cargo.n), len(r.Rethrow)
	if picked == 0 {
		picked = n
	}
	switch {
	case t.rules.policy == CargoTogether && picked != n:
		return rollErr(k, 0, ErrRerollPolicy,
			fmt.Sprintf("in this game all %d cargo dice are re-rolled together; keeping some is not allowed", n))
	case picked > n:
		return rollErr(k, 0, ErrRethrowNotCargo,
			fmt.Sprintf("%s picked up to re-roll, but the cargo is only %s", plural(picked, "die"), plural(n, "die")))
	}
	for _, v := range r.Rethrow {
		if v < 1 || v > 6 {
			return rollErr(k, 0, ErrRethrowNotCargo, fmt.Sprintf("a %d was picked up to re-roll, but a die shows 1 to 6", v))
		}
	}
	if len(r.Dice) != picked {
		return rollErr(k, 0, ErrDiceCount,
			fmt.Sprintf("%s thrown, but %s picked up", plural(len(r.Dice), "die"), plural(picked, "cargo die")))
	}
	if err := checkFaces(k, r.Dice); err != nil {
		return err
	}
	if r.Path != "" && !pathIs(r.Path, t.seq) {
		return rollErr(k, 0, ErrBadPath, fmt.Sprintf("path %s was named, but this turn is on %s", r.Path, pathString(t.seq)))
	}
	if sealed && len(r.Rethrow) > 0 {
		return rollErr(k, 0, ErrCargoSealed, "the cargo is under the cup, so only the player's own phone may say which of its dice "+
			"are picked up; to throw all of it again, leave out rethrow")
	}
	if cargo, _, _, bad := t.pickUp(r); bad >= 0 {
		return rollErr(k, 0, ErrRethrowNotCargo,
			fmt.Sprintf("a %d was picked up to re-roll, but the cargo is %v", r.Rethrow[bad], slices.Clone(cargo)))
	}
	return nil
}

// applyReroll replaces the picked-up cargo dice with the new throw. Every
// cargo re-roll is closed when the table plays closed rolls.
func (t *Turn) applyReroll(rec *rollRecord, r Roll) {
	_, _, left, _ := t.pickUp(r)
	for _, d := range r.Dice {
		left[d]++
	}
	t.cargo = t.cargoFromCounts(&left)
	rec.cargo = t.cargo
	rec.cargoReroll = true
	rec.closed = t.rules.closed
}

// pickUp takes the faces a re-roll names (all of the cargo when it names
// none) out of the cargo: it returns the cargo, the faces picked up, what
// stays as counts by face, and the index in r.Rethrow of the first face the
// cargo does not hold (-1 when all are there).
func (t *Turn) pickUp(r Roll) (cargo, rethrow []int, left [7]int, bad int) {
	cargo = t.ints(t.cargo)
	rethrow = r.Rethrow
	if len(rethrow) == 0 {
		rethrow = cargo
	}
	for _, v := range cargo {
		left[v]++
	}
	for i, v := range rethrow {
		if v < 1 || v > 6 || left[v] == 0 {
			return cargo, rethrow, left, i
		}
		left[v]--
	}
	return cargo, rethrow, left, -1
}
