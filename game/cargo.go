package game

import "fmt"

// This file is the cargo re-roll of RULES.md §1: once qualified before the
// last roll, a player may stand or re-roll cargo with the rolls left, as the
// ruleset's cargo policy allows. A re-thrown result must be kept.

// rerollCargo judges a throw made after the sequence is complete.
func (t *Turn) rerollCargo(k int, r Roll) (RollResult, error) {
	if t.rs.Cargo == CargoNone {
		return RollResult{}, rollErr(k, 0, ErrRerollPolicy, "cargo may not be re-rolled in this game")
	}
	rethrow := r.Rethrow
	if len(rethrow) == 0 {
		rethrow = t.cargo
	}
	var left [7]int // cargo faces left after the picked-up dice are removed
	for _, v := range t.cargo {
		left[v]++
	}
	for i, v := range rethrow {
		if v < 1 || v > 6 || left[v] == 0 {
			return RollResult{}, rollErr(k, 0, ErrRethrowNotCargo, t.notCargoDetail(r.Rethrow, i))
		}
		left[v]--
	}
	if t.rs.Cargo == CargoTogether && len(rethrow) != len(t.cargo) {
		return RollResult{}, rollErr(k, 0, ErrRerollPolicy,
			fmt.Sprintf("in this game all %d cargo dice are re-rolled together; keeping some is not allowed", len(t.cargo)))
	}
	if len(r.Dice) != len(rethrow) {
		return RollResult{}, rollErr(k, 0, ErrDiceCount,
			fmt.Sprintf("%s thrown, but %s picked up", plural(len(r.Dice), "die"), plural(len(rethrow), "cargo die")))
	}
	if err := checkFaces(k, r.Dice); err != nil {
		return RollResult{}, err
	}
	if r.Path != "" && !pathIs(r.Path, t.seq) {
		return RollResult{}, rollErr(k, 0, ErrBadPath,
			fmt.Sprintf("path %s was named, but this turn is on %s", r.Path, pathString(t.seq)))
	}
	for _, d := range r.Dice {
		left[d]++
	}
	t.cargo = t.cargoFromCounts(&left, len(t.cargo))
	return RollResult{CargoReroll: true, Closed: t.rs.ClosedRolls, Cargo: t.cargo}, nil
}

// notCargoDetail explains which picked-up face is not in the cargo.
func (t *Turn) notCargoDetail(rethrow []int, i int) string {
	return fmt.Sprintf("a %d was picked up to re-roll, but the cargo is %v", rethrow[i], t.cargo)
}
